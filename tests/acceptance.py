"""Grading a run against its case file's pass marks: all of them, or all but a list of
known misses; and the case files' references, read rather than typed again
(:func:`case_reference`, :func:`within`). Shared by every area (tests/conftest.py puts
tests/ on the path)."""

import rocking_contact as rc


def graded_misses(result) -> tuple[set[str], str]:
    """The quantities whose graded checks fail, and the table of every graded check."""
    graded = [c for c in result.checks if c["passed"] is not None]
    failed = {c["quantity"] for c in graded if not c["passed"]}
    return failed, rc.format_table(result.case, graded)


def assert_misses_are(result, known: dict[str, str], *, unreached: bool = False) -> None:
    """Exactly the ``known`` checks fail: a new miss, or a known one that now passes, fails
    (so that the list of misses, the docs and the code stay in step). ``unreached``: as for
    :func:`assert_all_pass`."""
    failed, table = graded_misses(result)
    if unreached:
        failed -= {c["quantity"] for c in result.checks
                   if c["passed"] is not None and c["note"].startswith("not reached")}
    assert not failed - set(known), f"unexpected misses {sorted(failed - set(known))}\n{table}"
    assert not set(known) - failed, f"now passing: {sorted(set(known) - failed)}\n{table}"


def assert_all_pass(result, *, unreached: bool = False) -> list[dict]:
    """Every graded check passes, and there is at least one; returns them. ``unreached``:
    a shortened run leaves out the checks of what it did not reach (their note says so:
    'not reached: the run ends at t = ...'), and only those."""
    graded = [c for c in result.checks if c["passed"] is not None]
    if unreached:
        graded = [c for c in graded if not c["note"].startswith("not reached")]
    table = rc.format_table(result.case, result.checks)
    assert graded, f"no graded reference\n{table}"
    assert all(c["passed"] for c in graded), table
    return graded


def case_reference(case, quantity: str, source: str = "", *, mark: float | None = None):
    """The one reference of ``quantity`` in ``case`` (a name, a path or a loaded case) whose
    source starts with ``source``. Tests read reference values and their tolerances from
    the case files, where each has its source, instead of typing them again. ``mark``: the
    issue's relative pass mark, which the reference's tolerance must be (so that a case file
    whose tolerance is loosened, or tightened, does not move the test silently with it)."""
    if not hasattr(case, "reference"):
        case = rc.load_case(case)
    found = [r for r in case.reference if r.quantity == quantity and r.source.startswith(source)]
    assert len(found) == 1, (case.case.name, quantity, source, found)
    if mark is not None:
        assert (found[0].tolerance, found[0].tolerance_kind) == (mark, "relative"), (
            case.case.name, quantity, found[0], mark)
    return found[0]


def within(value: float, reference, tolerance: float | None = None) -> bool:
    """``value`` within the relative ``tolerance`` of ``reference.value``: the reference's own
    tolerance unless one is given (then the test says where it comes from)."""
    if tolerance is None:
        assert reference.tolerance is not None and reference.tolerance_kind == "relative", (
            reference)
        tolerance = reference.tolerance
    return abs(value - reference.value) <= tolerance * abs(reference.value)
