"""When the report's 3D views are taken (P1 audit #8: the "first collision" view showed
the block still falling, at the kinetic-energy maximum, blended between two outputs)."""

import numpy as np
import pytest

from rocking_contact.report.figures import view_instants

#: SDNV105 A's field outputs, every 2.5 ms to 0.06 s
OUTPUTS = np.round(np.arange(0.0, 0.0601, 0.0025), 10)


def test_the_event_view_is_the_first_output_after_the_first_collision():
    data = {"collisions": [{"index": 1, "time": 0.05441, "interior": True},
                           {"index": 2, "time": 0.14144, "interior": True}]}
    instants = view_instants(OUTPUTS, data)
    assert list(instants) == ["start", "event"]
    t, caption = instants["event"]
    assert t == pytest.approx(0.055) and t in OUTPUTS  # an output, not a blend of two
    assert caption.startswith("Just after the first impact: t = 0.055 s")
    assert "t = 0.05441 s" in caption
    assert instants["start"] == (0.0, "At the start of the run: t = 0 s.")


def test_a_collision_on_an_output_instant_is_pictured_after_it():
    """The maximum itself is before the impact's drop: the next output is taken."""
    instants = view_instants(OUTPUTS, {"collisions": [{"time": 0.05, "interior": True}]})
    assert instants["event"][0] == pytest.approx(0.0525)


def test_without_a_later_output_or_a_collision():
    """A collision after the last output: the end; a window maximum that is none is
    skipped; a discrete run's first impact at its largest force."""
    late = view_instants(OUTPUTS, {"collisions": [{"time": 0.0601, "interior": True}]})
    assert list(late) == ["start", "end"] and late["end"][0] == pytest.approx(0.06)
    none = {"collisions": [{"time": 0.03, "interior": False}],
            "impacts": [{"t_max": 0.0312}, {"t_max": 0.05}]}
    t, caption = view_instants(OUTPUTS, none)["event"]
    assert t == 0.0312 and caption == "At the first impact's largest force: t = 0.0312 s."
