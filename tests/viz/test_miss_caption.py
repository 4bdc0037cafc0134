"""The report's captions say what the plots mark: our failing graded extrema."""

import numpy as np

from rocking_contact.report.figures import MISSES_CAPTION, _referenced_components, caption


def _reactions(passed):
    t = np.linspace(0.0, 0.1, 41)
    history = {"time": t, "RN_O": 3590.0 - 100.0 * t, "THETA": 0.01 * t}
    specs = [{"name": "rn_max_O", "op": "max", "column": "RN_O", "window": [0.0, 0.05],
              "bounds": "closed"},
             {"name": "theta_end", "op": "final", "column": "THETA"}]
    checks = [{"quantity": "rn_max_O", "reference": 3579.25, "source": "analytic rigid",
               "passed": passed},
              {"quantity": "theta_end", "reference": 0.0, "source": "analytic rigid",
               "passed": False}]
    return {"case": "x", "kind": "block", "checks": checks,
            "parameters": {"quantity": specs}}, history


def test_the_caption_names_the_red_cross_where_a_graded_extremum_fails():
    """SDNV105 A's reactions mark RN_O's 4097 N at t = 0 in red; the caption said nothing
    of it."""
    data, history = _reactions(passed=False)
    referenced, missed = _referenced_components(data, history)
    assert referenced == {"RN", "THETA"} and missed == {"RN"}
    assert caption("reactions", data, history, referenced, missed).endswith(MISSES_CAPTION)
    # a failing final value is no extremum: no cross on the tilt's plot, none in its words
    assert MISSES_CAPTION not in caption("history_THETA", data, history, referenced, missed)
    data, history = _reactions(passed=True)
    referenced, missed = _referenced_components(data, history)
    assert not missed
    assert MISSES_CAPTION not in caption("reactions", data, history, referenced, missed)
