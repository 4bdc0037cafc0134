"""A block run refused once its model is built writes nothing into its results directory.

The history's columns are known from its first row, after the mesh, the contact model
and the preload: a ``[[quantity]] column`` that names none of them is refused there (exit
code 2). It was refused after that row and the first field frame were written: ``--out``
kept ``history.csv`` (one row), ``fields.pvd``, ``fields000000.pvtu``,
``fields_p0_000000.vtu``, ``fields.xdmf`` and ``fields.h5`` of a run that never was.
"""

import pytest
from test_bad_input import assert_one_line_error

import rocking_contact as rc
from rocking_contact.cli import main


def _misspelt(tmp_path):
    """A case file extending sdnv105d whose one [[quantity]] reads no column of its
    history."""
    case = tmp_path / "misspelt.toml"
    case.write_text('extends = "sdnv105d"\n\n[[quantity]]\nname = "dy_max_A"\n'
                    'column = "DY_AA"\nop = "max"\n')
    return case


def test_a_refused_block_run_leaves_nothing_in_out(capsys, tmp_path):
    case = _misspelt(tmp_path)
    out = tmp_path / "o"
    out.mkdir()
    (out / "notes.txt").write_text("mine\n")  # not a run's file: no run touches it
    code = main(["run", str(case), "--out", str(out), "--quiet", "--set", "time.end=0.002"])
    assert_one_line_error(capsys, code, [
        f"error: {case}: quantity[0].column: 'DY_AA' is no history column of this case",
        "close: DY_A, "])
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt"]
    # a directory the run made for itself goes too, as for a case refused at load
    code = main(["run", str(case), "--out", str(out / "a" / "b"), "--quiet", "--set",
                 "time.end=0.002"])
    assert_one_line_error(capsys, code, ["quantity[0].column: 'DY_AA'"])
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt"]


def test_rc_run_refuses_before_it_opens_a_file(tmp_path):
    """The Python API alike, with fields every step (a frame is due at the first row)."""
    case = rc.load_case(_misspelt(tmp_path), ["time.end=0.002", "output.fields_every=1"])
    out = tmp_path / "o"
    out.mkdir()
    with pytest.raises(rc.CaseError) as refused:
        rc.run(case, out=out, quiet=True, plots=False)
    assert refused.value.key == "quantity[0].column"
    assert list(out.iterdir()) == []
    with pytest.raises(rc.CaseError):
        rc.run(case, out=out / "made", quiet=True, plots=False)
    assert list(out.iterdir()) == []
