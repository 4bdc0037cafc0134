"""A run that stops before its case file's end does not grade what measures the whole run."""

import math

import rocking_contact as rc
from rocking_contact.config import QuantitySpec
from rocking_contact.post.references import whole_run_quantities


def _checks(result, quantity):
    return [c for c in result.checks if c["quantity"] == quantity]


def test_a_shortened_run_leaves_the_impact_count_and_largest_force_not_reached(tmp_path):
    """sdnd101a to 0.2 s has had its first impact only: its count (1 of 2) and largest
    force are not the run's; the first impact's own fields are graded as usual."""
    short = rc.run(rc.load_case("sdnd101a", {"time.end": 0.2}), out=tmp_path / "s",
                   quiet=True, plots=False)
    assert short.quantities["impact.NO1.count"] == 1  # kept in the results, not graded
    for name in ("impact.NO1.count", "impact.NO1.max_abs_force"):
        (check,) = _checks(short, name)
        assert check["passed"] is False and math.isnan(check["value"])
        assert check["note"] == ("not reached: the run ends at t = 0.2 s, and this "
                                 "measures the whole run")
    graded = [c for c in short.checks if c["quantity"].startswith("impact.NO1.1.")
              and c["passed"] is not None]
    assert graded and all(c["passed"] for c in graded)
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
