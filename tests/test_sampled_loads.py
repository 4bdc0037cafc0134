"""Loads a run's steps cannot see, and the discrete and rigid inputs the session-29 fuzz
audit (E1) found accepted or misworded: a sine of half a period a step or more is refused
as the case is loaded (its samples were all zero at 1e6 Hz: no load, exit 0, no warning),
one of fewer than ten samples a period is warned; a discrete spring from a node to itself
is refused; a record that starts after the run is not said to start "inside the run"; the
rigid block's table and friction warning keep their significant digits."""

from __future__ import annotations

import pytest

import rocking_contact as rc
from rocking_contact.analytic import rigid_cli
from rocking_contact.loads import TimeFunction, few_samples, held_values

SHAKING = "sdnv105d_shaking"  # a 2 Hz sine at 1e-4 s steps
SHAKING_X = "loading.table_acceleration_x"


def test_an_aliased_sine_of_the_block_is_refused_naming_its_frequency():
    """1e6 Hz at 1e-4 s: 0.01 samples a period, sin(2 pi 1e6 k 1e-4) = 0 at every step."""
    with pytest.raises(rc.CaseError) as refused:
        rc.load_case(SHAKING, [f"{SHAKING_X}.frequency=1e6"])
    message = str(refused.value)
    assert "sdnv105d_shaking.toml (with --set): loading.table_acceleration_x.frequency: " \
           "1e+06 Hz, sampled every time.step 0.0001 s, has 0.01 samples a period" in message
    assert "allowed: a frequency below 5000 Hz" in message


def test_a_step_given_after_the_sine_is_the_key_refused():
    """The rule binds the frequency and time.step: the one given last is named (the
    file's 2 Hz, then --set time.step=0.25: two samples a period, all at zeros)."""
    with pytest.raises(rc.CaseError) as refused:
        rc.load_case(SHAKING, ["time.step=0.25", "time.end=0.5"])
    message = str(refused.value)
    assert "(with --set): time.step: 0.25 s samples the sine of " \
           "loading.table_acceleration_x (2 Hz) with 2 samples a period, at most 2" in message
    assert "allowed: a step below 0.25 s" in message


def test_an_aliased_support_sine_of_a_discrete_case_is_refused():
    with pytest.raises(rc.CaseError, match=r"sdnd102c\.toml \(with --set\): "
                       r"model\.support\.acceleration\.frequency: 1e\+06 Hz"):
        rc.load_case("sdnd102c", ["model.support.acceleration.frequency=1e6"])


def test_an_aliased_sine_of_the_rigid_block_is_refused():
    with pytest.raises(rc.CaseError, match=r"loading\.table_acceleration_x\.frequency: "
                                           r"1e\+06 Hz, sampled every time\.step 0\.0005 s"):
        rc.load_case("sdnv105_rigid",
                     [f'{SHAKING_X}={{type="sine",amplitude=6.0,frequency=1e6}}'])


def test_an_aliased_sine_set_after_loading_is_refused_by_run(tmp_path):
    case = rc.load_case("sdnd102c")
    case.model.support.acceleration.frequency = 1e6
    with pytest.raises(rc.CaseError, match=r"model\.support\.acceleration\.frequency: "):
        rc.run(case, out=tmp_path, quiet=True, plots=False)


def test_the_shipped_sines_are_neither_refused_nor_warned():
    for name, key in ((SHAKING, SHAKING_X), ("sdnd102c", "model.support.acceleration")):
        case = rc.load_case(name)
        function = case.loading.table_acceleration_x if name == SHAKING else \
            case.model.support.acceleration
        assert function.type == "sine"
        assert function.aliasing(key, case.time.step) is None
        assert few_samples(function, key, case.time.step) == []


def test_a_sine_of_few_samples_a_period_is_warned():
    f = TimeFunction(type="sine", amplitude=1.0, frequency=200.0)
    assert few_samples(f, "k", 1e-3) == [
        "k: a sine of 200 Hz sampled every time.step 0.001 s has 5 samples a period, fewer "
        "than 10: the run sees its peaks cut and its phase shifted (a step <= 0.0005 s "
        "gives 10)"]
    assert few_samples(f, "k", 5e-4) == []  # 10 samples a period
    assert few_samples(TimeFunction(), "k", 1.0) == []


def test_a_discrete_run_warns_of_a_support_sine_of_few_samples(tmp_path):
    case = rc.load_case("sdnd102c", {"model.support.acceleration.frequency": 200.0})
    result = rc.run(case, out=tmp_path, quiet=True, plots=False)
    assert any(w.startswith("model.support.acceleration: a sine of 200 Hz sampled every "
                            "time.step 0.001 s has 5 samples a period") for w in result.warnings)


def test_a_rigid_run_warns_that_its_history_shows_a_sine_of_few_samples(tmp_path):
    case = rc.load_case("sdnv105_rigid", {
        SHAKING_X: {"type": "sine", "amplitude": 6.0, "frequency": 300.0}, "time.end": 0.01})
    result = rc.run(case, out=tmp_path, quiet=True, plots=False)
    said = [w for w in result.warnings if "samples a period" in w]
    assert said == ["loading.table_acceleration_x: a sine of 300 Hz sampled every time.step "
                    "0.0005 s has 6.67 samples a period, fewer than 10: the history shows its "
                    "peaks cut and its phase shifted (the integration resolves it with steps "
                    "of its own) (a step <= 0.000333333 s gives 10)"]


def test_a_spring_from_a_node_to_itself_is_refused():
    with pytest.raises(rc.CaseError) as refused:
        rc.load_case("sdnd102c", ['model.spring.0.nodes=["NO2","NO2"]'])
    assert str(refused.value).endswith(
        "sdnd102c.toml (with --set): model.spring[0].nodes: ['NO2', 'NO2'] joins 'NO2' to "
        "itself, and no motion stretches it; allowed: two distinct nodes, or one (a spring "
        "to ground)")


def test_a_record_after_the_run_is_said_never_reached():
    record = TimeFunction(type="table", times=[0.5, 1.0], values=[2.0, 0.0])
    assert held_values(record, "k", 0.0, 0.05) == [
        "k: the record starts at t = 0.5 s, after the run [0, 0.05] s ends: the run never "
        "reaches it, and its first value, 2 m/s^2, is held over the whole run (add a row "
        "'t, 0' there to keep it at zero)"]
    before = TimeFunction(type="table", times=[0.0, 0.1], values=[0.0, 3.0])
    assert held_values(before, "k", 0.2, 0.3) == [
        "k: the record ends at t = 0.1 s, before the run [0.2, 0.3] s starts: the run never "
        "reaches it, and its last value, 3 m/s^2, is held over the whole run (add a row "
        "'t, 0' there to keep it at zero)"]
    inside = TimeFunction(type="table", times=[0.01, 0.02], values=[1.0, 0.0])
    assert held_values(inside, "k", 0.0, 0.05)[0].startswith(
        "k: the record starts at t = 0.01 s, inside the run [0, 0.05] s: its value there, "
        "1 m/s^2, is held before it")


def test_the_rigid_tables_keep_significant_digits_of_tiny_values():
    """A block of 1e-9 kg/m^3 has 5e-12 J before impact 1: '.6f' printed 0.000000."""
    impact = {"time": 0.05441079, "kinetic_energy": 5.028914e-12, "corner": "A",
              "vy_before": -0.132827, "percussion_y": 1.5e-10}
    levels = {"nonlinear": {"impacts": [impact], "lifts": [{}, {"height": 2.001e-3}]}}
    assert "0.05441079  5.028914e-12" in rigid_cli.impact_table(levels, 1)
    assert "-0.132827  1.5000e-10  2.0010" in rigid_cli.percussion_table(levels, 1)


def test_the_friction_ratio_at_a_vanishing_normal_force_is_in_significant_digits(tmp_path):
    """Shaken at 9999 m/s^2 the pivot's RN vanishes: the ratio read 106442861881684.1875."""
    case = rc.load_case("sdnv105_rigid", {
        SHAKING_X: {"type": "sine", "amplitude": 9999.0, "frequency": 2.0},
        "preload.angle": 0.0})
    result = rc.run(case, out=tmp_path, quiet=True, plots=False)
    said = [w for w in result.warnings if w.startswith("|RX|/RN reaches ")]
    assert len(said) == 1
    ratio = said[0].removeprefix("|RX|/RN reaches ").split(" ")[0]
    assert "e+" in ratio and len(ratio) <= len("1.064e+14"), said


def test_the_rigid_twin_of_a_sine_its_base_step_would_alias_takes_the_blocks_step():
    """sdnv105_rigid's rows are 5e-4 s apart: the twin of a block shaken at 1000 Hz (1e-4
    s steps, accepted) was refused as aliased; at 2 Hz it keeps its base's step."""
    from rocking_contact.analytic.rigid_runner import rigid_twin

    fast = rc.load_case(SHAKING, {f"{SHAKING_X}.frequency": 1000.0, "time.end": 0.02})
    assert rigid_twin(fast).time.step == fast.time.step == 1e-4
    assert rigid_twin(rc.load_case(SHAKING, {"time.end": 0.02})).time.step == 5e-4
