"""Full SDNV105 D runs (slow): the issue's acceptance, check by check, on the Code_Aster
mesh at 1e-4 s and 5e-4 s and on the 0.02 m mesh at 1e-4 s.

The acceptance is not met everywhere. The misses are listed here with their reason
(docs/theta.md tells the whole story): a check listed that starts passing, or a check not
listed that fails, makes the test fail, so that the list, the docs and the code agree.
"""

from pathlib import Path

import pytest

import rocking_contact as rc

pytestmark = pytest.mark.slow

VARIANTS = Path(rc.__file__).resolve().parent.parent / "cases" / "variants"
RUNS = {
    "coarse": "sdnv105d",
    "step5e-4": VARIANTS / "sdnv105d_step5e-4.toml",
    "fine": VARIANTS / "sdnv105d_fine.toml",
}

RIGID_T2 = ("LMGC90's second instant is 2.1% before the rigid block's (0.13520 s), ours is "
            "the rigid one to one step (0.1351 s): 2.04%")
SOFT_CORNERS = ("the 0.02 m mesh's corners are softer: each impact keeps 58% of the "
                "kinetic energy (rigid 55.9%), the later impacts come late")


KNOWN_MISSES: dict[str, dict[str, str]] = {
    "coarse": {"collision.2.time": RIGID_T2},
    "step5e-4": {},
    "fine": {"collision.2.time": SOFT_CORNERS, "collision.3.time": SOFT_CORNERS,
             "collision.4.time": SOFT_CORNERS, "collision.5.time": SOFT_CORNERS,
             "collision.2.kinetic_energy": SOFT_CORNERS,
             "collision.3.kinetic_energy": SOFT_CORNERS,
             "collision.4.kinetic_energy": SOFT_CORNERS},
}


@pytest.fixture(scope="module")
def results():
    return {}


def _run(results, key):
    if key not in results:
        results[key] = rc.run(rc.load_case(RUNS[key]), write=False, plots=False, quiet=True)
    return results[key]


@pytest.mark.parametrize("key", list(RUNS))
def test_acceptance(results, key):
    result = _run(results, key)
    assert result.status == "completed", result.status
    assert len(result.collisions) == 5 and all(c["interior"] for c in result.collisions)
    graded = {c["quantity"]: c for c in result.checks if c["passed"] is not None}
    failed = {q for q, c in graded.items() if not c["passed"]}
    known = set(KNOWN_MISSES[key])
    table = rc.format_table(str(RUNS[key]), list(graded.values()))
    assert not failed - known, f"unexpected misses {sorted(failed - known)}\n{table}"
    assert not known - failed, f"now passing, update KNOWN_MISSES {sorted(known - failed)}"


def test_coarse_run_is_the_rigid_block_to_a_step(results):
    """Against the rigid equations integrated exactly: instants within 0.25%, energies
    within 1% for the first four impacts (the theta-scheme's first-order error at impacts:
    the weight acts over the whole impact step)."""
    result = _run(results, "coarse")
    q = result.quantities
    for k in range(1, 5):
        assert abs(q[f"rigid.nonlinear.collision.{k}.time_error"]) < 0.0025
        assert abs(q[f"rigid.nonlinear.collision.{k}.energy_error"]) < 0.01


def test_coarse_impacts_keep_the_rigid_share_of_energy(results):
    """Peak to peak the block keeps e^2 = 0.5586 of its kinetic energy (rigid block)."""
    peaks = [c["kinetic_energy"] for c in _run(results, "coarse").collisions]
    for before, after in zip(peaks, peaks[1:]):
        assert after / before == pytest.approx(0.5586, rel=0.01)


def test_steps_agree(results):
    """5e-4 s steps give the 1e-4 s instants within 1% (the theta-scheme's coarse step)."""
    fine, coarse = _run(results, "coarse"), _run(results, "step5e-4")
    for a, b in zip(fine.collisions, coarse.collisions, strict=True):
        assert b["time"] == pytest.approx(a["time"], rel=0.01)
