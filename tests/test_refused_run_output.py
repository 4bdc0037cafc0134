"""A block run refused once its model is built writes nothing into its results directory.

The history's columns are known from its first row, after the mesh, the contact model
and the preload: a ``[[quantity]] column`` that names none of them is refused there (exit
code 2). It was refused after that row and the first field frame were written: ``--out``
kept ``history.csv`` (one row), ``fields.pvd``, ``fields000000.pvtu``,
``fields_p0_000000.vtu``, ``fields.xdmf`` and ``fields.h5`` of a run that never was.

Nor does it take the results of an earlier run there: they were deleted as the run
started, and the refusal left the directory without them (a case refused when it is
loaded left them).
"""

import shutil

import pytest
from test_bad_input import assert_one_line_error

import rocking_contact as rc
from rocking_contact import results_dir
from rocking_contact.cli import main
from rocking_contact.report.cli import write_report


def snapshot(directory):
    """Every file under ``directory`` (hidden ones too), relative path -> bytes."""
    return {p.relative_to(directory).as_posix(): p.read_bytes()
            for p in directory.rglob("*") if p.is_file()}


def earlier_run(out, tmp_path):
    """``out`` holding an earlier run of sdnd101a (results, history, its plots), a report
    of that run alone drawn inside it and a file of the user's; returns its snapshot."""
    rc.run("sdnd101a", out=out, quiet=True)
    write_report([str(out)], tmp_path, out / "report", views=False)
    (out / "notes.txt").write_text("mine\n")
    before = snapshot(out)
    assert {"results.json", "history.csv", "report/index.html", "notes.txt"} <= set(before)
    assert any(name.endswith(".png") for name in before)
    return before


class KeptRun:
    """An earlier run (:func:`earlier_run`) made once in ``where/o``, for a module's
    tests, and a copy of it that puts ``out`` back as made before each test (:meth:`again`).
    The tests work in ``out`` itself, not in a copy elsewhere: the report drawn inside it
    is the run's own only there (it names its run's directory)."""

    def __init__(self, where):
        self.out = where / "o"
        self.before = earlier_run(self.out, where)
        self.kept = where / "kept"
        shutil.copytree(self.out, self.kept)

    def again(self):
        """Put ``out`` back as made, whatever a test before left there; returns
        ``(out, before)``, ``before`` its snapshot."""
        shutil.rmtree(self.out, ignore_errors=True)
        shutil.copytree(self.kept, self.out)
        assert snapshot(self.out) == self.before
        return self.out, self.before


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


def test_a_refused_run_leaves_the_earlier_results_as_they_were(capsys, tmp_path):
    """The same files, byte for byte, and no folder of the run's own left behind, from
    the command line and from the Python API (fields every step)."""
    out = tmp_path / "o"
    before = earlier_run(out, tmp_path)
    capsys.readouterr()
    case = _misspelt(tmp_path)
    code = main(["run", str(case), "--out", str(out), "--quiet", "--set", "time.end=0.002"])
    assert_one_line_error(capsys, code, ["quantity[0].column: 'DY_AA'"])
    assert snapshot(out) == before
    assert not (out / results_dir.REPLACED).exists()
    refused = rc.load_case(case, ["time.end=0.002", "output.fields_every=1"])
    with pytest.raises(rc.CaseError):
        rc.run(refused, out=out, quiet=True)
    assert snapshot(out) == before
    assert not (out / results_dir.REPLACED).exists()


def test_a_case_built_in_code_is_named_by_its_name(tmp_path):
    """Built in code (no case file), a refusal names the case by its name, as rc.run's
    own checks of a changed case do: the runner said 'the case'."""
    from rocking_contact.config import as_dict, build

    loaded = rc.load_case(_misspelt(tmp_path), ["time.end=0.002"])
    built = build(type(loaded), as_dict(loaded), file="code")
    with pytest.raises(rc.CaseError) as refused:
        rc.run(built, write=False, quiet=True, plots=False)
    # unnamed, it takes its file's name (never its parent's, since d878753)
    assert (refused.value.file, refused.value.key) == ("misspelt", "quantity[0].column")
