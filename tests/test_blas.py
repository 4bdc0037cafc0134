"""The OpenBLAS kernels a run records (rocking_contact.blas)."""

import os
import subprocess
import sys

import pytest

from rocking_contact import blas


def _kernels_in_fresh_process(env: dict[str, str]) -> str:
    code = ("import numpy; numpy.ones((3, 3)) @ numpy.ones(3)\n"
            "from rocking_contact.blas import openblas_kernels\n"
            "print(openblas_kernels())")
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, check=True).stdout.strip()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/maps")
def test_the_kernels_chosen_by_the_environment_are_recorded_with_it():
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_CORETYPE"}
    chosen = _kernels_in_fresh_process({**env, "OPENBLAS_CORETYPE": "Sandybridge"})
    assert chosen == "Sandybridge; OPENBLAS_CORETYPE=Sandybridge"
    # left to OpenBLAS, it names the kernels it picked for this CPU, not the variable
    picked = _kernels_in_fresh_process(env)
    assert picked and " " not in picked and "OPENBLAS_CORETYPE" not in picked


def test_libraries_that_chose_differently_are_named(monkeypatch):
    paths = {"/s/numpy.libs/libscipy_openblas64_.so": "Haswell",
             "/s/scipy.libs/libscipy_openblas.so": "Haswell",
             "/s/dolfinx_solver/lib/libopenblas.so.0": "SkylakeX"}
    monkeypatch.setattr(blas, "_loaded_openblas", lambda: list(paths))
    monkeypatch.setattr(blas, "_corename", paths.get)
    monkeypatch.delenv("OPENBLAS_CORETYPE", raising=False)
    assert blas.openblas_kernels() == "Haswell (numpy, scipy), SkylakeX (PETSc)"


def test_nothing_loaded_or_no_proc_gives_none(tmp_path, monkeypatch):
    assert blas._loaded_openblas(tmp_path / "absent") == []
    monkeypatch.setattr(blas, "_loaded_openblas", lambda: [])
    assert blas.openblas_kernels() is None


def test_each_bundled_library_is_named_by_its_package():
    site = "/venv/lib/python3.12/site-packages"
    assert blas._owner(f"{site}/numpy.libs/libscipy_openblas64_-4b78795a.so") == "numpy"
    assert blas._owner(f"{site}/dolfinx_solver/lib/libopenblas.so.0") == "PETSc"
    assert blas._owner("/usr/lib/libopenblas.so.0") == "libopenblas.so.0"


#: what a block run records on an AMD EPYC whose libraries chose three kernel sets, and what
#: the report's process, which loads only numpy's and PETSc's, records on the same machine
#: (measured at 46dbea7: `run sdnv105d` then `report`)
BLOCK_RUN = "SkylakeX (scipy, numpy), Zen (basix), Cooperlake (PETSc)"
REPORT = "Cooperlake (PETSc), SkylakeX (numpy)"


@pytest.mark.parametrize(("run", "report", "same"), [
    # the libraries both loaded chose alike: the same stack, whatever else each loaded
    (BLOCK_RUN, REPORT, True),
    ("SkylakeX", REPORT, True),           # a discrete run, numpy's and scipy's alone
    ("Haswell", "Haswell", True),
    # a library both loaded chose another kernel, or none of the other's chose the one
    ("Haswell (scipy, numpy), Zen (basix), Cooperlake (PETSc)", REPORT, False),
    ("Haswell", REPORT, False),
    ("Haswell", "SkylakeX", False),
    # chosen by the environment in one process only
    ("SkylakeX; OPENBLAS_CORETYPE=SkylakeX", "SkylakeX", False),
    ("Haswell; OPENBLAS_CORETYPE=Haswell", "Haswell; OPENBLAS_CORETYPE=Haswell", True),
])
def test_two_processes_kernels_differ_only_where_a_library_both_loaded_chose_otherwise(
        run, report, same):
    assert blas.same_kernels(run, report) is same
    assert blas.same_kernels(report, run) is same


def test_the_report_finds_a_run_of_its_own_machine_computed_with_its_own_stack():
    from rocking_contact.report.provenance import stack_note

    own = {"numpy": "2.5.5", "OpenBLAS kernels": REPORT}
    assert stack_note({**own, "OpenBLAS kernels": BLOCK_RUN}, own) == (
        "Stack: the run was computed with the versions listed at the end of the report.")
    other = "Haswell (scipy, numpy), Zen (basix), Cooperlake (PETSc)"
    assert stack_note({**own, "OpenBLAS kernels": other}, own) == (
        f"Stack: the run was computed with another stack: OpenBLAS kernels {other} "
        f"(report: {REPORT}).")
