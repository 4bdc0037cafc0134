"""Every command a user may start under ``mpiexec -n 2`` says what it says serially, once,
writes each file once and whole, and ends with the serial exit code.

The discrete cases run on every rank (numpy, no partition) and rank 0 writes: their files
are the serial ones but for the wall time. ``list``, ``keys``, ``view`` and ``report`` run
on rank 0 alone (``commands.COMMANDS[name].serial``); the others wait for it.
"""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.mpi

MPIEXEC = Path(sys.executable).parent / "mpiexec"
#: the wall time a run prints ("0.628 s wall"): the one thing allowed to differ
#: the wall time, and the numba compilation a cold cache adds on one side only
WALL = re.compile(r"[0-9.e+-]+ s wall( \(\+[0-9.e+-]+ s compiling numba kernels\))?")


def under_mpiexec(cwd, *args, ranks=2):
    """``mpiexec -n RANKS rocking-contact ARGS`` from ``cwd``: (exit code, stdout, stderr)."""
    return serially(cwd, *args, launcher=[str(MPIEXEC), "-n", str(ranks)])


def serially(cwd, *args, launcher=()):
    """``rocking-contact ARGS`` from ``cwd``, in a process of its own as under mpiexec (a
    results.json's ``stack`` names the libraries its process loaded): (exit code, stdout,
    stderr)."""
    proc = subprocess.run([*launcher, sys.executable, "-m", "rocking_contact.cli", *args],
                          cwd=cwd, capture_output=True, text=True, timeout=300, env=mpi_env())
    return proc.returncode, proc.stdout, proc.stderr


def communicate(proc, seconds, hung):
    """``proc.communicate()`` within ``seconds``: (stdout, stderr); a process still running
    then (a rank hung) fails the test with the words ``hung``, killed with mpiexec."""
    try:
        return proc.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail(hung)


def mpi_env():
    """The environment of the ranks: one thread each, and a waiting rank yields its core
    (the machine running the tests may have no free one)."""
    return dict(os.environ, OMP_NUM_THREADS="1", MPIR_CVAR_POLLS_BEFORE_YIELD="1")


@pytest.mark.parametrize("args", [("list",), ("keys", "sdnv105a"), ("keys", "discrete"),
                                  ("--version",), ("run", "--help")])
def test_listings_are_printed_once(tmp_path, args):
    code, out, err = under_mpiexec(tmp_path, *args)
    assert (code, out, err) == serially(tmp_path, *args)
    assert code == 0 and out and err == ""


def _same_run_files(serial, parallel):
    """results.json equal but for the wall time (a discrete run's numba compilation too);
    history.csv byte for byte."""
    a, b = (json.loads((d / "results.json").read_text()) for d in (serial, parallel))
    origins = []
    for data in (a, b):
        data["timing"].pop("wall_s")
        data["timing"].pop("compile_s", None)
        origins.append(data.pop("provenance"))  # dates, argv, --out and ranks differ
    assert a == b
    for key in ("case", "case_file", "overrides", "files", "checkout"):
        assert origins[0][key] == origins[1][key]
    assert (origins[0]["mpi_ranks"], origins[1]["mpi_ranks"]) == (1, 2)
    assert (serial / "history.csv").read_bytes() == (parallel / "history.csv").read_bytes()
    assert sorted(p.name for p in serial.iterdir()) == sorted(p.name for p in parallel.iterdir())


def test_validate_of_discrete_cases_prints_and_writes_once(tmp_path):
    args = ("validate", "sdnd101a", "sdnd102c", "-q", "--no-plots", "--out")
    code, out, err = under_mpiexec(tmp_path, *args, "mpi")
    serial = serially(tmp_path, *args, "serial")
    assert (code, WALL.sub("", out), err) == (serial[0], WALL.sub("", serial[1]), serial[2])
    assert code == 0 and out.count("all 2 cases pass their reference checks") == 1
    for name in ("sdnd101a", "sdnd102c"):
        _same_run_files(tmp_path / "serial" / name, tmp_path / "mpi" / name)


def test_validate_that_fails_a_check_exits_1_on_every_rank(tmp_path):
    """A coarse step misses two force references (tests/test_cli.py): exit code 1, the
    verdict once."""
    args = ("validate", "sdnd101a", "-q", "--no-plots", "--set", "time.step=2e-3", "--out")
    code, out, err = under_mpiexec(tmp_path, *args, "mpi")
    serial = serially(tmp_path, *args, "serial")
    assert (code, WALL.sub("", out), err) == (serial[0], WALL.sub("", serial[1]), serial[2])
    assert code == 1 and out.count("FAILED: sdnd101a (2 of 12 checks failed)") == 1


def test_a_discrete_run_with_plots_writes_each_file_once(tmp_path):
    args = ("run", "sdnd100a", "--set", "time.end=0.2", "--out")
    code, out, err = under_mpiexec(tmp_path, *args, "mpi")
    serial = serially(tmp_path, *args, "serial")
    out = out.replace("results in mpi/", "results in serial/")
    assert (code, WALL.sub("", out), err) == (serial[0], WALL.sub("", serial[1]), serial[2])
    assert code == 0 and out.count("results in ") == 1
    assert err.count("warning: sdnd100a: ") == 1  # the stick spring's damping, once
    _same_run_files(tmp_path / "serial", tmp_path / "mpi")
    plots = json.loads((tmp_path / "mpi" / "results.json").read_text())["plots"]
    assert plots and all((tmp_path / "mpi" / name).stat().st_size > 0 for name in plots)


BAD_INPUT = [
    ("run", "nosuch"),
    ("run", "sdnd101a", "--set", "time.step=abc"),
    ("run", "sdnd101a", "--out", "afile/below"),
    ("validate", "sdnd101a", "nosuch"),
    ("validate", "sdnd101a", "--set", "model.node.0.mass=2.0"),
    ("keys", "nosuch"),
    ("rigid", "--set", "preload.tilt=-5"),
    ("mesh", "nosuch", "--out", "a.msh"),
    ("report", "nosuch"),
    ("view", "nosuch", "--screenshot", "a.png"),
]


@pytest.mark.parametrize("args", BAD_INPUT, ids=lambda args: " ".join(args))
def test_bad_input_is_one_line_said_once(tmp_path, args):
    (tmp_path / "afile").write_text("")
    code, out, err = under_mpiexec(tmp_path, *args)
    assert (code, out, err) == serially(tmp_path, *args)
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert err.startswith("error: ") and "Traceback" not in err


def test_an_lu_package_of_one_rank_is_refused_under_two(tmp_path):
    """PETSc's own LU factorises on one rank: under mpiexec -n 2 the first step failed after
    its halvings ("PETSc error 92", exit 1); it is refused before the mesh is built, as
    given by --set (the refusals of load_case say so too)."""
    code, out, err = under_mpiexec(tmp_path, "run", "sdnv105d", "--no-plots", "--out", "r",
                                   "--set", "solver.linear_solver=petsc")
    assert code == 2 and out == "" and len(err.splitlines()) == 1, err
    assert err.startswith("error: ") and err.rstrip().endswith(
        "sdnv105d.toml (with --set): solver.linear_solver: 'petsc' factorises on one rank and "
        "this run has "
        "2; allowed under mpiexec: 'mumps' or 'superlu_dist'")
    assert not (tmp_path / "r" / "results.json").exists()
