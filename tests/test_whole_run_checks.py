"""A run that does not end at its case file's end does not grade what measures the whole
run; one that ends before an impact its case file refers to says how many it had."""

import math
from pathlib import Path

import rocking_contact as rc
from rocking_contact.config import QuantitySpec, load_case
from rocking_contact.post.references import (
    impacts_not_had_warnings,
    mark_not_reached,
    mark_unmeasured,
    whole_run_quantities,
)


def _checks(result, quantity):
    return [c for c in result.checks if c["quantity"] == quantity]


def _assert_first_impact_only(result):
    """sdnd101a's checks on a run that ended at 0.2 s, after its first impact: the count and
    largest force not reached, the first impact's own fields graded and passed."""
    for name in ("impact.NO1.count", "impact.NO1.max_abs_force"):
        (check,) = _checks(result, name)
        assert check["passed"] is False and math.isnan(check["value"])
        assert check["note"] == ("not reached: the run ends at t = 0.2 s, and this "
                                 "measures the whole run")
    graded = [c for c in result.checks if c["quantity"].startswith("impact.NO1.1.")
              and c["passed"] is not None]
    assert graded and all(c["passed"] for c in graded)


def test_a_shortened_run_leaves_the_impact_count_and_largest_force_not_reached(tmp_path):
    """sdnd101a to 0.2 s has had its first impact only: its count (1 of 2) and largest
    force are not the run's; the first impact's own fields are graded as usual."""
    short = rc.run(rc.load_case("sdnd101a", {"time.end": 0.2}), out=tmp_path / "s",
                   quiet=True, plots=False)
    assert short.quantities["impact.NO1.count"] == 1  # kept in the results, not graded
    _assert_first_impact_only(short)
    whole = rc.run("sdnd101a", out=tmp_path / "w", quiet=True, plots=False)
    for name in ("impact.NO1.count", "impact.NO1.max_abs_force"):
        (check,) = _checks(whole, name)
        assert check["passed"] is True and not check["note"].startswith("not reached")


def test_whole_run_quantities():
    specs = [QuantitySpec(name="top", column="DX_NO1", op="max"),
             QuantitySpec(name="early", column="DX_NO1", op="max", window=(0.0, 0.1)),
             QuantitySpec(name="cross", column="DX_NO1", op="crossing", level=0.0),
             QuantitySpec(name="end", column="DX_NO1", op="final")]
    impacts = [{"shock": "S", "index": 1, "complete": True},
               {"shock": "S", "index": 2, "complete": False}]
    names = whole_run_quantities(specs, ["impact.S.count", "energy.residual.max_abs", "x"],
                                 impacts)
    assert {"top", "end", "impact.S.count", "energy.residual.max_abs"} <= names
    assert {"early", "cross", "x", "impact.S.1.duration", "impact.S.2.start",
            "impact.S.2.speed"}.isdisjoint(names)
    assert {"impact.S.2.end", "impact.S.2.duration", "impact.S.2.max_force"} <= names


def test_an_unresolved_impacts_unmeasured_fields_say_why_they_have_no_value():
    from rocking_contact.post.references import mark_unmeasured

    impacts = [{"shock": "S", "index": 1, "resolved": False, "duration": math.nan},
               {"shock": "T", "index": 1, "resolved": True, "duration": math.nan}]
    checks = [{"quantity": q, "value": math.nan, "note": "not computed"}
              for q in ("impact.S.1.duration", "impact.S.max_abs_force",
                        "impact.T.1.duration", "impact.S.2.duration")]
    mark_unmeasured(checks, impacts)
    assert [c["note"].split(":")[0] for c in checks] == [
        "not measured", "not measured", "not computed", "not computed"]


def test_a_stopped_run_keeps_an_ended_unresolved_impacts_not_measured_note():
    """The fields an unresolved impact could not measure stay "not measured" when the run
    stops after that impact ended (a longer run would not measure them), while its shock's
    statistics, which measure the whole run, are "not reached"."""
    from rocking_contact.post.references import mark_not_reached, mark_unmeasured

    impacts = [{"shock": "S", "index": 1, "resolved": False, "complete": True}]
    checks = [{"quantity": q, "value": math.nan, "note": "not computed", "passed": None}
              for q in ("impact.S.1.duration", "impact.S.max_abs_force", "other")]
    mark_unmeasured(checks, impacts)
    mark_not_reached(checks, 0.4, 0.5, whole_run_quantities(
        [], [c["quantity"] for c in checks], impacts))
    assert [c["note"].split(":")[0] for c in checks] == [
        "not measured", "not reached", "not reached"]


PAST = ("not graded: the run goes past the case file's end t = 0.5 s, and this measures the "
        "whole run")


def test_a_longer_run_grades_its_impacts_but_not_the_count_and_largest_force(tmp_path):
    """sdnd101a to 1 s has a third impact: its count (3, the file's run 2) and largest
    force are the longer run's, shown without a pass mark; impacts 1 and 2 are graded as
    in the file's run, and the run passes (it failed on the count)."""
    long = rc.run(rc.load_case("sdnd101a", {"time.end": 1.0}), out=tmp_path / "l",
                  quiet=True, plots=False)
    assert long.quantities["impact.NO1.count"] == 3
    for name in ("impact.NO1.count", "impact.NO1.max_abs_force"):
        (check,) = _checks(long, name)
        assert check["passed"] is None and math.isfinite(check["value"])
        assert check["note"] == PAST
    graded = [c for c in long.checks if c["passed"] is not None]
    assert {c["quantity"].split(".")[2] for c in graded} == {"1", "2"}
    assert all(c["passed"] for c in graded) and long.passed


def test_past_the_end_only_the_whole_run_checks_lose_their_mark():
    """A value missing for a reason of its own keeps it; a check already not graded for
    another step keeps its note; a run that ends on the file's end is left as it is."""
    def checks():
        return [{"quantity": q, "value": v, "note": n, "passed": p} for q, v, n, p in (
            ("impact.S.count", 3.0, "", True), ("impact.S.std_max_force", math.nan,
             "not measured: the impact is unresolved", False),
            ("impact.S.max_abs_force", 1.0, "not graded: the value holds for a step", None),
            ("impact.S.1.start", 0.0, "", True))]
    whole = {"impact.S.count", "impact.S.std_max_force", "impact.S.max_abs_force"}
    marked = checks()
    mark_not_reached(marked, 0.6, 0.5, whole)
    assert [(c["passed"], c["note"]) for c in marked] == [
        (None, PAST), (None, f"not measured: the impact is unresolved; {PAST}"),
        (None, "not graded: the value holds for a step"), (True, "")]
    same = checks()
    mark_not_reached(same, 0.5 + 1e-12, 0.5, whole)
    assert same == checks()


def _copy(tmp_path: Path, end: float) -> Path:
    """sdnd101a.toml copied (not extended) with its own, earlier time.end."""
    text = Path(load_case("sdnd101a").source_file).read_text()
    assert "\nend = 0.5\n" in text
    copy = tmp_path / "copy.toml"
    copy.write_text(text.replace("\nend = 0.5\n", f"\nend = {end}\n"))
    return copy


def test_a_copy_ending_before_impact_2_says_the_run_had_one(tmp_path):
    """A copy of sdnd101a ending at 0.1 s reaches its own end after impact 1: references to
    impact 2 are well formed, have no value, and say how many impacts the run had."""
    result = rc.run(_copy(tmp_path, 0.1), out=tmp_path / "c", quiet=True, plots=False)
    second = [c for c in result.checks if c["quantity"].startswith("impact.NO1.2.")]
    assert len(second) == 7
    assert {c["note"] for c in second} == {"not computed: the run had 1 impact of NO1"}
    assert all(c["passed"] is not True for c in second)  # still misses: no value to grade
    # one warning says so, instead of one per reference with the close names of a typo
    assert [w for w in result.warnings if "impact" in w] == [
        "the run had 1 impact of shock NO1 (references to impact 2 have no value)"]


def test_a_child_running_past_its_parents_end_does_not_grade_the_count(tmp_path):
    """References inherited through `extends` describe the parent's span: a child that runs
    to 1.0 s (sdnd101a ends at 0.5 s) has a third impact they do not count."""
    child = tmp_path / "child.toml"
    child.write_text('extends = "sdnd101a"\n[case]\nname = "child"\n[time]\nend = 1.0\n')
    result = rc.run(rc.load_case(child), write=False, quiet=True)
    (count,) = _checks(result, "impact.NO1.count")
    assert result.quantities["impact.NO1.count"] == 3
    assert count["passed"] is None and count["note"].startswith("not graded: the run goes past")
    graded = [c for c in result.checks if c["passed"] is not None]
    assert graded and all(c["passed"] for c in graded)


def test_impacts_not_had_warnings_say_one_line_per_shock():
    impacts = [{"shock": "S", "index": 1}, {"shock": "T", "index": 1},
               {"shock": "T", "index": 2}]
    names = ["impact.S.2.max_force", "impact.S.3.start", "impact.S.1.start",
             "impact.T.3.speed", "impact.S.2.max_forc", "impact.U.2.start",
             "impact.S.count", "impact.S.02.start"]
    assert impacts_not_had_warnings(names, impacts) == {
        "impact.S.2.max_force": "the run had 1 impact of shock S (references to impacts "
                                "2, 3 have no value)",
        "impact.S.3.start": "the run had 1 impact of shock S (references to impacts 2, 3 "
                            "have no value)",
        "impact.T.3.speed": "the run had 2 impacts of shock T (references to impact 3 "
                            "have no value)"}
    checks = [{"quantity": n, "value": math.nan, "note": "not computed"} for n in names]
    mark_unmeasured(checks, impacts)
    assert [c["note"] for c in checks] == [
        "not computed: the run had 1 impact of S", "not computed: the run had 1 impact of S",
        "not computed", "not computed: the run had 2 impacts of T", "not computed",
        "not computed", "not computed", "not computed"]


def test_a_child_ending_before_its_parents_end_leaves_the_count_not_reached(tmp_path):
    """A child of sdnd101a ending at 0.2 s (its own end) has had 1 of the 2 impacts its
    inherited references count: the count is not reached, not a plain miss, while the
    first impact's own fields are graded."""
    child = tmp_path / "child.toml"
    child.write_text('extends = "sdnd101a"\n[case]\nname = "child"\n[time]\nend = 0.2\n')
    _assert_first_impact_only(rc.run(rc.load_case(child), write=False, quiet=True))


def test_a_run_that_stopped_says_so_in_the_notes_of_what_it_did_not_reach(tmp_path):
    """A failed or interrupted run's checks said "not reached: the run ends at t = ...",
    while its printed summary said "the run stopped at": results.json says it too (a
    longer time.end would not have reached them); a completed short run keeps "ends"."""
    from rocking_contact.post.grading import grade

    case = load_case("sdnd101a", {"time.end": 0.2})
    result = rc.run(case, out=tmp_path, quiet=True, plots=False)  # not the cwd's results/
    for status, word in [("failed: a solver failure", "stopped"),
                         ("interrupted at t = 0.2 s", "stopped"), ("completed", "ends")]:
        result.status = status
        notes = [c["note"] for c in grade(case, result).checks
                 if c["note"].startswith("not reached")]
        assert notes and all(n.startswith(f"not reached: the run {word} at t = 0.2 s")
                             for n in notes), (status, notes)


def test_a_run_stopped_before_any_impact_leaves_the_shock_statistics_not_reached(tmp_path):
    """sdnd101a at time.step 0.1 s fails at its first step (t = 0), before its first impact
    (as does one interrupted while its kernels compile): its impact count 0 and largest
    force 0 were graded, FAIL ('1.50e+00 outside'), beside 10 checks 'not reached'; the
    statistics of a shock without impacts measure the whole run too."""
    try:
        rc.run(rc.load_case("sdnd101a", {"time.step": 0.1}), out=tmp_path / "s", quiet=True,
               plots=False)
    except rc.SolverFailure as failure:
        stopped = failure.partial
    assert stopped.impacts == [] and stopped.quantities["impact.NO1.count"] == 0
    for name in ("impact.NO1.count", "impact.NO1.max_abs_force"):
        (check,) = _checks(stopped, name)
        assert check["passed"] is False and math.isnan(check["value"])
        assert check["note"] == ("not reached: the run stopped at t = 0 s, and this measures "
                                 "the whole run")
    assert whole_run_quantities([], ["impact.S.count", "impact.S.1.start", "impact.count"]) \
        == {"impact.S.count"}
