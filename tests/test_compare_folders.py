"""``compare DIR`` with DIR a folder of runs (a sweep's ``--out``, ``results/``): its runs,
sorted by name; ``compare DIR/*`` skips the sweep's own ``sweep.csv``. Both were refused,
'sw: no results.json in it' and 'sw/sweep.csv: a file, not a directory' (session 31, L1)."""

import shutil

import pytest

import rocking_contact.report.case_tables as case_tables
from rocking_contact.cli import main
from rocking_contact.commands import compare
from rocking_contact.commands.compare import is_number, study


@pytest.fixture(scope="module")
def sweep(tmp_path_factory):
    """A sweep of two sdnd101a runs, the larger step first (the sweep's order)."""
    out = tmp_path_factory.mktemp("folders") / "sw"
    assert main(["sweep", "sdnd101a", "--set", "time.step=2e-4,1e-4", "--set",
                 "time.end=0.05", "--out", str(out), "--quiet", "--no-plots"]) == 0
    return out


def _compare(capsys, *args):
    code = main(["compare", *map(str, args)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_sweep_s_folder_is_its_runs_sorted(sweep, capsys):
    names = ["time.step=1e-4", "time.step=2e-4"]
    code, out, err = _compare(capsys, sweep)
    assert code == 0 and err == ""
    assert out == _compare(capsys, *(sweep / name for name in names))[1]
    rows = [line.split()[0] for line in out.splitlines() if line.startswith(str(sweep))]
    assert rows == [str(sweep / name) for name in names]
    # its table skipped among the arguments, as the shell lists them
    listed = sorted(sweep.iterdir())
    assert sweep / "sweep.csv" in listed
    assert _compare(capsys, *listed) == (0, out, "")
    assert study([sweep]).rows() == study([sweep / name for name in names]).rows()


def test_a_folder_that_is_not_a_run_is_named_and_left_out(sweep, capsys, tmp_path):
    mixed = tmp_path / "mixed"
    shutil.copytree(sweep, mixed)
    (mixed / "figures").mkdir()
    code, out, err = _compare(capsys, mixed)
    assert code == 0 and err == ""
    assert out.splitlines()[-1] == f"{mixed}: its folders without results.json left out: figures"
    assert f"{mixed}/time.step=1e-4 " in out and f"{mixed}/time.step=2e-4 " in out


def test_a_folder_without_runs_and_other_files_are_refused(sweep, capsys, tmp_path):
    (tmp_path / "none" / "sub").mkdir(parents=True)
    (tmp_path / "alone").mkdir()
    (tmp_path / "alone" / "sweep.csv").write_text("run\n")  # no runs beside it
    (sweep / "notes.txt").write_text("mine")
    try:
        cases = [
            ([tmp_path / "none"], f"error: {tmp_path / 'none'}: no results.json in it, nor in "
             "its folders (allowed: a results directory written by run, validate, rigid, sweep or "
             "rc.run, or a folder of them such as a sweep's)"),
            ([tmp_path / "alone" / "sweep.csv"], f"error: {tmp_path / 'alone' / 'sweep.csv'}: "
             "a file, not a directory"),
            # a sweep's table alone: it said 'compare: no results directory given'
            ([sweep / "sweep.csv"], f"error: {sweep / 'sweep.csv'}: a sweep's table, which "
             f"compare skips (allowed: its folder {sweep}, for the sweep's runs; its runs' "
             "results directories)"),
            # a run's own files, and a file of the sweep's folder other than its table
            ([sweep / "time.step=1e-4" / "results.json"],
             f"error: {sweep / 'time.step=1e-4' / 'results.json'}: a file, not a directory"),
            ([*sorted(sweep.iterdir())], f"error: {sweep / 'notes.txt'}: a file, not a "
             "directory"),
        ]
        for args, said in cases:
            code, out, err = _compare(capsys, *args)
            assert code == 2 and out == "" and len(err.splitlines()) == 1, err
            assert err.startswith(said), err
    finally:
        (sweep / "notes.txt").unlink()


def test_one_test_of_a_number_s_text_serves_compare_and_the_report():
    assert case_tables.is_number is is_number and not hasattr(compare, "_numeric")
    assert [is_number(t) for t in ("1e+06", "-3", "nan", "0.5", "-", "sdnd101a", "")] == [
        True, True, True, True, False, False, False]
