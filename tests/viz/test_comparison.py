"""Which runs share the kinetic-energy comparison of a validation case."""

import numpy as np

from rocking_contact.viz.comparison import comparable_groups


def _run(case, tilt=None, pivot="O1", collisions=3):
    parameters = {"geometry": {"half_width": 0.18}} if tilt is not None else {}
    if tilt is not None:
        parameters["preload"] = {"tilt": tilt, "pivot": pivot}
    data = {"case": case, "parameters": parameters,
            "collisions": [{"index": k} for k in range(1, collisions + 1)]}
    return data, {"time": np.zeros(3), "EKIN_BLOCK": np.zeros(3)}


def test_runs_with_another_tilt_are_compared_apart():
    """A --set preload.tilt=0.02 run beside the shipped ones: its own figure, not theirs;
    B's pivot (O, against A's O1) does not matter, a result without parameters joins."""
    runs = [_run("sdnv105a", 0.01), _run("sdnv105b", 0.01, pivot="O"), _run("sdnv105_sample"),
            _run("sdnv105_rigid", 0.02), _run("sdnv105d", 0.02), _run("sdnv105c", 0.01),
            _run("sdnv105e", 0.03), _run("sdnd101a", 0.01), _run("sdnv105f", 0.01, collisions=1)]
    groups = comparable_groups(runs)
    names = {k: [d["case"] for d, _ in v] for k, v in groups.items()}
    assert names == {"sdnv105": ["sdnv105a", "sdnv105b", "sdnv105_sample", "sdnv105c"],
                     "sdnv105_tilt0.02": ["sdnv105_rigid", "sdnv105d"]}
