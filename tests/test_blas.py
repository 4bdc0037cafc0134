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
    assert chosen == "Sandybridge (numpy); OPENBLAS_CORETYPE=Sandybridge"
    # left to OpenBLAS, it names the kernels it picked for this CPU, not the variable
    picked = _kernels_in_fresh_process(env)
    assert picked.endswith("(numpy)") and "OPENBLAS_CORETYPE" not in picked


def test_nothing_loaded_or_no_proc_says_so(tmp_path, monkeypatch):
    assert blas._loaded_openblas(tmp_path / "absent") == []
    monkeypatch.setattr(blas, "_loaded_openblas", lambda: [])
    assert blas.openblas_kernels() == "none loaded"


def test_each_bundled_library_is_named_by_its_package():
    site = "/venv/lib/python3.12/site-packages"
    assert blas._owner(f"{site}/numpy.libs/libscipy_openblas64_-4b78795a.so") == "numpy"
    assert blas._owner(f"{site}/dolfinx_solver/lib/libopenblas.so.0") == "PETSc"
    assert blas._owner("/usr/lib/libopenblas.so.0") == "libopenblas.so.0"
