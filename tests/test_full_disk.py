"""A disk that fills up during a run: one line, exit code 1, no traceback."""

import errno

from rocking_contact import cli, results_io


def test_a_full_disk_is_one_line(tmp_path, monkeypatch, capsys):
    def full(*_args, **_kwargs):
        raise OSError(errno.ENOSPC, "No space left on device", str(tmp_path / "history.csv"))

    monkeypatch.setattr(results_io, "write_history_csv", full)
    code = cli.main(["run", "sdnd101a", "--out", str(tmp_path), "--quiet", "--no-plots"])
    err = capsys.readouterr().err
    assert code == cli.EXIT_FAILED
    assert err.strip().splitlines()[-1] == (
        f"error: cannot write {tmp_path / 'history.csv'}: No space left on device")
    assert "Traceback" not in err
