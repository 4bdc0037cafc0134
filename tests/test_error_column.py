"""The checks table's error column states the error as the tolerance measures it.

It printed the relative error for every check: SDNV105 A's collision-2 time, graded on a
band of half-width 0.0056 s around its centre (an absolute tolerance), read
"3.43e-02 ... 0.00560036 abs ok", a 3.4 % error passing a 0.56 % mark.
"""

import math

import pytest

from rocking_contact.config import Reference
from rocking_contact.post.references import (
    band_margin,
    compare,
    error_text,
    format_table,
    signed_error,
)

STEP = 5e-4  # s, the run's time step of the checks below


def checks_of(*references, values):
    """The checks ``compare`` makes of ``references`` for the quantities' ``values``."""
    return compare(references, values, step=STEP)


def ref(quantity, value, tolerance=None, kind="relative", **kw):
    return Reference(quantity=quantity, value=value, source="test", tolerance=tolerance,
                     tolerance_kind=kind, **kw)


def rows(checks):
    """Table rows split on the two-space column gaps: quantity, reference, computed,
    error, tolerance, source, pass."""
    lines = format_table("x", checks).splitlines()
    assert lines[1].split() == ["quantity", "reference", "computed", "error", "tolerance",
                                "source", "pass"]
    return [[cell.strip() for cell in line.split("  ") if cell.strip()] for line in lines[3:]]


def test_a_band_check_shows_its_absolute_error_and_how_far_inside_the_band():
    """SDNV105 A's collision-2 and -3 times (cases/sdnv105a.toml: band centre, half-width)
    at the values of a run at 08f4ed8: t2 inside its band by 0.9 ms, t3 outside it."""
    t2 = ref("t2", 0.1367466693, 0.0056003607, "absolute")
    t3 = ref("t3", 0.1991525243, 0.0096490757, "absolute")
    checks = checks_of(t2, t3, values={"t2": 0.14144, "t3": 0.20899})
    assert [c["passed"] for c in checks] == [True, False]
    (_, _, _, e2, tol2, _, mark2), (_, _, _, e3, _, _, mark3) = rows(checks)
    assert e2 == "+4.69e-03 abs" and tol2 == "0.00560036 abs"
    assert mark2 == "ok, 9.07e-04 inside"  # 0.14144 is 0.000907 s below 0.142347
    assert e3 == "+9.84e-03 abs" and mark3 == "FAIL, 1.88e-04 outside"
    assert band_margin(checks[0]) == pytest.approx(0.142347 - 0.14144, abs=1e-6)
    assert band_margin(checks[1]) == pytest.approx(0.208802 - 0.20899, abs=1e-6)
    # results.json keeps the relative error, unsigned
    assert checks[0]["rel_error"] == pytest.approx(0.0343, rel=1e-2)


def test_a_relative_check_and_an_information_row_show_the_signed_relative_error():
    checks = checks_of(ref("f", 9950.37, 1e-3), ref("f", 9954.78),
                       values={"f": 9952.69})
    (*_, e1, tol1, _, mark1), (*_, e2, tol2, _, mark2) = rows(checks)
    assert e1 == "+2.33e-04 rel" and tol1 == "0.001 rel" and mark1 == "ok"
    assert e2 == "-2.10e-04 rel" and tol2 == "info" and mark2 == "-"
    assert signed_error(checks[1]) == (pytest.approx(-checks[1]["rel_error"]), "rel")


def test_a_check_in_steps_shows_the_error_in_time_steps():
    """sdnd101a's t_max: 0.0155 s for pi / (2 wc) = 0.01563 s, within 1 step of 0.5 ms."""
    checks = checks_of(ref("t", 0.01563000763406166, 1.0, "steps"),
                       ref("u", 0.01563000763406166, 0.2, "steps"),
                       values={"t": 0.0155, "u": 0.0155})
    (*_, e1, tol1, _, mark1), (*_, e2, tol2, _, mark2) = rows(checks)
    assert e1 == "-0.26 steps" and tol1 == "1 step" and mark1 == "ok"
    assert e2 == "-0.26 steps" and tol2 == "0.2 steps" and mark2 == "FAIL"
    one_step_late = {**checks[0], "value": checks[0]["reference"] + STEP}
    assert error_text(one_step_late) == "+1 step"


def test_the_error_without_a_measure_of_its_tolerance():
    """A reference 0 has no relative error: the absolute one stands for it (the table
    printed "—" for SDNV105 A's no-penetration values). A check in steps whose step is not
    known (not graded at the run's step: no abs_tolerance) shows the relative error. No
    value: "—", and no band."""
    zero, other_step = ref("z", 0.0), ref("s", 0.02, 1.0, "steps", step=1e-4)
    band = ref("b", 1.0, 0.1, "absolute")
    checks = checks_of(zero, other_step, band, values={"z": -2.56e-10, "s": 0.0201})
    assert checks[1]["passed"] is None and checks[2]["passed"] is False
    (*_, e1, _, _, _), (*_, e2, _, _, _), (*_, e3, _, _, mark3) = rows(checks)
    assert e1 == "-2.56e-10 abs" and e2 == "+5.00e-03 rel"
    assert e3 == "—" and mark3 == "FAIL" and band_margin(checks[2]) is None
    loaded = {**checks[0], "value": None}  # results.json's null, as the report reads it
    assert error_text(loaded, "missing") == "missing"
    assert math.isnan(signed_error({"reference": None, "value": 1.0})[0])


def test_the_pass_marks_are_the_checks_verdicts():
    """The column of pass marks still says what ``passed`` says, for every kind: the text
    of the error column decides nothing."""
    references = [ref("a", 1.0, 0.01), ref("a", 1.0), ref("b", 2.0, 0.5, "absolute"),
                  ref("b", 2.0, 0.2, "absolute"), ref("c", 0.01, 1.0, "steps"),
                  ref("c", 0.01, 0.5, "steps")]
    checks = checks_of(*references, values={"a": 1.005, "b": 2.3, "c": 0.0103})
    assert [c["passed"] for c in checks] == [True, None, True, False, True, False]
    marks = [r[-1].split(",")[0] for r in rows(checks)]
    assert marks == ["ok", "-", "ok", "FAIL", "ok", "FAIL"]
