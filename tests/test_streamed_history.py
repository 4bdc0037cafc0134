"""A block run's ``history.csv`` is the file it streamed (results_io.History), closed
before its results are written and not written again (results_io.write's ``history``):
byte for byte what results_io.write writes of the run's result, completed or stopped."""

import pytest
from test_provenance_interrupted import StopAtUpdate

import rocking_contact as rc
from rocking_contact import api, interrupt, results_io
from rocking_contact.results import RunResult
from rocking_contact.stops import Interrupted


@pytest.fixture
def whole_writes(monkeypatch):
    """The files :func:`results_io.write_history_csv` writes, in order."""
    paths = []
    write = results_io.write_history_csv

    def counted(history, path):
        paths.append(path)
        write(history, path)

    monkeypatch.setattr(results_io, "write_history_csv", counted)
    return paths


def _as_written_again(result: RunResult, tmp_path) -> bytes:
    again = tmp_path / "again"
    results_io.write(result, again)
    return (again / results_io.HISTORY_FILE).read_bytes()


def test_a_completed_block_runs_history_is_its_stream(tmp_path, whole_writes):
    case = rc.load_case("sdnv105d", ["time.end=0.003"])
    result = rc.run(case, out=tmp_path / "run", quiet=True, plots=False)
    assert result.status == "completed" and whole_writes == []
    streamed = (tmp_path / "run" / results_io.HISTORY_FILE).read_bytes()
    assert streamed.count(b"\n") == 1 + len(result.history["time"]) == 1 + 1 + 30
    assert _as_written_again(result, tmp_path) == streamed
    assert len(whole_writes) == 1


def test_a_stopped_block_runs_history_is_its_stream(tmp_path, monkeypatch, whole_writes):
    monkeypatch.setattr(api, "Progress", StopAtUpdate)
    StopAtUpdate.count = 0
    case = rc.load_case("sdnv105d", ["time.end=0.01"])
    with interrupt.deferred(), pytest.raises(Interrupted) as stop:
        rc.run(case, out=tmp_path / "run", quiet=True, plots=False)
    partial = stop.value.partial
    assert partial.status == "interrupted at t = 0.004 s" and whole_writes == []
    streamed = (tmp_path / "run" / results_io.HISTORY_FILE).read_bytes()
    assert streamed.count(b"\n") == 1 + len(partial.history["time"]) == 1 + 1 + StopAtUpdate.STOP
    assert _as_written_again(partial, tmp_path) == streamed


def test_a_discrete_run_writes_its_history_as_it_ends(tmp_path, whole_writes):
    rc.run("sdnd101a", out=tmp_path / "run", quiet=True, plots=False)
    assert whole_writes == [results_io.partial_path(tmp_path / "run" / results_io.HISTORY_FILE)]
