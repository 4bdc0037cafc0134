"""Results directories to draw: a real discrete run and a sample rocking block."""

import pytest

import rocking_contact as rc
from rocking_contact.viz.sample import write_sample


@pytest.fixture(scope="session")
def discrete_dir(tmp_path_factory):
    """sdnd101a run as shipped (a mass bouncing on a stop), with its plots."""
    out = tmp_path_factory.mktemp("sdnd101a")
    rc.run(rc.load_case("sdnd101a"), out=out, quiet=True)
    return out


@pytest.fixture(scope="session")
def block_dir(tmp_path_factory):
    """A rocking block in the FEM results format (fields.pvd + block history columns)."""
    return write_sample(str(tmp_path_factory.mktemp("block") / "sdnv105_sample"))
