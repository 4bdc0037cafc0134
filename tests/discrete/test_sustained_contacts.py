"""A contact closed for the whole run (a preloaded friction pad, a mass resting on a floor
all along) is a sustained contact, not an impact: it is listed in
``extra.sustained_contacts``, has no impact, and does not use up the contact rows that
the other shocks' impacts are measured on (S27 U1 #8)."""

import pytest
from launch_case import FLOOR, launch_case, wall

import rocking_contact as rc
from rocking_contact.discrete import runner


@pytest.fixture
def launch(tmp_path):
    """The mass launched at a wall 5 cm away, sliding on the floor pad."""
    return launch_case(tmp_path, FLOOR, wall(0.05))


def run(path, *changes):
    return rc.run(rc.load_case(path, list(changes)), write=False, quiet=True)


def test_a_preloaded_pad_is_a_sustained_contact_not_an_impact(launch):
    result = run(launch)
    assert {i["shock"] for i in result.impacts} == {"WALL"}
    assert result.quantities["impact.FLOOR.count"] == 0
    assert result.quantities["impact.WALL.count"] == len(result.impacts) > 0
    assert result.extra["sustained_contacts"] == {"FLOOR": {
        "node": "M", "start": 0.0, "end": 1.0, "min_force": pytest.approx(98.1),
        "max_force": pytest.approx(98.1)}}
    assert list(result.extra["impact_statistics"]) == ["FLOOR", "WALL"]
    assert result.extra["impact_statistics"]["FLOOR"]["histogram"] == []


def test_a_pad_leaves_the_contact_rows_to_the_shocks_that_open(launch, monkeypatch):
    """Closed at every step, the pad had every step kept for the impacts: a thinned run
    ran out of contact values and measured the wall's impacts on rows 10 steps apart. Now
    the steps around the wall's contacts alone are kept, and its impacts are those of
    the run recorded at every step."""
    every_step = run(launch)
    monkeypatch.setattr(runner, "CONTACT_VALUES", 5000)  # 10001 steps x 7 values closed
    thinned = run(launch, "output.every=10")
    assert not [w for w in thinned.warnings if "too many steps" in w], thinned.warnings
    assert thinned.impacts == every_step.impacts
    assert thinned.extra["sustained_contacts"] == every_step.extra["sustained_contacts"]


def test_a_contact_that_could_open_and_never_does_is_sustained_too(launch):
    """A mass resting on a floor spring it could leave (DY free, under gravity): closed
    from the first row to the last, it is no impact; launched upward, it lifts off and
    lands, impacts."""
    resting = ["model.node[0].fixed=['DZ']", "model.gravity=[0, -9.81, 0]",
               "model.shock[0].gap=-0.001", "model.shock[0].kn=1e5",
               "model.shock[0].cn=1000"]
    result = run(launch, *resting)
    assert "FLOOR" in result.extra["sustained_contacts"]
    assert {i["shock"] for i in result.impacts} == {"WALL"}
    hopping = run(launch, *resting, "model.node[0].v0=[1.0, 1.0, 0.0]")
    assert "sustained_contacts" not in hopping.extra
    assert hopping.quantities["impact.FLOOR.count"] >= 1
