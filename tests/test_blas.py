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
