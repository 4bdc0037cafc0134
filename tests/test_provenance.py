"""A run's provenance: where its results came from, and its rerun command line."""

import hashlib
import json
import shlex
import shutil
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest

import rocking_contact as rc
from rocking_contact import provenance
from rocking_contact.config import CaseError, shipped_cases
from rocking_contact.results import load_result

CLI = Path(sys.executable).parent / "rocking-contact"


def _case_chain(folder: Path) -> tuple[Path, list[Path]]:
    """A case that extends a file that extends a shipped one and reads a CSV record from
    its own folder: the case file, then every file it is loaded from, as run records
    them."""
    (folder / "sub").mkdir()
    record = folder / "sub" / "support.csv"
    record.write_text("t,a\n0,0\n0.005,1\n0.01,0\n")
    middle = folder / "sub" / "middle.toml"
    middle.write_text('extends = "sdnd101a"\n[model.support.acceleration]\ntype = "table"\n'
                      'path = "support.csv"\n')
    case = folder / "case.toml"
    case.write_text('extends = "sub/middle.toml"\n[time]\nend = 0.02\n')
    return case, [case, middle, shipped_cases()["sdnd101a"], record]


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _provenance(out: Path) -> dict:
    return json.loads((out / "results.json").read_text())["provenance"]


def test_rerun_from_the_command_line_gives_the_same_history_byte_for_byte(tmp_path):
    case, files = _case_chain(tmp_path)
    first = subprocess.run([str(CLI), "run", "case.toml", "--set", "time.end=0.01", "--set",
                            "time.step=2.5e-4", "--out", "first", "-q", "--no-plots"],
                           cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert first.returncode == 0, first.stderr
    record = _provenance(tmp_path / "first")
    assert record["rerun"] == ("rocking-contact run case.toml --set time.end=0.01 --set "
                               "time.step=2.5e-4 --out first")
    assert record["argv"] == ["rocking-contact", "run", "case.toml", "--set", "time.end=0.01",
                              "--set", "time.step=2.5e-4", "--out", "first", "-q",
                              "--no-plots"]
    assert record["case"] == "case.toml" and record["case_file"] == str(case.resolve())
    assert record["overrides"] == ["time.end=0.01", "time.step=2.5e-4"]
    assert record["cwd"] == str(tmp_path.resolve()) and record["mpi_ranks"] == 1
    assert [f["path"] for f in record["files"]] == [str(p.resolve()) for p in files]
    assert [f["read_as"] for f in record["files"]] == ["case file", "extended", "extended",
                                                       "record"]
    assert [f["sha256"] for f in record["files"]] == [_sha256(p) for p in files]
    started, ended = (datetime.fromisoformat(record[k]) for k in ("started", "ended"))
    assert started.utcoffset().total_seconds() == 0 and started <= ended
    assert record["version"] == rc.__version__
    first_history = (tmp_path / "first" / "history.csv").read_bytes()

    # the rerun command exactly as recorded, from the recorded directory, into the same --out
    words = shlex.split(record["rerun"])
    again = subprocess.run([str(CLI), *words[1:]], cwd=record["cwd"], capture_output=True,
                           text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    assert (tmp_path / "first" / "history.csv").read_bytes() == first_history
    assert _provenance(tmp_path / "first")["rerun"] == record["rerun"]


def test_python_overrides_are_recorded_in_order_and_spelled_for_the_command_line(tmp_path,
                                                                                  monkeypatch):
    monkeypatch.chdir(tmp_path)
    case = rc.load_case("sdnd101a", {"time.step": 2.5e-4, "time.end": 0.01,
                                     "model.support.direction": [1.0, 0.0, 0.0]})
    result = rc.run(case, out=tmp_path / "r", quiet=True, plots=False)
    record = result.provenance
    assert list(record["overrides"]) == ["time.step", "time.end", "model.support.direction"]
    assert record["rerun"] == shlex.join([
        "rocking-contact", "run", "sdnd101a", "--set", "time.step=0.00025", "--set",
        "time.end=0.01", "--set", "model.support.direction=[1.0, 0.0, 0.0]", "--out",
        str(tmp_path / "r")])
    assert [f["read_as"] for f in record["files"]] == ["case file"]
    assert load_result(tmp_path / "r").provenance == json.loads(json.dumps(record))
    # the same inputs from the command line: the same history
    words = shlex.split(record["rerun"])
    assert rc.run(rc.load_case(words[2], words[4:-2:2]), write=False, quiet=True
                  ).history["DX_NO1"].tolist() == result.history["DX_NO1"].tolist()


def test_a_case_changed_after_loading_has_no_rerun_and_says_why(tmp_path):
    case = rc.load_case("sdnd101a", ["time.end=0.01"])
    case.time.step = 2.5e-4
    record = rc.run(case, out=tmp_path, quiet=True, plots=False).provenance
    assert record["rerun"] is None and "changed after loading" in record["rerun_note"]
    assert record["overrides"] == ["time.end=0.01"]


def test_an_override_without_a_set_spelling_has_no_rerun():
    texts, why = provenance.override_texts({"time.step": 1e-4, "case.title": 1j})
    assert texts is None and "case.title" in why
    # None inside a table has none either (TOML has no null; ``key=`` unsets a key alone)
    assert provenance.override_texts({"preload": {"angle": None}})[0] is None
    assert provenance.override_texts({"a.b": True, "c": "x y"}) == (["a.b=true",
                                                                     "c='x y'"], "")
    assert provenance.override_texts(["time.end=1"]) == (["time.end=1"], "")


def test_git_missing_or_failing_never_fails_the_run(tmp_path, monkeypatch):
    monkeypatch.setattr(provenance.shutil, "which", lambda name: None)
    assert provenance.checkout() is None

    def broken(*args, **kwargs):
        raise subprocess.TimeoutExpired("git", 5)

    monkeypatch.setattr(provenance.shutil, "which", shutil.which)
    monkeypatch.setattr(provenance.subprocess, "run", broken)
    found = provenance.checkout()
    if found is not None:  # a checkout (this repository): the failure is said, not raised
        assert found["commit"] is None and "timed out" in found["error"]
    result = rc.run(rc.load_case("sdnd101a", ["time.end=0.01"]), out=tmp_path, quiet=True,
                    plots=False)
    assert result.status == "completed" and result.provenance["checkout"] == found


def test_a_checkout_gives_its_commit():
    root = Path(provenance.__file__).resolve().parents[1]
    if shutil.which("git") is None or not (root / ".git").exists():
        pytest.skip("the package is not imported from a git checkout")
    head = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True,
                          text=True, check=True).stdout.strip()
    found = provenance.checkout()
    assert found is not None and found["commit"] == head and isinstance(found["dirty"], bool)


def test_results_without_provenance_still_load(tmp_path):
    rc.run(rc.load_case("sdnd101a", ["time.end=0.01"]), out=tmp_path, quiet=True,
           plots=False)
    data = json.loads((tmp_path / "results.json").read_text())
    del data["provenance"]  # as results.json was written before it was recorded
    (tmp_path / "results.json").write_text(json.dumps(data))
    old = load_result(tmp_path)
    assert old.provenance == {} and old.status == "completed"
    data["provenance"] = ["not", "an", "object"]
    (tmp_path / "results.json").write_text(json.dumps(data))
    with pytest.raises(CaseError, match="provenance: a JSON array, expected an object"):
        load_result(tmp_path)


def test_the_stack_names_the_mpi_library():
    """A result records which MPI library ran it (the wheel's MPICH here), in one short
    phrase, and the report compares it as the other components."""
    versions = dict(provenance.stack_versions())
    library = versions["MPI (library)"]
    assert library.split()[0] in ("MPICH", "Open", "Intel(R)", "MVAPICH", "Microsoft")
    assert "\n" not in library and len(library) < 40
    assert any(c.isdigit() for c in library)


def test_an_override_too_long_for_a_command_line_has_no_rerun():
    """A record given as arrays in Python is a --set word of its samples: 151 of them (U1
    #4) a command that runs it again, 8000 a word execve refuses ('Argument list too
    long'): no rerun, and the note says why."""
    import numpy as np

    t = np.linspace(0.0, 0.15, 151)
    texts, why = provenance.override_texts({"loading.table_acceleration_x": {
        "type": "table", "times": t, "values": 6 * np.sin(4 * np.pi * t)}})
    assert why == "" and texts is not None and len(texts[0]) < provenance.ARGUMENT_BYTES
    t = np.linspace(0.0, 8.0, 8000)
    texts, why = provenance.override_texts({"loading.table_acceleration_x": {
        "type": "table", "times": t, "values": 6 * np.sin(4 * np.pi * t)}})
    assert texts is None and why.startswith(
        "the override loading.table_acceleration_x, given in Python, is ")
    assert f"more than the {provenance.ARGUMENT_BYTES} a word of a command line may hold" in why


def test_the_longest_word_of_a_command_line():
    """ARGUMENT_BYTES is what this system's execve takes for one word, its NUL included."""
    if not sys.platform.startswith("linux"):
        pytest.skip("MAX_ARG_STRLEN is Linux's")
    true = shutil.which("true")
    assert true is not None
    subprocess.run([true, "a" * (provenance.ARGUMENT_BYTES - 1)], check=True)
    with pytest.raises(OSError, match="Argument list too long"):
        subprocess.run([true, "a" * provenance.ARGUMENT_BYTES], check=True)
