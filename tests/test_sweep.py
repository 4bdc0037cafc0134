"""``rocking-contact sweep``: a case run once per value (or combination) of its ``--set``
keys in one process, each into DIR/<key>=<value>[,...]/, as ``run`` would run it; a run
that fails is recorded and the sweep goes on; bad values are refused before any run; the
table of the runs at the end and in DIR/sweep.csv."""

import csv
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import rocking_contact as rc
from rocking_contact.cli import main
from rocking_contact.commands.sweep import MOST_RUNS, combinations, split_values, sweep_sets
from rocking_contact.config.overrides import parse_override


def _json(path):
    return json.loads((path / "results.json").read_text())


def _sweep(capsys, *args):
    code = main(["sweep", *map(str, args)])
    captured = capsys.readouterr()
    return code, captured.out.splitlines(), captured.err.splitlines()


@pytest.mark.parametrize("text, values", [
    ("0.3,0.6, 0.9", ["0.3", "0.6", "0.9"]),
    ("[],[[0.0, 0.1], [0.1, 0.2]]", ["[]", "[[0.0, 0.1], [0.1, 0.2]]"]),
    ("'a,b',newmark", ["'a,b'", "newmark"]),
    ('{type = "sine", amplitude = 1.0},{}', ['{type = "sine", amplitude = 1.0}', "{}"]),
    ("1e-4", ["1e-4"]),
])
def test_values_split_at_the_commas_outside_brackets_and_quotes(text, values):
    assert split_values(text) == values


def test_each_value_reads_as_run_set_reads_it():
    """The same parser: a value given to sweep loads the case as that --set does."""
    sets = sweep_sets(["time.step=1e-4,5e-5", "solver.scheme=newmark,central_differences"])
    runs = combinations(sets)
    assert [name for name, _ in runs] == [
        "time.step=1e-4,solver.scheme=newmark",
        "time.step=1e-4,solver.scheme=central_differences",
        "time.step=5e-5,solver.scheme=newmark",
        "time.step=5e-5,solver.scheme=central_differences"]
    # each run's --set texts, as run --set takes them, and so read (1e-4: a float)
    assert runs[1][1] == ["time.step=1e-4", "solver.scheme=central_differences"]
    assert [parse_override(t) for t in runs[1][1]] == [
        (["time", "step"], 1e-4), (["solver", "scheme"], "central_differences")]
    # a key with one value is in every run and names none
    runs = combinations(sweep_sets(["time.end=0.2", "model.shock[0].kn=1e5,1e6"]))
    assert runs == [("model.shock[0].kn=1e5", ["time.end=0.2", "model.shock[0].kn=1e5"]),
                    ("model.shock[0].kn=1e6", ["time.end=0.2", "model.shock[0].kn=1e6"])]


@pytest.fixture(scope="module")
def discrete_sweep(tmp_path_factory):
    """A 2 x 2 sweep of sdnd101a (the stop's stiffness, the step), run in-process."""
    out = tmp_path_factory.mktemp("sweep") / "grid"
    proc = subprocess.run([sys.executable, "-m", "rocking_contact.cli", "sweep", "sdnd101a",
                           "--set", "model.shock.0.kn=1e5,1e6", "--set",
                           "time.step=1e-3,5e-4", "--out", str(out), "--quiet", "--no-plots"],
                          capture_output=True, text=True, timeout=300)
    return out, proc


def test_a_grid_runs_every_combination_into_its_directory(discrete_sweep):
    out, proc = discrete_sweep
    assert proc.returncode == 0, proc.stderr
    names = ["model.shock.0.kn=1e5,time.step=1e-3", "model.shock.0.kn=1e5,time.step=5e-4",
             "model.shock.0.kn=1e6,time.step=1e-3", "model.shock.0.kn=1e6,time.step=5e-4"]
    lines = proc.stdout.splitlines()
    progress = [line for line in lines if line.startswith("[")]
    assert [line.split(":")[0] for line in progress] == [
        f"[{i}/4] {name}" for i, name in enumerate(names, 1)]
    assert all(": completed, 2 impacts, " in line for line in progress)
    for name in names:
        kn, step = (float(v) for v in re.findall(r"=([0-9e.+-]+)", name))
        data = _json(out / name)
        assert data["parameters"]["model"]["shock"][0]["kn"] == kn
        assert data["parameters"]["time"]["step"] == step
        # each run's own rerun: the run command with its values, into its directory
        kn_text, step_text = (t.split("=")[1] for t in name.split(","))
        assert data["provenance"]["rerun"] == (
            f"rocking-contact run sdnd101a --set model.shock.0.kn={kn_text} "
            f"--set time.step={step_text} --out {out / name}")
    rows = list(csv.DictReader((out / "sweep.csv").open()))
    assert [r["run"] for r in rows] == names
    assert [float(r["model.shock.0.kn (N/m)"]) for r in rows] == [1e5, 1e5, 1e6, 1e6]
    assert [float(r["time.step (s)"]) for r in rows] == [1e-3, 5e-4, 1e-3, 5e-4]
    for row, name in zip(rows, names):
        first = _json(out / name)["impacts"][0]
        assert float(row["NO1 F1 (N)"]) == first["max_force"]
    # the table printed: the columns equal in every row above it
    assert "case = sdnd101a" in lines and "status = completed" in lines


def test_a_sweep_run_is_the_run_of_its_values(discrete_sweep, tmp_path):
    """One process, one run after the other: each history is the one a run of the same
    case and values writes, byte for byte."""
    out, _ = discrete_sweep
    name = "model.shock.0.kn=1e6,time.step=5e-4"
    alone = tmp_path / "alone"
    rc.run(rc.load_case("sdnd101a", ["model.shock.0.kn=1e6", "time.step=5e-4"]), out=alone,
           quiet=True, plots=False)
    assert (out / name / "history.csv").read_bytes() == (alone / "history.csv").read_bytes()


def test_a_failed_run_is_recorded_and_the_sweep_goes_on(tmp_path, capsys):
    # at 5.76e8 N/m the explicit scheme's 1e-3 s step is above its stability limit
    code, out, err = _sweep(capsys, "sdnd102c", "--set", "model.shock.0.kn=5.76e8,5.76e6",
                            "--out", tmp_path, "--quiet", "--no-plots")
    assert code == 1
    assert out[0].startswith("[1/2] model.shock.0.kn=5.76e8: failed at t = 0.139 s, ")
    assert out[1].startswith("[2/2] model.shock.0.kn=5.76e6: completed, 5 impacts, ")
    said = [line for line in err if line.startswith("error: ")]
    assert len(said) == 1 and said[0].startswith("error: model.shock.0.kn=5.76e8: solver "
                                                 "failed: ")
    rows = list(csv.DictReader((tmp_path / "sweep.csv").open()))
    assert [r["status"] for r in rows] == ["failed at t = 0.139 s", "completed"]
    assert _json(tmp_path / "model.shock.0.kn=5.76e8")["status"].startswith("failed: ")


def test_bad_values_are_refused_before_any_run(tmp_path, capsys):
    out = tmp_path / "never"
    cases = [
        (["--set", "model.shock.0.kn=1e5,-1"],
         "model.shock[0].kn: got -1.0, allowed: a number > 0"),
        (["--set", "time.stpe=1e-4,1e-3"], "time.stpe: unknown key"),
        (["--set", "time.step=1e-4,,1e-3"], "--set: time.step: an empty value"),
        (["--set", "time.step=1e-4,0.0001"], "--set: time.step: the value '0.0001' given twice"),
        (["--set", "time.step=1e-4", "--set", "time.step=1e-3"], "--set: time.step: given twice"),
        (["--set", f"time.step={','.join(f'{i}e-4' for i in range(1, 16))}",
          "--set", f"time.end={','.join(f'{i}e-2' for i in range(1, 15))}"],
         f"15 x 14 = 210 runs, more than {MOST_RUNS}"),
        ([], "--set: none given"),
        (["--rigid", "--set", "time.step=1e-4"], "--rigid needs kind = 'block'"),
    ]
    for args, said in cases:
        code, lines, err = _sweep(capsys, "sdnd101a", *args, "--out", out, "--quiet")
        assert code == 2 and lines == []
        assert len(err) == 1 and err[0].startswith("error: ") and said in err[0], err
        assert not out.exists()


def test_rigid_twins_and_rigid_cases(tmp_path, capsys):
    code, out, _ = _sweep(capsys, "sdnv105d_shaking", "--rigid", "--set",
                          "loading.table_acceleration_x.amplitude=5,15", "--set", "time.end=2",
                          "--out", tmp_path / "twin", "--quiet", "--no-plots")
    assert code == 0  # a rigid block that overturns: an outcome, its run completed
    assert out[1].startswith("[2/2] loading.table_acceleration_x.amplitude=15: completed, "
                             "overturned at t = ")
    rows = list(csv.DictReader((tmp_path / "twin" / "sweep.csv").open()))
    assert [r["outcome"] for r in rows][0] == "rocking"
    assert rows[1]["outcome"].startswith("overturned at t = ")
    data = _json(tmp_path / "twin" / "loading.table_acceleration_x.amplitude=15")
    assert data["kind"] == "rigid" and data["provenance"]["rerun"].startswith(
        "rocking-contact rigid sdnv105d_shaking ")
    code, out, _ = _sweep(capsys, "sdnv105_rigid", "--set", "preload.angle=0.01,0.02",
                          "--out", tmp_path / "own", "--quiet", "--no-plots")
    assert code == 0
    for angle in (0.01, 0.02):
        assert _json(tmp_path / "own" / f"preload.angle={angle}")["parameters"]["preload"][
            "angle"] == angle
    # the rigid command's run of the same value: the same history, byte for byte
    assert main(["rigid", "sdnv105_rigid", "--set", "preload.angle=0.02", "--out",
                 str(tmp_path / "alone"), "-q", "--no-plots"]) == 0
    assert (tmp_path / "own" / "preload.angle=0.02" / "history.csv").read_bytes() == (
        tmp_path / "alone" / "history.csv").read_bytes()


def test_a_tiny_fem_sweep_gives_the_runs_run_gives(tmp_path, capsys):
    code, out, _ = _sweep(capsys, "sdnv105d", "--set", "contact.mu=0.3,0.9", "--set",
                          "time.end=0.002", "--out", tmp_path / "fem", "--quiet", "--no-plots")
    assert code == 0
    assert [line.split(",")[0] for line in out if line.startswith("[")] == [
        "[1/2] contact.mu=0.3: completed", "[2/2] contact.mu=0.9: completed"]
    assert "time.end = 0.002 s" in out
    # mu = 0.3 sets the file's collision windows aside, 0.9 (the file's) would keep them:
    # both take their collisions at each landing, said once before the runs
    assert out[0] == (
        "sweep: 1 of 2 runs change contact.mu, for which the collision windows of "
        "sdnv105d.toml were not placed, and take their collisions at each landing; so that "
        "contact.mu=0.9 is measured alike, every run is given --set collisions.windows=[] "
        "(to measure in windows instead: --set collisions.windows=[[t0, t1], ...])")
    assert "collisions.windows = []" in out  # one value, above the table
    for mu in (0.3, 0.9):
        data = _json(tmp_path / "fem" / f"contact.mu={mu}")
        assert data["parameters"]["contact"]["mu"] == mu
        assert data["parameters"]["collisions"]["windows"] == []
        assert "windows_set_aside" not in data["extra"]
        assert data["provenance"]["rerun"] == (
            f"rocking-contact run sdnv105d --set contact.mu={mu} --set time.end=0.002 "
            f"--set 'collisions.windows=[]' --out {tmp_path / 'fem' / f'contact.mu={mu}'}")
    # contact.mu = 0.9 is the file's: the sweep's run is the shipped case's to 0.002 s
    alone = tmp_path / "alone"
    assert main(["run", "sdnv105d", "--set", "time.end=0.002", "--out", str(alone), "-q",
                 "--no-plots"]) == 0
    assert (tmp_path / "fem" / "contact.mu=0.9" / "history.csv").read_bytes() == (
        alone / "history.csv").read_bytes()


@pytest.mark.parametrize("sets, alike", [
    (["contact.mu=0.3,0.9"], True),  # the file's value keeps its windows, 0.3 not
    (["contact.mu=0.3,0.5"], False),  # every run sets them aside
    (["time.step=1e-4,2e-4"], False),  # numerics: every run keeps them
    (["contact.mu=0.3,0.9", "collisions.windows=[]"], False),  # the user's own windows
    (["contact.mu=0.3,0.9", "collisions.windows=[[0.0, 0.33]]"], False),
])
def test_a_sweep_measures_its_collisions_one_way(sets, alike):
    """Where some runs of a sweep set the file's collision windows aside and others keep
    them, every run is given collisions.windows = []; any other sweep is left as it is."""
    from rocking_contact.commands.sweep import AT_THE_LANDINGS, load_runs, measured_alike
    from rocking_contact.post.collisions import windows_set_aside

    runs = combinations(sweep_sets(sets))
    cases = load_runs("sdnv105d", runs, rigid=False)
    measured, loaded, line = measured_alike("sdnv105d", runs, cases)
    assert (line is not None) == alike
    assert [texts for _, texts in measured] == (
        [[*texts, AT_THE_LANDINGS] for _, texts in runs] if alike else [t for _, t in runs])
    assert [name for name, _ in measured] == [name for name, _ in runs]
    if alike:
        assert [one.collisions.windows for one in loaded] == [[], []]
        assert [windows_set_aside(one) for one in loaded] == [None, None]
    else:
        assert loaded == cases


MPIEXEC = Path(sys.executable).parent / "mpiexec"
#: the wall times a line prints: the one thing allowed to differ between 1 and 2 ranks
WALL = re.compile(r"[0-9.e+-]+ s\b")


def _on_1_and_2_ranks(tmp_path, *args):
    """``sweep *args --out tmp_path/nR --quiet --no-plots`` on R = 1 rank and under
    ``mpiexec -n 2``, each exiting 0: R -> (stdout, its directory read OUT and the wall
    times WALL; stderr)."""
    import os

    env = dict(os.environ, OMP_NUM_THREADS="1", MPIR_CVAR_POLLS_BEFORE_YIELD="1")
    said = {}
    for ranks in (1, 2):
        out = tmp_path / f"n{ranks}"
        launcher = [str(MPIEXEC), "-n", "2"] if ranks == 2 else []
        proc = subprocess.run([*launcher, sys.executable, "-m", "rocking_contact.cli", "sweep",
                               *args, "--out", str(out), "--quiet", "--no-plots"],
                              capture_output=True, text=True, timeout=300, env=env, cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
        said[ranks] = (WALL.sub("WALL", proc.stdout.replace(str(out), "OUT")), proc.stderr)
    return said


@pytest.mark.mpi
def test_under_mpiexec_the_runs_go_one_after_another_rank_0_prints(tmp_path):
    """Every rank runs each run (collectively, as run does); rank 0 alone prints and writes
    the table: the output and the files are the serial sweep's but for the wall times."""
    said = _on_1_and_2_ranks(tmp_path, "sdnd101a", "--set", "model.shock.0.kn=1e5,1e6")
    assert said[1] == said[2]
    assert said[2][0].count("[1/2]") == 1
    for name in ("model.shock.0.kn=1e5", "model.shock.0.kn=1e6"):
        assert _json(tmp_path / "n2" / name)["provenance"]["mpi_ranks"] == 2
        assert (tmp_path / "n1" / name / "history.csv").read_bytes() == (
            tmp_path / "n2" / name / "history.csv").read_bytes()
    assert (tmp_path / "n1" / "sweep.csv").read_text() == (
        tmp_path / "n2" / "sweep.csv").read_text().replace("n2", "n1")


@pytest.mark.mpi
def test_under_mpiexec_a_block_sweep_measures_its_collisions_one_way_said_once(tmp_path):
    """The rule of test_a_tiny_fem_sweep_gives_the_runs_run_gives on 2 ranks: its line,
    the progress lines, the warnings and the table once (rank 0), as on one rank, and
    every run given collisions.windows = [] on every rank (the runs are collective: a rank
    that ran other windows would wait in another step)."""
    said = _on_1_and_2_ranks(tmp_path, "sdnv105d", "--set", "contact.mu=0.3,0.9",
                             "--set", "time.end=0.002")
    out, err = said[2]
    assert out == said[1][0]
    # and, on 2 ranks, that the 25-node mesh gains nothing from the second (test_mpi_few_dofs)
    assert err == said[1][1] + ("note: sdnv105d: its mesh has 50 dofs, 25 per rank on 2 "
                                "ranks: so few that the ranks wait for each other more than "
                                "they compute; fewer ranks may be faster\n")
    assert out.startswith("sweep: 1 of 2 runs change contact.mu, ")
    assert out.count("every run is given --set collisions.windows=[]") == 1
    assert out.count("[1/2] contact.mu=0.3: completed, 0 collisions, WALL\n") == 1
    assert "\ncollisions.windows = []\n" in out
    assert err.count("warning: sdnv105d: its references describe") == 1
    for mu in (0.3, 0.9):
        data = _json(tmp_path / "n2" / f"contact.mu={mu}")
        assert data["provenance"]["mpi_ranks"] == 2
        assert data["parameters"]["collisions"]["windows"] == []
        assert data["provenance"]["rerun"].endswith(
            f"--set 'collisions.windows=[]' --out {tmp_path / 'n2' / f'contact.mu={mu}'}")
    assert (tmp_path / "n1" / "sweep.csv").read_text() == (
        tmp_path / "n2" / "sweep.csv").read_text()


@pytest.mark.parametrize("command, codes", [("sweep", ["0", "1", "2", "130", "143"]),
                                            ("compare", ["0", "1", "2", "130", "143"])])
def test_help_ends_with_the_exit_codes(capsys, command, codes):
    """sweep stops runs (1, and 130/143 keep what a run computed); compare runs none (its
    1: a disk that fills up as its CSV is written, tests/test_compare.py)."""
    with pytest.raises(SystemExit):
        main([command, "--help"])
    said = capsys.readouterr().out.split("exit codes:\n")[1]
    assert [line.split()[0] for line in said.splitlines()
            if line.startswith("  ") and line.split()[0].isdigit()] == codes
    assert ("what a run computed is written" in said) == (command == "sweep")


def test_a_sweep_of_one_value_says_1_run(tmp_path, capsys):
    """It said 'sweep: 1 runs in ... s'."""
    code, out, _ = _sweep(capsys, "sdnd101a", "--set", "time.step=1e-4", "--out", tmp_path,
                          "--quiet", "--no-plots")
    assert code == 0 and out[0].startswith("[1/1] time.step=1e-4: completed, ")
    assert out[2].startswith("sweep: 1 run in ") and out[2].endswith(f"results in {tmp_path}/")
