"""The Python API in a long-lived process (a Jupyter kernel): runs of every kind, failed and
interrupted ones included, do not affect the runs after them; wrong arguments are one-line
CaseErrors; what a run computed is reachable in memory; the public names are documented."""

import inspect
import os
import pydoc
import re
import signal
from pathlib import Path

import numpy as np
import pytest

import rocking_contact as rc
from rocking_contact import api, interrupt
from rocking_contact.progress import Progress

#: short runs of each kind: the FEM cases to 0.01 s (their first collision is at 0.054 s)
RUNS = {
    "sdnd101a": {},
    "sdnv105_rigid": {},
    "sdnv105a": {"time.end": 0.01},
    "sdnv105d": {"time.end": 0.01},
}


def run(name, overrides=None, **kwargs):
    """A run of one of :data:`RUNS` that writes nothing."""
    case = rc.load_case(name, RUNS[name] if overrides is None else overrides)
    return rc.run(case, write=False, quiet=True, **kwargs)


def assert_same(a, b):
    """Two runs gave the same numbers, bit for bit."""
    assert a.status == b.status == "completed"
    assert list(a.history) == list(b.history)
    for column in a.history:
        assert np.array_equal(a.history[column], b.history[column]), column
    assert list(a.quantities) == list(b.quantities)
    np.testing.assert_array_equal(list(a.quantities.values()), list(b.quantities.values()))
    assert [c["value"] for c in a.checks] == pytest.approx([c["value"] for c in b.checks],
                                                           rel=0, abs=0, nan_ok=True)


def open_files():
    return len(os.listdir("/proc/self/fd"))


@pytest.fixture(scope="module")
def first():
    """The first run of each case in this process."""
    return {name: run(name) for name in RUNS}


def test_runs_of_every_kind_one_after_another_repeat_their_numbers(first):
    """FEM after discrete and after FEM of another case, rigid between: nothing carries
    over (PETSc options, open files), and the same case gives the same numbers."""
    from petsc4py import PETSc

    files = open_files()
    for name in ["sdnv105d", "sdnd101a", "sdnv105a", "sdnv105_rigid", "sdnv105d", "sdnv105a"]:
        assert_same(first[name], run(name))
    assert open_files() == files
    assert PETSc.Options().getAll() == {}


def test_a_failed_run_leaves_the_next_one_as_it_would_be(first):
    with pytest.raises(rc.SolverFailure, match=r"from pseudo-time .*\(residual \S+ N") as info:
        run("sdnv105a", {**RUNS["sdnv105a"], "solver.max_iterations": 1,
                         "contact.max_iterations": 1, "solver.max_halvings": 0})
    assert info.value.partial is not None and info.value.partial.status.startswith("failed")
    assert_same(first["sdnv105a"], run("sdnv105a"))
    with pytest.raises(rc.SolverFailure, match="solver failed|Newton"):
        run("sdnd101a", {"solver.scheme": "newmark", "solver.newton_max_iter": 3,
                         "solver.newton_tol": 1e-30})
    assert_same(first["sdnd101a"], run("sdnd101a"))


def test_a_bad_value_at_run_time_leaves_the_case_and_the_next_run_as_they_were(first):
    case = rc.load_case("sdnd101a")
    case.time.step = -1.0
    with pytest.raises(rc.CaseError, match=r"changed after loading\): time\.step: got -1"):
        rc.run(case, write=False, quiet=True)
    case.time.step = rc.load_case("sdnd101a").time.step
    assert_same(first["sdnd101a"], rc.run(case, write=False, quiet=True))


class StopAtFirstUpdate(Progress):
    """Ctrl-C at the run's first progress update, as the SIGINT handler asks."""

    def update(self, t, info="", step=None):
        interrupt.request()


class AbortAtFirstUpdate(Progress):
    """A second Ctrl-C, which raises at once: in the middle of a FEM step loop."""

    def update(self, t, info="", step=None):
        raise KeyboardInterrupt


def test_an_interrupted_or_aborted_run_leaves_the_next_one_as_it_would_be(first,
                                                                           monkeypatch):
    handler = signal.getsignal(signal.SIGINT)
    monkeypatch.setattr(api, "Progress", StopAtFirstUpdate)
    with pytest.raises(rc.Interrupted) as info:
        run("sdnd101a", {"time.step": 1e-5})
    assert 0.0 < info.value.partial.history["time"][-1] < 0.5
    monkeypatch.setattr(api, "Progress", AbortAtFirstUpdate)
    with pytest.raises(KeyboardInterrupt):
        run("sdnv105a")
    monkeypatch.undo()
    assert signal.getsignal(signal.SIGINT) is handler and not interrupt.requested()
    assert_same(first["sdnv105a"], run("sdnv105a"))
    assert_same(first["sdnd101a"], run("sdnd101a"))


def test_a_case_changed_after_loading_runs_as_its_file_would(first):
    """A section set as a dict is read as the table it stands for; the caller's object is
    not changed by the run."""
    case = rc.load_case("sdnd101a")
    case.time = {"start": 0.0, "end": case.time.end, "step": case.time.step}
    case.reference = [{"quantity": "impact.NO1.1.max_force", "value": 9950.371902099892,
                       "tolerance": 1e-3, "source": "analytic: Kc v0 / wc"}]
    result = rc.run(case, write=False, quiet=True)
    assert isinstance(case.time, dict)
    assert np.array_equal(result.history["DX_NO1"], first["sdnd101a"].history["DX_NO1"])
    assert [c["passed"] for c in result.checks] == [True]


@pytest.mark.parametrize("call,words", [
    (lambda: rc.load_case(None), "rc.load_case: case: got NoneType None"),
    (lambda: rc.load_case("sdnd101a", {3: 1.0}), "rc.load_case: overrides: key int 3"),
    (lambda: rc.load_case("sdnd101a", [("time.step", 1e-4)]), "rc.load_case: overrides: got"),
    (lambda: rc.load_case("sdnd101a", 5), "rc.load_case: overrides: got int 5"),
    (lambda: rc.run(3), "rc.run: case: got int 3"),
    (lambda: rc.run({"case": {}}), "rc.run: case: got dict"),
    (lambda: rc.run("sdnd101a", out=3), "rc.run: out: got int 3"),
    (lambda: rc.format_table("sdnd101a"), "rc.format_table: result: got str"),
    (lambda: rc.format_table("sdnd101a", [{"quantity": "q"}]),
     "rc.format_table: checks[0]: no reference, value"),
    (lambda: rc.format_table("sdnd101a", "checks"), "rc.format_table: checks: got str"),
])
def test_wrong_arguments_are_one_line_case_errors(call, words):
    with pytest.raises(rc.CaseError) as info:
        call()
    assert words in str(info.value) and "\n" not in str(info.value)


def test_an_out_the_api_cannot_make_names_its_argument_not_the_option(tmp_path):
    """rc.run(out=...) said "--out: cannot create ...", an option no script gave."""
    (tmp_path / "afile").write_text("")
    with pytest.raises(rc.CaseError) as info:
        rc.run("sdnd101a", out=tmp_path / "afile" / "sub", quiet=True)
    assert str(info.value).startswith(f"rc.run: out: {tmp_path / 'afile'} is a file, not a "
                                      "directory (allowed: a writable directory")


@pytest.mark.parametrize("change,words", [
    (lambda case: setattr(case.case, "kind", "block"),
     "case.kind: got 'block', allowed: 'discrete'"),
    (lambda case: delattr(case, "time"), "a setting was deleted"),
    (lambda case: setattr(case.time, "stpe", 1e-4), "time.stpe: unknown key"),
])
def test_a_case_broken_after_loading_is_a_one_line_case_error(change, words):
    case = rc.load_case("sdnd101a")
    change(case)
    with pytest.raises(rc.CaseError, match=r"sdnd101a\.toml \(changed after loading\)") as e:
        rc.run(case, write=False, quiet=True)
    assert words in str(e.value) and "\n" not in str(e.value)


def test_what_a_run_computed_is_reachable_in_memory(first):
    discrete, rigid = first["sdnd101a"], first["sdnv105_rigid"]
    impacts = discrete.columns("impacts")
    assert impacts["max_force"].dtype == float
    np.testing.assert_array_equal(impacts["max_force"],
                                  [i["max_force"] for i in discrete.impacts])
    times = rigid.columns("collisions")["time"]
    assert len(times) == len(rigid.collisions) and np.all(np.diff(times) > 0)
    assert times[0] == rigid.quantities["collision.1.time"]
    passed = discrete.columns("checks")["passed"]
    assert list(passed) == [c["passed"] for c in discrete.checks]
    with pytest.raises(rc.CaseError, match="allowed: impacts, collisions, checks"):
        discrete.columns("history")
    text = repr(discrete)
    assert "\n" not in text and len(text) < 300 and "'sdnd101a'" in text
    marks = [c["passed"] for c in discrete.checks]
    assert f"checks {marks.count(True)} passed, {marks.count(None)} information;" in text
    assert rc.format_table(discrete) == rc.format_table(discrete.case, discrete.checks)


def test_the_columns_of_rows_have_the_dtypes_of_their_values(first):
    """Integers as int64 and flags as bool (they were float and object arrays); a flag with
    None (an information row's pass mark) stays an object array, a number missing is NaN."""
    impacts = first["sdnd101a"].columns("impacts")
    assert impacts["index"].dtype == np.int64 and list(impacts["index"]) == [1, 2]
    assert impacts["complete"].dtype == bool and impacts["complete"].all()
    assert impacts["shock"].dtype == object and list(impacts["shock"]) == ["NO1", "NO1"]
    collisions = first["sdnv105_rigid"].columns("collisions")
    assert collisions["index"].dtype == np.int64
    np.testing.assert_array_equal(collisions["index"], np.arange(1, len(collisions["index"])
                                                                 + 1))
    block = first["sdnv105d"].columns("collisions")  # one window maximum, on its bound
    assert block["interior"].dtype == bool and block["index"].dtype == np.int64
    assert block["impact"].dtype == float and np.isnan(block["impact"]).all()
    passed = first["sdnd101a"].columns("checks")["passed"]
    assert passed.dtype == object and None in list(passed)
    assert (passed == True).sum() == sum(c["passed"] is True  # noqa: E712 (elementwise)
                                         for c in first["sdnd101a"].checks)


def test_repr_counts_checks_not_reached_and_only_real_collisions(first):
    """sdnv105d to 0.01 s reaches none of its graded checks and no collision: its repr
    said 'checks 0 ok, 14 failed' and '1 collisions' (the first window's maximum, on the
    run's end, which is no collision). It counts as the command line's summary line."""
    result = first["sdnv105d"]
    graded = [c for c in result.checks if c["passed"] is not None]
    assert graded and result.collisions and not any(c["interior"] for c in result.collisions)
    text = repr(result)
    assert f"checks 0 passed, {len(graded)} not reached, " in text
    assert "failed" not in text and " 0 collisions," in text
    assert repr(first["sdnv105_rigid"]).count(
        f" {len(first['sdnv105_rigid'].collisions)} collisions,") == 1


def test_results_compare_by_identity(first):
    """``==`` on two results raised 'truth value of an array is ambiguous' (the dataclass
    compared their history dicts of arrays)."""
    a, b = first["sdnd101a"], run("sdnd101a")
    assert a == a and a != b and not (a == b)
    assert len({a, b}) == 2


def test_passed_says_whether_the_run_passed_something(first):
    """True when it completed and every graded check passed; False when one failed, was not
    reached, or the run stopped; None when nothing was graded (it was True)."""
    assert first["sdnd101a"].passed is True
    assert first["sdnv105d"].passed is False  # to 0.01 s: the checks are not reached
    case = rc.load_case("sdnd101a")
    case.reference = []
    assert rc.run(case, write=False, quiet=True).passed is None
    changed = run("sdnd101a", {"model.damping.mass_coefficient": 1.0})
    assert changed.checks and all(c["passed"] is None for c in changed.checks)
    assert changed.passed is None
    with pytest.raises(rc.SolverFailure) as info:
        run("sdnd101a", {"solver.scheme": "newmark", "solver.newton_max_iter": 3,
                         "solver.newton_tol": 1e-30})
    assert info.value.partial.passed is False


@pytest.mark.parametrize("name", ["sdnd101a", "sdnv105_rigid", "sdnv105d"])
def test_a_result_read_back_from_its_directory_is_the_one_returned(first, tmp_path, name):
    """rc.load_result(out) gives the RunResult that rc.run returned (results.load gave a
    tuple of dicts): the same results.json content, the history as numpy arrays to the
    CSV's 11 digits, NaN where the run had NaN."""
    result = rc.run(rc.load_case(name, RUNS[name]), out=tmp_path, quiet=True, plots=False)
    loaded = rc.load_result(tmp_path)
    assert isinstance(loaded, rc.RunResult) and loaded.to_json() == result.to_json()
    assert list(loaded.history) == list(result.history)
    for column, values in result.history.items():
        assert isinstance(loaded.history[column], np.ndarray)
        np.testing.assert_allclose(loaded.history[column], values, rtol=1e-10, atol=1e-300,
                                   err_msg=column)
    assert repr(loaded) == repr(result) and loaded.passed == result.passed
    for key in ("value", "abs_error"):
        np.testing.assert_array_equal(loaded.columns("checks")[key],
                                      result.columns("checks")[key])
    assert [type(v) for v in loaded.quantities.values()] == [
        type(v) for v in result.quantities.values()]
    assert rc.format_table(loaded) == rc.format_table(result)


def test_a_results_directory_that_is_none_is_a_one_line_case_error(tmp_path):
    with pytest.raises(rc.CaseError, match=r"no results\.json in it: not a results "
                                           r"directory") as info:
        rc.load_result(tmp_path)
    assert "\n" not in str(info.value)
    (tmp_path / "results.json").write_text('{"case": "x", "kind": "discrete", "status": '
                                           '"completed", "quantities": {"q": "big"}}')
    with pytest.raises(rc.CaseError, match=r"quantities\.q: a JSON string, expected a "
                                           r"number or null"):
        rc.load_result(tmp_path)
    (tmp_path / "results.json").write_text('{"case": "x", "status": "completed"}')
    with pytest.raises(rc.CaseError, match="kind: missing, expected a string"):
        rc.load_result(tmp_path)


def test_load_case_is_typed_with_the_kinds_and_diverged_is_exported():
    """`rc.load_case` was annotated `-> Any` (an IDE completed nothing), and `Diverged` (a
    block run's steps took it off its table) was only in rocking_contact.fem.overturn: a
    script could catch it only as a SolverFailure."""
    from rocking_contact.config import KINDS, kind_schema
    from rocking_contact.fem.overturn import Diverged

    returned = inspect.signature(rc.load_case).return_annotation
    assert set(returned.split(" | ")) == {kind_schema(k).__name__ for k in KINDS}
    assert all(isinstance(rc.load_case(n), kind_schema(k))
               for n, k in (("sdnd101a", "discrete"), ("sdnv105_rigid", "rigid"),
                            ("sdnv105a", "block")))
    assert "Diverged" in rc.__all__ and rc.Diverged is Diverged
    assert issubclass(rc.Diverged, rc.SolverFailure)
    assert not issubclass(rc.Diverged, rc.Overturned)
    assert ":class:`Diverged`" in rc.__doc__ and "Diverged:" in rc.run.__doc__


def test_every_public_name_is_documented_and_typed():
    """Every exported callable has a docstring, every parameter an annotation and a line
    in the docstring's Args; ``help(rc)`` shows the way in."""
    for name in rc.__all__:
        obj = getattr(rc, name)
        if name == "__version__":
            assert re.fullmatch(r"\d+\.\d+\.\d+", obj)
            continue
        assert inspect.getdoc(obj), name
        if inspect.isfunction(obj):
            signature = inspect.signature(obj)
            assert signature.return_annotation is not inspect.Signature.empty, name
            for parameter in signature.parameters.values():
                assert parameter.annotation is not inspect.Parameter.empty, (name, parameter)
                assert f"    {parameter.name}: " in obj.__doc__, (name, parameter.name)
    page = pydoc.render_doc(rc, renderer=pydoc.plaintext)
    assert all(f"rc.{name}" in page for name in ("load_case", "run", "format_table"))
    assert "Returns:" in rc.run.__doc__ and "Raises:" in rc.run.__doc__


def readme_example():
    readme = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    return re.search(r"From Python:\n\n```python\n(.*?)```", readme, re.S).group(1)


def help_example():
    block = re.search(r"::\n\n(.*?)\n\n(?=\S)", rc.__doc__, re.S).group(1)
    return inspect.cleandoc(block)


@pytest.mark.parametrize("example,written", [
    (readme_example, "results/my_sdnd100a_exact_step1e-4"),
    (help_example, "results/sdnd101a_newmark"),
])
def test_the_python_examples_run_as_written(example, written, tmp_path, monkeypatch,
                                            capsys):
    """The README's and ``help(rc)``'s: every check they print passes."""
    monkeypatch.chdir(tmp_path)
    exec(compile(example(), example.__name__, "exec"), {})
    table = capsys.readouterr().out
    assert table.startswith("== sdnd10") and " ok" in table and "FAIL" not in table
    assert (tmp_path / written / "results.json").is_file()


def test_a_case_without_references_is_not_told_they_no_longer_hold(tmp_path):
    """Her own block drops the inherited references: a changed value is then no reason
    for 'its references describe the case file's parameters' (it said so for a file
    extending sdnv105d with reference = [])."""
    case = rc.load_case("sdnd101a", {"model.damping.mass_coefficient": 1.0})
    with_references = rc.run(case, out=tmp_path / "a", quiet=True, plots=False)
    assert any("references describe" in w for w in with_references.warnings)
    case.reference = []
    result = rc.run(case, out=tmp_path / "b", quiet=True, plots=False)
    assert result.checks == [] and not any("references" in w for w in result.warnings)


def test_what_a_run_changes_is_recorded_with_or_without_references(tmp_path):
    """extra.changes names the changed physics for the plots, views and report (a case
    without references recorded nothing: --set initial.state=rest kept the file's title);
    a check the run never reached keeps saying so before 'not graded'."""
    case = rc.load_case("sdnd101a", {"model.damping.mass_coefficient": 1.0, "time.end": 0.3})
    result = rc.run(case, write=False, quiet=True)
    assert result.extra["changes"] == ["model.damping.mass_coefficient"]
    late = [c for c in result.checks if not np.isfinite(c["value"]) and "graded" in c["note"]]
    # the second impact's five checks, and the count and largest force of the whole run
    whole = ("impact.NO1.count", "impact.NO1.max_abs_force")
    assert len(late) == 7 and {c["quantity"] for c in late} >= set(whole) and all(
        c["note"] == "not reached: the run ends at t = 0.3 s"
                     + (", and this measures the whole run" if c["quantity"] in whole else "")
                     + "; not graded: the run changes model.damping.mass_coefficient"
        for c in late)
    case.reference = []
    assert rc.run(case, write=False, quiet=True).extra["changes"] == [
        "model.damping.mass_coefficient"]
    assert rc.run(rc.load_case("sdnd101a"), write=False, quiet=True).extra["changes"] == []


@pytest.mark.parametrize("kind", ["discrete", "rigid", "block"])
def test_the_columns_of_no_rows_are_the_row_types_fields(kind):
    """A run without references gave ``columns("checks") == {}``, and README's
    ``checks["abs_error"] / checks["abs_tolerance"]`` a KeyError: each field comes empty."""
    from rocking_contact.results import ROW_FIELDS

    result = rc.RunResult(case="x", kind=kind, parameters={}, history={})
    checks = result.columns("checks")
    assert list(checks) == list(ROW_FIELDS["checks", kind])
    used = checks["abs_error"] / checks["abs_tolerance"]
    assert used.dtype == float and used.shape == (0,)
    assert checks["passed"].dtype == object and checks["note"].shape == (0,)
    assert set(result.columns("collisions")) == set(ROW_FIELDS.get(("collisions", kind), {}))
    assert result.columns("impacts").keys() == ROW_FIELDS.get(("impacts", kind), {}).keys()


def test_the_row_types_fields_are_those_runs_give(first):
    """:data:`~rocking_contact.results.ROW_FIELDS` names the keys the rows of runs have."""
    from rocking_contact.results import ROW_FIELDS

    for result in first.values():
        for rows in ("impacts", "collisions", "checks"):
            table = getattr(result, rows)
            if table:
                assert list(table[0]) == list(ROW_FIELDS[rows, result.kind]), (
                    result.case, rows)


def test_a_stopped_run_did_not_pass_even_with_nothing_graded():
    """README: ``passed`` is False for a stopped run, None for a completed one that grades
    nothing."""
    result = rc.RunResult(case="x", kind="block", parameters={}, history={})
    assert result.passed is None
    result.status = "interrupted at t = 0.01 s"
    assert result.passed is False
