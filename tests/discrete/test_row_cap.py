"""The discrete kind's cap on its history rows is config's (MAX_ROWS, row_count_problem),
the rigid kind's check too: one cap and one line, where discrete/case.py kept its own
MAX_ROWS and wrote the line again."""

import pytest

import rocking_contact as rc
from rocking_contact.config import sections


def test_the_discrete_kind_is_refused_by_the_config_cap(monkeypatch):
    """sdnd101a's 1000 steps of 5e-4 s, a row at each, under a cap of 100 rows: refused
    with the discrete kind's line, output.every named; every 11 steps (92 rows) it loads.
    Before, config's cap did not reach the discrete kind (its own 1e7 held): it loaded."""
    monkeypatch.setattr(sections, "MAX_ROWS", 100)
    with pytest.raises(rc.CaseError) as info:
        rc.load_case("sdnd101a")
    assert str(info.value).endswith(
        "output.every: got 1, allowed: >= 11 for this run (1e+03 steps of time.step 0.0005 s "
        "to time.end 0.5 s: 1001 history rows; at most 1e+02)"), str(info.value)
    assert rc.load_case("sdnd101a", {"output.every": 11}).output.every == 11
