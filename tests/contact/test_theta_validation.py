"""SDNV105 D over its whole history (slow): every pass mark of the issue on the 25-node
mesh with 1e-4 s and 5e-4 s steps, and on the 0.02 m mesh.

Some marks are missed; KNOWN_MISSES names them with the reason (docs/theta.md has the
numbers). Runs are shared by the tests of this module.
"""

from pathlib import Path

import pytest
from acceptance import assert_misses_are, case_reference, within

import rocking_contact as rc

pytestmark = pytest.mark.slow

CASES = Path(rc.__file__).resolve().parent.parent / "cases"
SOURCES = {"coarse": "sdnv105d", "step5e-4": CASES / "variants" / "sdnv105d_step5e-4.toml",
           "fine": CASES / "variants" / "sdnv105d_fine.toml"}

RIGID_T2 = ("LMGC90's second instant is 2.1% before the rigid block's (0.13520 s), ours is "
            "the rigid one to one step (0.1351 s): 2.04%")
SOFT_CORNERS = ("the 0.02 m mesh's corners are softer: each impact keeps 58% of the "
                "kinetic energy (rigid 55.9%), the later impacts come late")

PERCUSSION = ("the elastic corner lands over two 1e-4 s steps and hops off: 55.33 N.s "
              "(+13.55 % of the rigid 48.73 N.s), 55.74 N.s on the 0.02 m mesh")

KNOWN_MISSES: dict[str, dict[str, str]] = {
    "coarse": {"collision.2.time": RIGID_T2, "percussion_RN_base": PERCUSSION},
    "step5e-4": {},
    "fine": {"percussion_RN_base": PERCUSSION,
             "collision.2.time": SOFT_CORNERS, "collision.3.time": SOFT_CORNERS,
             "collision.4.time": SOFT_CORNERS, "collision.5.time": SOFT_CORNERS,
             "collision.2.kinetic_energy": SOFT_CORNERS,
             "collision.3.kinetic_energy": SOFT_CORNERS,
             "collision.4.kinetic_energy": SOFT_CORNERS},
}


@pytest.fixture(scope="module")
def runs():
    """``runs(key)``: the result of ``SOURCES[key]``, computed once for the module."""
    done = {}

    def get(key):
        if key not in done:
            done[key] = rc.run(rc.load_case(SOURCES[key]), write=False, plots=False,
                               quiet=True)
        return done[key]

    return get


@pytest.mark.parametrize("key", list(SOURCES))
def test_pass_marks(runs, key):
    result = runs(key)
    assert result.status == "completed", result.status
    assert [c["index"] for c in result.collisions if c["interior"]] == [1, 2, 3, 4, 5]
    assert_misses_are(result, KNOWN_MISSES[key])


def test_coarse_run_is_the_rigid_block_to_a_step(runs):
    """Against the rigid equations integrated exactly: instants within 0.25%, energies
    within 1% for the first four impacts (the theta-scheme's first-order error at impacts:
    the weight acts over the whole impact step)."""
    q = runs("coarse").quantities
    for k in range(1, 5):
        assert abs(q[f"rigid.nonlinear.collision.{k}.time_error"]) < 0.0025
        assert abs(q[f"rigid.nonlinear.collision.{k}.energy_error"]) < 0.01


def test_coarse_impacts_keep_the_rigid_share_of_energy(runs):
    """Peak to peak the block keeps e^2 = 0.5586 of its kinetic energy (rigid block)."""
    kept = case_reference("sdnv105_rigid", "energy_ratio", "analytic rigid, closed form")
    peaks = [c["kinetic_energy"] for c in runs("coarse").collisions]
    for before, after in zip(peaks, peaks[1:]):
        assert within(after / before, kept, 0.01), after / before


def test_steps_agree(runs):
    """5e-4 s steps give the 1e-4 s instants within 1% (the theta-scheme's coarse step)."""
    small, large = runs("coarse"), runs("step5e-4")
    for a, b in zip(small.collisions, large.collisions, strict=True):
        assert b["time"] == pytest.approx(a["time"], rel=0.01)
