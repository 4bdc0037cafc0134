"""Every benchmark script answers --help with its usage, without running the benchmark
(``sdnd102_convergence.py --help`` ran its minutes of runs, the sensitivity script took
``--help`` for a row label and printed an empty table)."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = sorted((Path(__file__).parents[1] / "benchmarks").glob("*.py"))


def test_the_scripts_are_found():
    assert len(BENCHMARKS) >= 7


@pytest.mark.parametrize("script", BENCHMARKS, ids=lambda p: p.name)
def test_help_prints_the_usage_and_runs_nothing(script):
    proc = subprocess.run([sys.executable, str(script), "--help"], cwd=script.parent,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(f"usage: {script.name} [-h]") and proc.stderr == ""
    # the help alone: a usage, then the options (no table of a run)
    options = proc.stdout.split("\noptions:\n")
    assert len(options) == 2 and "-h, --help" in options[1]
    # the description is the docstring's first paragraph, whole (sdnv105_contact.py's and
    # sdnv105d.py's stopped at its first line, mid-sentence: "cost (a benchmark")
    first = ast.get_docstring(ast.parse(script.read_text())).split("\n\n")[0]
    described = options[0].split("\n\n")[1]  # argparse fills it as one paragraph
    assert described.split() == first.split()


def test_an_unknown_row_of_the_sensitivity_table_is_refused():
    script = next(p for p in BENCHMARKS if p.name == "sdnv105_sensitivity.py")
    proc = subprocess.run([sys.executable, str(script), "B, tilt"], cwd=script.parent,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.splitlines()[-1] == ("sdnv105_sensitivity.py: error: no row's label "
                                            "starts with 'B, tilt'")


def test_the_sensitivity_scripts_round_off_rows_run(monkeypatch, tmp_path):
    """Its "round-off only" rows replace the contact's add_columns, whose signature gained
    a work vector (eb83256): they failed with a TypeError. A's first 5 ms
    with the columns added as one product: the run completes and its corner moves as the
    shipped one's to round-off."""
    import numpy as np

    import rocking_contact as rc

    monkeypatch.syspath_prepend(str(BENCHMARKS[0].parent))
    from sdnv105_sensitivity import one_product

    case = {"time.end": 0.005}
    shipped = rc.run(rc.load_case("sdnv105a", case), write=False, plots=False, quiet=True)
    with one_product():
        product = rc.run(rc.load_case("sdnv105a", case), write=False, plots=False,
                         quiet=True)
    assert product.status == "completed"
    np.testing.assert_allclose(product.history["DY_O"], shipped.history["DY_O"], rtol=0,
                               atol=1e-12)
