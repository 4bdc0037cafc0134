"""Grading a run against its case file's pass marks, with a list of known misses."""

import rocking_contact as rc


def graded_misses(result) -> tuple[set[str], str]:
    """The quantities whose graded checks fail, and the table of every graded check."""
    graded = [c for c in result.checks if c["passed"] is not None]
    failed = {c["quantity"] for c in graded if not c["passed"]}
    return failed, rc.format_table(result.case, graded)


def assert_misses_are(result, known: dict[str, str]) -> None:
    """Exactly the ``known`` checks fail: a new miss, or a known one that now passes, fails
    (so that the list of misses, the docs and the code stay in step)."""
    failed, table = graded_misses(result)
    assert not failed - set(known), f"unexpected misses {sorted(failed - set(known))}\n{table}"
    assert not set(known) - failed, f"now passing: {sorted(set(known) - failed)}\n{table}"
