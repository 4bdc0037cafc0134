"""The preload's checks on inputs that it cannot hold up, or that its checks misread (audit
E1 of session 29): shock springs too soft for the block's weight or pressed into the
ground, an elastic block's tilt short of the rigid one, tolerances below round-off, and
the energy a released state stores in its springs."""

import re
import subprocess
import sys

import numpy as np
import pytest

import rocking_contact as rc
from rocking_contact.block import release_angle
from rocking_contact.contact.springs import SINK_LIMIT
from rocking_contact.fem.overturn import Overturn, divergence
from rocking_contact.post.energy import released_store, rise_warning, summary

SOFT = 1e-6  # N/m: the audit's normal stiffness (the block sank 4.1e9 m, completed, rc 0)
SHORT = {"time.end": 0.0005}


def failure_of(case):
    """The failure of a run of ``case`` that stops (rc.SolverFailure) and its message."""
    with pytest.raises(rc.SolverFailure) as failure:
        rc.run(case, write=False, plots=False, quiet=True)
    return failure.value, str(failure.value)


def said(pattern, message):
    """The groups of ``pattern`` matching the start of ``message`` (the test fails if not)."""
    match = re.match(pattern, message)
    assert match is not None, message
    return match.groups()


def test_springs_too_soft_for_the_weight_are_refused_as_the_case_loads():
    """Three springs of 1e-6 N/m: the weight M g = 4096.7 N sinks them 1.37e9 m at least
    (M g / sum kn), known from the inputs: refused as the case loads, naming the softest
    spring's key (it ran to completion, the block 4.1e9 m under its supports; f528ea7
    refused it in the runner only, so that rc.load_case took it and validate ran the
    cases before it first)."""
    soft = {f"contact.spring.{j}.normal_stiffness": SOFT for j in range(3)}
    with pytest.raises(rc.CaseError) as refused:
        rc.load_case("sdnv105b", {**SHORT, **soft})
    assert refused.value.key == "contact.spring[0].normal_stiffness"
    problem = refused.value.problem
    assert problem == ("1e-06 N/m: the springs' normal stiffnesses sum to 3e-06 N/m, and the "
                       "block's weight 4096.7 N sinks them by at least 1.37e+09 m, beyond "
                       "0.0018 m (0.01 of geometry.half_width = 0.18 m); allowed: a sum >= "
                       "2.28e+06 N/m"), problem
    # changed on a loaded case, rc.run refuses it with the same words, before any mesh
    case = rc.load_case("sdnv105b", SHORT)
    for spring in case.contact.spring:
        spring.normal_stiffness = SOFT
    with pytest.raises(rc.CaseError) as again:
        rc.run(case, write=False, plots=False, quiet=True)
    assert (again.value.key, again.value.problem) == (refused.value.key, problem)
    # the least sum allowed is the weight over the limit, and it loads
    assert 4096.7 / (SINK_LIMIT * 0.18) == pytest.approx(2.28e6, rel=2e-3)
    rc.load_case("sdnv105b", {f"contact.spring.{j}.normal_stiffness": 7.6e5 for j in range(3)})
    # SDNV105 B as shipped: 4097 N on 3e10 N/m springs, 1.4e-7 m
    rc.load_case("sdnv105b")


def test_the_refusal_is_one_line_and_exit_2(tmp_path):
    """The CLI says it as every bad input: one line, the file and key, exit code 2."""
    done = subprocess.run(
        [sys.executable, "-m", "rocking_contact.cli", "run", "sdnv105b", "--out",
         str(tmp_path / "out"), "--quiet", "--no-plots", "--set", "time.end=0.0005",
         "--set", "contact.spring.0.gap=-1"], capture_output=True, text=True, check=False)
    assert done.returncode == 2, done.stderr
    errors = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "Traceback" not in done.stderr, done.stderr
    assert "contact.spring[0].gap: -1 m starts the spring at O 1 m deep in the ground, " \
           "beyond 0.0018 m" in errors[0]
    assert errors[0].endswith("allowed: >= -0.0018 m")


def test_one_soft_spring_under_the_pivot_stops_the_preload():
    """Only O's spring soft: the other two keep the summed stiffness, but the tilt puts the
    whole weight on O and the release lowered the block 4.1e9 m onto it; the run then
    "diverged ... use a smaller time.step" (rc 1, the wrong cause). It stops at the
    release, naming the spring, its stiffness and the sink, before any step."""
    case = rc.load_case("sdnv105b", {**SHORT, "contact.spring.0.normal_stiffness": SOFT})
    failure, message = failure_of(case)
    assert not isinstance(failure, rc.Diverged)
    groups = said(r"the preload released the block (\S+) m deep in its spring at O "
                  r"\(contact\.spring\.0\.normal_stiffness = 1e-06 N/m carrying (\S+) N, "
                  r"gap 0 m\), beyond 0\.0018 m \(0\.01 of geometry\.half_width\): the "
                  r"springs do not hold it up; a normal_stiffness >= (\S+) N/m does$", message)
    depth, force, least = (float(v) for v in groups)
    assert depth == pytest.approx(force / SOFT, rel=1e-3)
    assert force == pytest.approx(4096.7, rel=1e-3)  # the weight, on the pivot O
    assert least == pytest.approx(force / 0.0018, rel=1e-2)
    partial = failure.partial
    assert partial.status == f"failed: {message}" and not partial.history
    assert partial.timing["steps"] == 0 and partial.timing["preload_steps"] > 0


def history(etot, espring):
    """A block run's rows with total energy ``etot`` and the springs' store ``espring``
    (J), 25 us steps."""
    n = len(etot)
    return {"time": 2.5e-5 * np.arange(n), "DT": np.full(n, 2.5e-5),
            "ENERGY_RESIDUAL": np.zeros(n), "EKIN_BLOCK": np.linspace(0.0, 1.0, n),
            "EPOT_GRAV": np.full(n, 7.28), "ETOT": np.asarray(etot, dtype=float),
            "ESPRING": np.asarray(espring, dtype=float)}


STOP = Overturn(1.5e-4, "overturned", "its base turned by -0.47 rad, past atan(b/l) = "
                                      "0.422854 rad, where it topples")


def test_energy_the_springs_held_at_the_release_is_no_step_error():
    """gap = -1e-3 m on O's 3e10 N/m spring stores 1.5e4 J at the release, which the
    springs give the block: the total energy (springs' store left out) rose by 1.36e4 J and
    the run warned "the time steps created it ... use a smaller time.step". The rise the
    released store covers names the springs' gap and stiffness, with no advice on steps;
    the same rise without that store is still the steps'."""
    etot, espring = [7.28, 5e3, 1.36e4], [1.5e4, 1e4, 1.4e3]
    advice = "use a smaller time.step or time.refine.step"
    rows = history(etot, espring)
    assert released_store(rows) == 1.5e4
    stored = divergence(STOP, rows, advice)
    assert stored is not None and "smaller" not in stored and "diverged" not in stored
    assert stored.endswith("the springs held 1.5e+04 J in the released state (column "
                           "ESPRING at its first row), which they gave the block: check "
                           "contact.spring's gap (negative: pressed into the ground at the "
                           "release) and normal_stiffness"), stored
    assert "took the block off the model (its base turned by -0.47 rad" in stored
    warned = rise_warning(summary(rows), advice, released_store(rows))
    assert warned is not None and "smaller" not in warned and "ESPRING" in warned
    # the same rise from a store of 2.8e-4 J (SDNV105 B's weight on its springs)
    steps = history(etot, [2.8e-4, 1e4, 1.4e3])
    created = divergence(STOP, steps, advice)
    assert created is not None and created.startswith("the run diverged: its steps created")
    assert created.endswith(advice)
    assert rise_warning(summary(steps), advice, released_store(steps)).endswith(
        f"{advice} (docs/contact.md, 'Sensitivity')")


@pytest.mark.parametrize("kinematics", ["large_rotation", "small_strain"])
def test_a_soft_block_is_released_at_its_own_tilt(kinematics):
    """E = 1e8 Pa: the pull turns the elastic block 0.00961785 rad, 3.8 % short of the
    rigid 0.0100002 rad, with 1, 2, ... 64 steps alike; the preload refused it as a
    "spurious equilibrium" (every block softer than about 4e8 Pa). Reached again with twice
    the steps, it is the block's equilibrium: released there, with a warning of the
    shortfall and its cause; extra.preload.tilt_reached records it."""
    case = rc.load_case("sdnv105a", {**SHORT, "material.block.young": 1e8,
                                     "kinematics.type": kinematics})
    result = rc.run(case, write=False, plots=False, quiet=True)
    assert result.status == "completed"
    preload = result.extra["preload"]
    reached = preload["tilt_reached"]
    assert preload["tilt_steps"] == 2
    assert preload["tilt"]["THETA"] == pytest.approx(reached, rel=1e-6)
    assert 0.0095 < reached < 0.0099  # short of the rigid 0.01 by the compliance, ~1/E
    rigid = release_angle(case.geometry, case.preload, kinematics == "large_rotation")
    said = [w for w in result.warnings if w.startswith("the preload's tilt reached")]
    assert len(said) == 1, result.warnings
    assert said[0].startswith(
        f"the preload's tilt reached {reached:.6g} rad, not the rigid block's {rigid:.6g} "
        f"rad ({100 * (reached - rigid) / rigid:.3g}%), the same with 1 and 2 static steps: "
        "the elastic block deforms under the forces that hold it tilted (its weight on the "
        f"corner O, the pull at C1), which turns its base back by {rigid - reached:.4g} rad, "
        "about as much at any small tilt (as 1/material.block.young); the block is released "
        "there; preload.tilt = "), said
    assert said[0].endswith(f" releases it at about {rigid:.6g} rad")


def test_a_tilt_below_the_weights_rotation_is_that_rotation():
    """preload.tilt = 1e-9: the forces that hold the block tilted turn its base back by
    6.4e-8 rad, whatever the pull, to -6.3e-8 rad; every step count reached it, and the
    preload refused it. It is released there, the warning naming why and where the base
    stands (tests/fem/test_preload_messages.py: what it advises)."""
    result = rc.run(rc.load_case("sdnv105a", {**SHORT, "preload.tilt": 1e-9}),
                    write=False, plots=False, quiet=True)
    assert result.status == "completed"
    reached = result.extra["preload"]["tilt_reached"]
    assert -7e-8 < reached < -6e-8
    assert any(w.startswith(f"the preload's tilt reached {reached:.6g} rad, not the rigid "
                            "block's 1e-09 rad, the same with 1 and 2 static steps: the "
                            "elastic block deforms under the forces that hold it tilted")
               and "more than preload.tilt turns it forward" in w
               for w in result.warnings), result.warnings


def test_tolerances_below_round_off_are_named_and_steps_counted_in_their_phase():
    """rtol = 1e-16 with atol = 1e-300: a step that stops at the residual's round-off
    (the gravity step at ~5e-12 N, 1e-15 of its first residual, DIVERGED_MAX_IT) was said
    "step 4 ... over 1 step(s)" with no word of the tolerance. The message says the
    tolerance is below round-off, and a preload step is counted in its phase.

    Which step meets round-off first is the CPU's and its kernels' (measured: the Intel
    Xeon's gravity step after 5 halvings; on an AMD EPYC a halving or a stalled step
    accepted gets every step through, and without them its step 39 fails, or with the
    Haswell or Zen kernels the tilt's first). No halving and no stalled step accepted
    (solver.max_halvings = 0, solver.stagnation_rtol = 0) make the first such step the
    failure on every machine, whichever step it is."""
    case = rc.load_case("sdnv105a", {**SHORT, "solver.rtol": 1e-16, "solver.atol": 1e-300,
                                     "solver.stol": 1e-16, "solver.max_halvings": 0,
                                     "solver.stagnation_rtol": 0.0})
    message = failure_of(case)[1]
    assert re.match(r"step \d+ from (?:t = \S+ s|pseudo-time \S+) failed .* after 0 halvings "
                    r"\(residual \S+ N, DIVERGED_MAX_IT", message), message
    assert ("; solver.rtol = 1e-16 is below the residual's round-off (about 1e-15 of the "
            "forces) and solver.atol = 1e-300 N below the residual reached: no iteration can "
            "meet them; use solver.rtol >= 1e-14 or a solver.atol above the round-off"
            in message), message
    phase = re.match(r"step (\d+) from pseudo-time .*; preload (?:gravity|tilt), pseudo-time "
                     r"in \[0, 1\] in \d+ planned step\(s\)(?:, (\d+) halved step\(s\) "
                     r"accepted before it)?\)", message)
    if " from pseudo-time " in message.split(" failed ")[0]:
        assert phase is not None, message
        assert int(phase.group(1)) == int(phase.group(2) or 0) + 1


def test_a_tilt_step_that_fails_on_a_sagging_block_names_the_units():
    """E = 1e5 Pa: the block's top sinks 6.5 % of its height under its weight, and the
    tilt's step diverges (DIVERGED_DTOL at ~1e8 N) after every halving; the message gave no
    hint. It ends with the units question the tilt check asks of such a block."""
    message = failure_of(rc.load_case("sdnv105a", {**SHORT, "material.block.young": 1e5}))[1]
    assert "; preload tilt, pseudo-time in [0, 1] in " in message, message
    assert re.search(r"\); under its own weight the block's top sank \S+% of its height: are "
                     r"material\.block\.young \(Pa\), the densities \(kg/m\^3\) and the "
                     r"geometry \(m\) in SI units\?$", message), message
