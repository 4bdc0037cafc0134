"""A results tree like `make demo` leaves, and the report written from it."""

import pytest

import rocking_contact as rc
from rocking_contact.report.cli import write_report
from rocking_contact.viz.sample import write_sample

#: cheap shipped cases of each kind that runs without FEM: two discrete (one with a pad closed
#: throughout, a sustained contact) and the rigid block
SHIPPED = ("sdnd101a", "sdnd100a", "sdnv105_rigid")


@pytest.fixture(scope="session")
def results_dir(tmp_path_factory):
    """Shipped runs plus two FEM-format sample treatments of SDNV105."""
    root = tmp_path_factory.mktemp("results")
    for name in SHIPPED:
        rc.run(rc.load_case(name), out=root / name, quiet=True, plots=False)
    write_sample(root / "sdnv105_sample", case="sdnv105_sample")
    write_sample(root / "sdnv105_sample_b", case="sdnv105_sample_b", ratio=0.7,
                 fields=False)
    return root


@pytest.fixture(scope="session")
def report_dir(results_dir, tmp_path_factory):
    """The report of every result in ``results_dir``, views included."""
    out = tmp_path_factory.mktemp("report")
    write_report([], results_dir, out)
    return out
