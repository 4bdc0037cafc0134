"""``rocking-contact compare``: one table of several runs read from their results.json, a
row per run, the columns equal in every row said once above it, the same as CSV with units
in its header; bad input in one line, exit code 2."""

import csv
import json

import pytest

import rocking_contact as rc
from rocking_contact.cli import main
from rocking_contact.commands.compare import short_status, study
from rocking_contact.results import aborted


def _run(case, out, overrides=(), rigid=False):
    """A run written into ``out`` (a failed one's partial result too)."""
    loaded = rc.load_case(case, list(overrides))
    if rigid:
        from rocking_contact.analytic.rigid_runner import rigid_twin

        loaded = rigid_twin(loaded)
    try:
        rc.run(loaded, out=out, quiet=True, plots=False)
    except rc.SolverFailure:
        pass
    return out


def _json(path):
    return json.loads((path / "results.json").read_text())


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Discrete (one failing), rigid (one overturning) and block (with landings) runs."""
    root = tmp_path_factory.mktemp("compare")
    made = {
        "kn1e5": _run("sdnd101a", root / "kn1e5", ["model.shock.0.kn=1e5"]),
        "kn1e6": _run("sdnd101a", root / "kn1e6", ["model.shock.0.kn=1e6"]),
        # the explicit scheme above its stability limit: it fails at t = 0.139 s
        "stiff": _run("sdnd102c", root / "stiff", ["model.shock.0.kn=5.76e8"]),
        "soft": _run("sdnd102c", root / "soft", ["model.shock.0.kn=5.76e6"]),
        "A5": _run("sdnv105d_shaking", root / "A5", [
            "loading.table_acceleration_x.amplitude=5", "time.end=2"], rigid=True),
        "A15": _run("sdnv105d_shaking", root / "A15", [
            "loading.table_acceleration_x.amplitude=15", "time.end=2"], rigid=True),
        # one collision per landing: the entries carry the landing's instant
        "fem": _run("sdnv105d", root / "fem", ["time.end=0.06", "collisions.windows=[]"]),
    }
    return made


def _table(capsys, *args):
    assert main(["compare", *map(str, args)]) == 0
    return capsys.readouterr().out.splitlines()


def test_discrete_runs_a_row_each_their_change_and_impacts(runs, capsys, tmp_path):
    out = tmp_path / "t.csv"
    lines = _table(capsys, runs["kn1e5"], runs["kn1e6"], "--csv", out)
    # equal in both rows: said once above the table, not as columns
    assert lines[:3] == ["case = sdnd101a", "kind = discrete", "status = completed"]
    header = lines[lines.index("") + 1].split()
    assert header[:2] == ["run", "model.shock.0.kn"]
    assert "case" not in header and "status" not in header
    rows = list(csv.DictReader(out.open()))
    assert [r["run"] for r in rows] == [str(runs["kn1e5"]), str(runs["kn1e6"])]
    # the CSV keeps every column in every row, numbers in full, units in the header
    assert [r["case"] for r in rows] == ["sdnd101a"] * 2
    assert [float(r["model.shock.0.kn (N/m)"]) for r in rows] == [1e5, 1e6]
    for row, run in zip(rows, ("kn1e5", "kn1e6")):
        impacts = _json(runs[run])["impacts"]
        assert int(row["NO1 impacts"]) == len(impacts) == 2
        for k, impact in enumerate(impacts, 1):
            assert float(row[f"NO1 t{k} (s)"]) == impact["start"]
            assert float(row[f"NO1 F{k} (N)"]) == impact["max_force"]


def test_a_failed_run_says_where_it_stopped(runs, capsys):
    lines = _table(capsys, runs["soft"], runs["stiff"])
    status = _json(runs["stiff"])["status"]
    assert status.startswith("failed: ") and "at t = 0.139 s" in status
    stiff = next(line for line in lines if line.startswith(str(runs["stiff"])))
    assert "failed at t = 0.139 s" in stiff
    soft = next(line for line in lines if line.startswith(str(runs["soft"])))
    assert " completed " in soft


def test_rigid_runs_collisions_and_outcome(runs, capsys, tmp_path):
    out = tmp_path / "r.csv"
    lines = _table(capsys, runs["A5"], runs["A15"], "--csv", out, "--collisions", "2")
    assert "kind = rigid" in lines and "time.end = 2 s" in lines
    rows = list(csv.DictReader(out.open()))
    a5, a15 = (_json(runs[r]) for r in ("A5", "A15"))
    # the schema gives a time function's amplitude no unit (it scales m/s^2 here, a
    # record's values elsewhere): its header has none
    assert [r["loading.table_acceleration_x.amplitude"] for r in rows] == ["5.0", "15.0"]
    assert rows[0]["outcome"] == a5["extra"]["outcome"] == "rocking"
    overturn = [e for e in a15["extra"]["events"] if e["kind"] == "overturn"][0]["time"]
    assert rows[1]["outcome"] == f"overturned at t = {overturn:.6g} s"
    assert int(rows[0]["collisions"]) == len(a5["collisions"]) > 2
    for k in (1, 2):
        assert float(rows[0][f"t{k} (s)"]) == a5["collisions"][k - 1]["time"]
        assert float(rows[0][f"E{k} (J)"]) == a5["collisions"][k - 1]["kinetic_energy"]
        assert rows[1][f"t{k} (s)"] == ""  # no collision: an empty cell
    assert "t3 (s)" not in rows[0]
    assert f"collisions 1 to 2 shown of up to {len(a5['collisions'])} (--collisions 0: all)" \
        in lines


def test_the_penetration_of_a_block_that_never_went_into_the_table_is_0(tmp_path, capsys):
    """SDNV105 D shorter than its lift (about 0.05 s) rests on the table, its gap +8e-13 m:
    'compare --quantity penetration.max' was refused ('no run has it'), the quantity
    recorded only for a base that went in. It is 0 m, and shown so."""
    out = _run("sdnv105d", tmp_path / "d", ["time.end=0.005"])
    assert _json(out)["quantities"]["penetration.max"] == 0.0
    assert "extra" in _json(out) and "penetration" not in _json(out)["extra"]
    lines = _table(capsys, out, "--quantity", "penetration.max", "--csv", tmp_path / "d.csv")
    assert lines[0].split()[-1] == "penetration.max" and lines[2].split()[-1] == "0"
    (row,) = csv.DictReader((tmp_path / "d.csv").open())
    assert float(row["penetration.max (m)"]) == 0.0


def test_block_collisions_with_landings_and_a_quantity(runs, capsys, tmp_path):
    out = tmp_path / "b.csv"
    lines = _table(capsys, runs["fem"], "--quantity", "penetration.max", "--csv", out)
    data = _json(runs["fem"])
    collisions = [c for c in data["collisions"] if c.get("interior", True)]
    assert collisions and all("landing" in c for c in collisions)
    (row,) = csv.DictReader(out.open())
    assert float(row["t1 (s)"]) == collisions[0]["time"]
    assert float(row["E1 (J)"]) == collisions[0]["kinetic_energy"]
    assert float(row["landing1 (s)"]) == collisions[0]["landing"]
    assert float(row["penetration.max (m)"]) == data["quantities"]["penetration.max"]
    # its changes: the keys and the values it ran with
    assert float(row["time.end (s)"]) == 0.06 and row["collisions.windows (s)"] == "[]"
    # one run: nothing is said above the table, every column is in it
    assert lines[0].split()[:3] == ["run", "case", "kind"]


def test_study_from_python_gives_the_rows(runs):
    table = study([runs["kn1e5"], runs["kn1e6"]], ["impact.NO1.1.duration"])
    rows = table.rows()
    assert [r["model.shock.0.kn (N/m)"] for r in rows] == [1e5, 1e6]
    assert [r["impact.NO1.1.duration (s)"] for r in rows] == [
        _json(runs[r])["quantities"]["impact.NO1.1.duration"] for r in ("kn1e5", "kn1e6")]


@pytest.mark.parametrize("status, short", [
    ("completed", "completed"),
    ("the block overturned at t = 0.3124 s: its base turned past atan(b/l)",
     "overturned at t = 0.3124 s"),
    ("the block slid off its table at t = 0.2 s: ...", "slid off its table at t = 0.2 s"),
    ("interrupted at t = 0.05 s", "interrupted at t = 0.05 s"),
    (aborted(0.0143, "Ctrl-C"), "aborted at t = 0.0143 s"),
    (aborted(None, "SIGTERM"), "aborted"),
    ("failed: Newton did not converge at t = 0.0123 s (step 12)", "failed at t = 0.0123 s"),
    ("failed: the setup broke", "failed"),
    ("started: under way or killed", "not ended (under way, or killed)"),
])
def test_short_status(status, short):
    assert short_status(status) == short


def test_bad_input_is_one_line_exit_2(runs, capsys, tmp_path):
    (tmp_path / "empty").mkdir()
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "results.json").write_text("{not json")
    cases = [
        ([tmp_path / "nowhere"], "nowhere: no such directory"),
        ([runs["kn1e5"] / "results.json"], "a file, not a directory"),
        ([tmp_path / "empty"], "no results.json in it, nor in its folders"),
        ([tmp_path / "broken"], "results.json: not valid JSON"),
        ([runs["kn1e5"], "--quantity", "impact.NO1.1.max_forse"],
         "--quantity: impact.NO1.1.max_forse: no run has it"),
        ([runs["kn1e5"], "--collisions", "-1"], "--collisions"),
    ]
    for args, said in cases:
        try:
            code = main(["compare", *map(str, args)])
        except SystemExit as exc:  # argparse's refusal of an option, in-process
            code = exc.code
        assert code == 2
        captured = capsys.readouterr()
        assert captured.out == ""
        lines = captured.err.splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: ") and said in lines[0], lines
    # the misspelt quantity is offered its closest names
    main(["compare", str(runs["kn1e5"]), "--quantity", "impact.NO1.1.max_forse"])
    assert "close: impact.NO1.1.max_force" in capsys.readouterr().err


@pytest.mark.parametrize(("errno", "reason", "code", "said"), [
    # a file the system refuses (read-only, /proc): bad input, before the table
    (13, "Permission denied", 2, "error: --csv: cannot write {csv}: Permission denied"),
    # the disk, not the path: exit code 1, as for a run
    (28, "No space left on device", 1, "error: cannot write {csv}: No space left on device"),
])
def test_a_csv_that_cannot_be_written_is_one_line_without_the_table(
        errno, reason, code, said, runs, tmp_path, capsys, monkeypatch):
    """'compare results/d01 --csv /proc/z.csv' printed the table, then a traceback."""
    csv_path = tmp_path / "t.csv"

    def refuse(self, path):
        raise OSError(errno, reason, str(path))

    monkeypatch.setattr("rocking_contact.commands.compare.Study.write_csv", refuse)
    assert main(["compare", str(runs["kn1e5"]), "--csv", str(csv_path)]) == code
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == said.format(csv=csv_path) + "\n"


def test_the_python_study_of_docs_studies_runs_as_written(tmp_path, monkeypatch):
    """docs/studies.md "From Python": the block, run as a script in an empty directory,
    prints the table of its three runs and a line per run of its rows, and writes the CSV.
    (Marked a fragment for tests/test_doc_snippets.py, whose PROMISES this test stands for
    until it has one.)"""
    import re
    import subprocess
    import sys
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[1] / "docs" / "studies.md").read_text()
    section = doc[doc.index("## From Python"):]
    block = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    (tmp_path / "study.py").write_text(block)
    proc = subprocess.run([sys.executable, "study.py"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    monkeypatch.chdir(tmp_path)  # the block's directories are relative
    table = study([f"studies/kn/kn={kn:g}" for kn in (1e5, 1e6, 1e7)],
                  ["impact.NO1.1.duration"])
    lines = proc.stdout.splitlines()
    text = table.text().splitlines()
    assert lines[:len(text)] == text
    rows = list(csv.DictReader((tmp_path / "studies" / "kn.csv").open()))
    printed = [line.split() for line in lines[len(text):]]
    assert [[float(v) for v in p] for p in printed] == [
        [float(r["model.shock.0.kn (N/m)"]), float(r["NO1 F1 (N)"]),
         float(r["impact.NO1.1.duration (s)"])] for r in rows]
    assert [r["status"] for r in rows] == ["completed"] * 3
    # the runs that change the file's stop say so; the file's own, 1e6 N/m, does not
    warned = [x for x in proc.stderr.splitlines() if x.startswith("warning:")]
    assert len(warned) == 2 and all("changes model.shock.0.kn" in x for x in warned), warned


def test_runs_of_several_kinds_share_a_table(runs, tmp_path, capsys):
    """A discrete and a rigid run: each its own columns, '-' in the other's; a key's unit
    from the kind that has it (the first run's kind has no model.shock)."""
    out = tmp_path / "k.csv"
    _table(capsys, runs["A5"], runs["kn1e5"], "--csv", out, "--collisions", "1")
    rows = list(csv.DictReader(out.open()))
    assert [r["kind"] for r in rows] == ["rigid", "discrete"]
    assert [r["model.shock.0.kn (N/m)"] for r in rows] == ["", "100000.0"]
    assert rows[0]["t1 (s)"] != "" and rows[1]["t1 (s)"] == ""
    assert rows[0]["NO1 F1 (N)"] == "" and rows[1]["NO1 F1 (N)"] != ""


def test_a_count_a_run_of_another_kind_has_no_place_for_is_no_zero(runs, tmp_path, capsys):
    """A block run has no shock and a discrete run no collisions: their counts are '-',
    not 0 impacts or 0 collisions (measured before: 'NO1 impacts' 0 for sdnv105d)."""
    out = tmp_path / "n.csv"
    _table(capsys, runs["fem"], runs["kn1e5"], "--csv", out, "--collisions", "1")
    rows = list(csv.DictReader(out.open()))
    assert [r["kind"] for r in rows] == ["block", "discrete"]
    assert [r["NO1 impacts"] for r in rows] == ["", str(len(_json(runs["kn1e5"])["impacts"]))]
    assert rows[0]["collisions"] == str(len(_json(runs["fem"])["collisions"]))
    assert rows[1]["collisions"] == ""


def test_a_rigid_twin_shows_the_tilt_it_was_released_from(tmp_path, capsys):
    """The twin of a block case is released at the angle the block's preload.tilt gives
    and records its levels' file's tilt as unread (extra.unread): a sweep of the tilt
    shows the tilt each run was given, not that file's 0.01 in every row."""
    dirs = [_run("sdnv105d", tmp_path / f"t{tilt}", [f"preload.tilt={tilt}", "time.end=0.1"],
                 rigid=True) for tilt in (0.01, 0.02)]
    assert all("preload.tilt" in _json(d)["extra"]["unread"] for d in dirs)
    out = tmp_path / "tilt.csv"
    _table(capsys, *dirs, "--csv", out)
    rows = list(csv.DictReader(out.open()))
    assert [r["preload.tilt"] for r in rows] == ["0.01", "0.02"]
    assert [float(r["preload.angle (rad)"]) for r in rows] == [
        _json(d)["parameters"]["preload"]["angle"] for d in dirs]
