"""Full SDNV105 A, B, C runs on the Code_Aster mesh and on the finer one (slow): the issue's
acceptance, check by check, against the references of the case files.

The acceptance is not met everywhere. The misses are listed here with their reason
(docs/contact.md tells the whole story): a check listed that starts passing, or a check not
listed that fails, makes the test fail, so that the list, the docs and the code agree.
"""

from pathlib import Path

import pytest
from acceptance import assert_misses_are

import rocking_contact as rc

pytestmark = pytest.mark.slow

VARIANTS = Path(rc.__file__).resolve().parent.parent / "cases" / "variants"
RUNS = {
    ("a", "coarse"): "sdnv105a", ("b", "coarse"): "sdnv105b", ("c", "coarse"): "sdnv105c",
    ("a", "fine"): VARIANTS / "sdnv105a_fine.toml",
    ("b", "fine"): VARIANTS / "sdnv105b_fine.toml",
    ("c", "fine"): VARIANTS / "sdnv105c_fine.toml",
    ("a", "auto"): VARIANTS / "sdnv105a_auto.toml",
}

RELEASE = ("release: the elastic block's corner force starts from the static reaction "
           "(M g, +14.5 %) and RX takes the pivot's horizontal force in one step")
BAND = ("the elastic impacts keep more energy than the recalage (as Code_Aster's own run, "
        "which leaves the band from collision 3 on)")
RINGING = ("release transient: the spring under O starts from the static reaction (4097 N) "
           "and the block rings on the 3e10 N/m springs (normal and anchor) for ~2 ms")
LATE = ("impact 2 keeps less energy than Code_Aster's B (E3 / E2 0.497 against 0.537): the "
        "later flights are shorter than the rigid ones, as Code_Aster's (-1.9 %, -2.9 %) "
        "but more")

# A's fourth and fifth energy peaks move with the CPU and the OpenBLAS kernels (the impacts
# amplify round-off; docs/contact.md, "Which kernels"), but since the table is loaded before
# the release (d93066d) every measured machine and kernel set keeps them inside the band
# (ends 1.8463 J and 1.1523 J): A 1.7705 to 1.8017 J and 1.0462 to 1.1281 J, A auto 1.7702
# to 1.8012 J and 1.0816 to 1.1464 J (Intel Xeon and AMD EPYC, Haswell and SkylakeX, and the
# AMD EPYC's own mix of Zen, SkylakeX and Cooperlake). They
# are graded as every other check: a miss there fails the test.
FINE_MISSES = {"rn_max_O": RELEASE, "rx_min_O": RELEASE,
               **{f"collision.{k}.{f}": BAND for k in range(2, 6)
                  for f in ("time", "kinetic_energy")}}
KNOWN_MISSES: dict[tuple[str, str], dict[str, str]] = {
    ("a", "coarse"): {"rn_max_O": RELEASE, "rx_min_O": RELEASE, "collision.3.time": BAND,
                      "collision.4.time": BAND, "collision.5.time": BAND},
    ("c", "coarse"): {"rn_max_O": RELEASE, "rx_min_O": RELEASE, "collision.3.time": BAND,
                      "collision.4.time": BAND, "collision.5.time": BAND},
    ("b", "coarse"): {"rn_max_O": RINGING, "rx_min_O": RINGING, "collision.4.time": LATE,
                      "collision.5.time": LATE},
    ("a", "auto"): {"rn_max_O": RELEASE, "rx_min_O": RELEASE, "collision.3.time": BAND,
                    "collision.4.time": BAND, "collision.5.time": BAND},
    ("a", "fine"): FINE_MISSES,
    ("c", "fine"): FINE_MISSES,
    ("b", "fine"): {"rn_max_O": RINGING, "rx_min_O": RINGING, "collision.5.time": LATE},
}


@pytest.fixture(scope="module")
def results():
    return {}


def _run(results, key):
    if key not in results:
        results[key] = rc.run(rc.load_case(RUNS[key]), write=False, plots=False, quiet=True)
    return results[key]


@pytest.mark.parametrize("key", list(RUNS), ids=lambda k: "-".join(k))
def test_acceptance(results, key):
    result = _run(results, key)
    assert result.status == "completed", result.status
    assert len(result.collisions) == 5
    # A collision whose window maximum is no peak (on a bound, or the previous collision
    # again) has no quantities: its checks are "not computed", misses.
    assert_misses_are(result, KNOWN_MISSES[key])
    # No step needs the springs' fallback (tests/contact/test_penalty.py forces one), and no
    # warning: no energy created by the steps.
    assert result.timing["fallback_steps"] == 0, result.extra.get("fallback_steps")
    assert not result.warnings, result.warnings
    if key in (("a", "coarse"), ("c", "coarse")):
        # Code_Aster's windows hold every contact change: the net is idle. (B's third impact
        # comes 1 ms before Code_Aster's third window opens: the net takes it.)
        assert result.timing["refined_steps"] == 0


@pytest.mark.parametrize("name", ["sdnv105a", "sdnv105c"])
def test_a_perturbed_release_creates_no_energy(name):
    """Tilt 0.009999 rad: impacts shift against the windows; without the refinement the
    block gained energy (A: 5.4 J at 0.285 s, C: 53.6 J at 0.32 s), with it the block's
    total energy never exceeds the released one (docs/contact.md, "Sensitivity")."""
    result = rc.run(rc.load_case(name, {"preload.tilt": 0.009999}), write=False, plots=False,
                    quiet=True)
    assert result.status == "completed"
    assert result.quantities["energy.rise.max"] <= 1e-3, result.quantities["energy.rise.max"]
    assert result.timing["refined_steps"] >= 1
    # A changed tilt takes the collisions at the landings (the case's windows were placed
    # at its own impacts): five at least, each a kinetic-energy peak inside its span (no
    # collision at all passed this before). A sixth landing before the end is the CPU's:
    # C's comes at 0.32887 s on an AMD EPYC (family 25, model 17), after 0.33 s on the
    # Intel Xeon; A's after 0.33 s on both.
    times = [c["time"] for c in result.collisions]
    assert len(times) >= 5 and all(c["interior"] for c in result.collisions), times
    assert times == sorted(times), times


@pytest.mark.parametrize("mesh", ["coarse", "fine"])
def test_lagrange_and_continuous_agree_on_the_collision_instants(results, mesh):
    """A and C within 1% on t1..t5 (the issue)."""
    a, c = _run(results, ("a", mesh)), _run(results, ("c", mesh))
    for ca, cc in zip(a.collisions, c.collisions, strict=True):
        assert cc["time"] == pytest.approx(ca["time"], rel=0.01), (ca, cc)
