"""A results tree like `make demo` leaves, and the report written from it."""

import json

import pytest

import rocking_contact as rc
from rocking_contact.config import read_toml, shipped_cases
from rocking_contact.report.cli import write_report
from rocking_contact.viz.sample import write_sample

#: cheap shipped cases of each kind that runs without FEM: two discrete (one with a pad closed
#: throughout, a sustained contact) and the rigid block
SHIPPED = ("sdnd101a", "sdnd100a", "sdnv105_rigid")


def _measured(folder):
    """sdnv105_rigid measuring one more quantity, without reference (the table's
    information rows of a case's own [[quantity]] entries): its file's list and THETA's
    maximum."""
    lines = ['extends = "sdnv105_rigid"', '[case]', 'name = "sdnv105_rigid_measured"']
    for q in [*read_toml(shipped_cases()["sdnv105_rigid"])["quantity"],
              {"name": "theta_max", "column": "THETA", "op": "max", "window": [0.0, 0.33]}]:
        lines += ["[[quantity]]", *(f"{k} = {json.dumps(v)}" for k, v in q.items())]
    path = folder / "sdnv105_rigid_measured.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.fixture(scope="session")
def results_dir(tmp_path_factory):
    """Shipped runs plus two FEM-format sample treatments of SDNV105."""
    root = tmp_path_factory.mktemp("results")
    for name in SHIPPED:
        rc.run(rc.load_case(name), out=root / name, quiet=True, plots=False)
    rc.run(rc.load_case(_measured(tmp_path_factory.mktemp("case"))),
           out=root / "sdnv105_rigid_measured", quiet=True, plots=False)
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
