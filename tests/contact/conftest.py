"""Contact tests: ``rocking_contact`` is imported first (it prepares PETSc's MPI libraries)."""

import json

import pytest

import rocking_contact as rc


@pytest.fixture(scope="session")
def serial_run(tmp_path_factory):
    """``serial_run(name, overrides)``: the serial run of case ``name`` with ``overrides``
    (written, without plots), made once for the session: several modules compare with the
    same run (test_cases_fast's B to its first collision is test_contact_mpi's). Read it,
    do not change it."""
    made = {}

    def run(name, overrides):
        key = (name, json.dumps(overrides, sort_keys=True))
        if key not in made:
            made[key] = rc.run(rc.load_case(name, overrides), out=tmp_path_factory.mktemp(name),
                               plots=False, quiet=True)
        return made[key]

    return run
