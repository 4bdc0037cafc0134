"""The report's view "just after the first impact" shows the block back on the table."""

import numpy as np
import pytest

from rocking_contact.report.figures import view_instants

#: SDNV105 A's field outputs, every 2.5 ms to 0.08 s
OUTPUTS = np.round(np.arange(0.0, 0.0801, 0.0025), 10)


def _history():
    """SDNV105 A's reactions around impact 1 (collision at 0.05441 s): the pivot O
    carries the block until then, the impact's spikes on A at 0.05442 and 0.05452 s, the
    block in the air to 0.056 s, then on A."""
    t = np.round(np.concatenate([np.arange(0.0, 0.0544, 0.0025), np.arange(
        0.05441, 0.0560, 1e-5), np.arange(0.0575, 0.0801, 0.0025)]), 10)
    rn_o = np.where(t <= 0.05441, 3556.5, 0.0)
    rn_a = np.where(t >= 0.0575, 3568.7, 0.0)
    rn_a[np.isin(t, [0.05442, 0.05452])] = [3922326.5, 52507.7]
    return {"time": t, "RN_O": rn_o, "RN_A": rn_a, "RX_A": 0.0 * t}


def test_the_impact_view_waits_for_the_block_to_land():
    """At 0.055 s, the first output after the collision, every reaction of A, C and D was
    0: the picture showed the block in its hop."""
    data = {"collisions": [{"index": 1, "time": 0.05441, "interior": True}]}
    t, caption = view_instants(OUTPUTS, data, _history())["event"]
    assert t == pytest.approx(0.0575) and t in OUTPUTS
    assert caption.startswith("Just after the first impact: t = 0.0575 s")
    assert "on the table again" in caption
    # no reactions recorded: the first output after the collision, as before
    t, caption = view_instants(OUTPUTS, data)["event"]
    assert t == pytest.approx(0.055) and "on the table" not in caption
