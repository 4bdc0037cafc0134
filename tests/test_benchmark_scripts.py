"""Every benchmark script answers --help with its usage, without running the benchmark
(``sdnd102_convergence.py --help`` ran its minutes of runs, the sensitivity script took
``--help`` for a row label and printed an empty table), and runs its real code path on a
tiny problem, printing the numbers it exists for (``discrete_steps.py`` failed with 'too
many values to unpack' while its --help passed)."""

import ast
import math
import re
import subprocess
import sys
import time
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


@pytest.mark.parametrize("name, args, message", [
    ("sdnv105_impact_steps.py", ["--a", "--d", "--end", "0.2"],
     "time.window[4]: starts at 0.2325 s, at or after time.end = 0.2 s"),
    ("sdnv105_impact_steps.py", ["--mesh", "medium"],
     "--mesh: 'medium' is neither coarse nor fine nor an element size"),
    ("sdnv105d.py", ["--end", "-1"], "time.end: -1 is not after start 0"),
    ("fem_step_cpu.py", ["sdnv105d", "--set", "time.step=-1"],
     "time.step: got -1.0, allowed: a number > 0"),
    ("sdnv105_contact.py", ["--cases", "z"], "sdnv105z: no such case file or shipped case"),
    ("sdnv105_sensitivity.py", ["A, tilt 0.01 (", "--end", "-1"],
     "time.end: -1 is not after start 0"),
], ids=lambda v: v if isinstance(v, str) and v.endswith(".py") else "")
def test_a_case_the_options_make_invalid_is_refused_in_one_line(name, args, message):
    """A case error from the options (``--end`` before B's windows, a bad ``--set``, an
    unknown case) was a CaseError traceback with exit code 1, and sdnv105_impact_steps.py
    printed its A rows before B's; now it is argparse's one error line, exit code 2, and
    sdnv105_impact_steps.py reads every row's case before its first run."""
    script = next(p for p in BENCHMARKS if p.name == name)
    proc = subprocess.run([sys.executable, str(script), *args], cwd=script.parent,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    last = proc.stderr.splitlines()[-1]
    assert last.startswith(f"{name}: error: ") and message in last
    if name == "sdnv105_impact_steps.py":
        assert proc.stdout == ""


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


#: per script: the arguments of a run of a few seconds, and the lines it must print as
#: (pattern, how many): every group of a match is a number, and finite. Timings are read as
#: numbers, never compared.
NUMBER = r"([-+]?\d+(?:\.\d*)?(?:e[-+]?\d+)?)"
SMOKE: dict[str, tuple[list[str], list[tuple[str, int]]]] = {
    "code_paths.py": (["--traces", "rigid"], [(r"^rigid +(\d+) +(\d+)  none  \(0\)$", 1)]),
    "discrete_steps.py": (["--repeat", "1", "--steps", "1000"], [
        (rf": (1000) steps, {NUMBER} steps/s", 3)]),
    "fem_newmark_steps.py": (["--ranks", "1", "--sizes", "0.1", "--steps", "2"], [
        (r"^ *" + r" +".join([r"(\d+)", "(1)", *[NUMBER] * 5, r"(\d+)"]) + "$", 1)]),
    "fem_step_cpu.py": (["sdnv105a", "--set", "time.end=0.001", "--split"], [
        (r"^ +(1) +(100) +" + " +".join([NUMBER] * 4) + "$", 1),
        (rf"under cProfile: (100) steps, stepping {NUMBER} s CPU \({NUMBER} ms a step\), "
         r"(\d+) Jacobians", 1),
        (rf"^\S.{{31}} +{NUMBER} +{NUMBER}% ", 12)]),  # the parts and the rest
    "report_plots.py": (["--copies", "1", "--end", "0.002", "--workers", "1",
                         "--runs", "sdnd101a"], [
        (rf"^plots (?:copied|redrawn): (1) runs, workers 1: {NUMBER} s wall, (\d+) PNG", 2)]),
    "sdnd102_convergence.py": (["--steps", "1e-3", "5e-4"], [
        (rf"max \|CD - Newmark\| / max\|x\| = {NUMBER} ", 1),
        (rf"dt={NUMBER}: max error vs exact / max\|x_exact\| = {NUMBER}, (\d+) steps, "
         rf"(\d+) Newton iterations, {NUMBER} s$", 4)]),
    "sdnv105_contact.py": (["--cases", "a", "--end", "0.06"], [
        (r"^\| (1) \| " + r" \| ".join([NUMBER] * 12) + r" \|$", 1),  # the first impact
        (rf"^steps (\d+) \(to (0.06) s\), .* wall {NUMBER} s, cpu {NUMBER} s", 1)]),
    "sdnv105_impact_steps.py": (["--a", "1e-5", "--b", "--d", "1e-4", "--end", "0.002"], [
        (rf"^\| [AD], {NUMBER} s \| (\d+) \| {NUMBER} \| ", 2)]),
    "sdnv105_sensitivity.py": (["--end", "0.002", "A, tilt 0.01 (shipped)"], [
        (rf"^\| A, tilt 0.01 \(shipped\) \|.* \| (\d+) \((\d+)\) \| {NUMBER} \|$", 1)]),
    "theta_checks.py": (["--tiny", "--checks", "bar", "oscillator", "restitution", "local",
                         "tall"], [
        (rf"W 4x4 of rank (3), P_N {NUMBER} and {NUMBER} N.s", 4),
        (rf"^  theta = {NUMBER}: error / error at half the step {NUMBER}; ", 3),
        (rf"^  e = (0.5): lands in the step ending {NUMBER} s .* omega\+ {NUMBER} / "
         rf"{NUMBER} rad/s", 1),
        (r"^  (?:lifts|velocity problems) .*: Newton alone (\d+) of (38) .* Gauss-Seidel "
         r"finishes (\d+) of the (\d+) others", 2),
        (rf"^  time.step = {NUMBER} s: completed; the base went {NUMBER} m deep .* EKIN_BLOCK "
         rf"at {NUMBER} s {NUMBER} J", 2)]),
    "sdnv105d.py": (["--runs", "coarse", "--end", "0.06"], [
        (r"^\| (1) \| " + r" \| ".join([NUMBER] * 2) + " ", 1),  # the first impact
        (rf"^cost: (\d+) steps, (\d+) SNES iterations, (\d+) contact passes \(max (\d+)/step\)"
         rf", {NUMBER} iterations/step, {NUMBER} s wall$", 1)]),
}


def test_every_script_has_a_smoke_run():
    assert sorted(SMOKE) == [p.name for p in BENCHMARKS]


@pytest.mark.parametrize("script", BENCHMARKS, ids=lambda p: p.name)
def test_a_tiny_run_prints_its_numbers(script):
    args, expected = SMOKE[script.name]
    started = time.perf_counter()
    proc = subprocess.run([sys.executable, str(script), *args], cwd=script.parent,
                          capture_output=True, text=True, timeout=300)
    print(f"{script.name} {' '.join(args)}: {time.perf_counter() - started:.1f} s")
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    for pattern, count in expected:
        found = re.findall(pattern, proc.stdout, flags=re.MULTILINE)
        assert len(found) == count, (pattern, proc.stdout)
        for match in found:
            numbers = [float(x) for x in (match if isinstance(match, tuple) else (match,))]
            assert all(math.isfinite(x) for x in numbers), (pattern, match)
