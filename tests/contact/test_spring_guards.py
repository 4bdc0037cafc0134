"""The shock-spring guards (contact/springs) decide by the treatment's law, not its name, and
refuse springs that cannot hold the block up as the case loads, so that every command that
loads it refuses alike (S30 G2; A2's audit: a springs treatment registered under another
name got no refusal, no sink check and no watch; F1: the refusal was the runner's only).

SDNV105 B's block weighs M g = 4096.7 N; on three springs of 1e3 N/m it sinks at least
M g / 3e3 = 1.37 m, beyond 0.01 of its half-width b = 0.18 m (0.0018 m)."""

import subprocess
import sys
import typing

import pytest

import rocking_contact as rc
from rocking_contact.contact import spec
from rocking_contact.contact.springs import SINK_LIMIT, check_sink, has_springs
from rocking_contact.fem.runner import steps_remedy

SOFT = {f"contact.spring.{j}.normal_stiffness": 1e3 for j in range(3)}
SINKS = ("1000 N/m: the springs' normal stiffnesses sum to 3000 N/m, and the block's weight "
         "4096.7 N sinks them by at least 1.37 m, beyond 0.0018 m (0.01 of "
         "geometry.half_width = 0.18 m); allowed: a sum >= 2.28e+06 N/m")


@pytest.fixture
def copy_of_penalty(monkeypatch):
    """The penalty springs registered again as 'penalty_copy': its record in TREATMENT_INFO,
    its name in the schema's Literal and its keys in the schema's variants
    (tests/test_registry_names.py: the three that name a treatment)."""
    monkeypatch.setitem(spec.TREATMENT_INFO, "penalty_copy", spec.TREATMENT_INFO["penalty"])
    monkeypatch.setattr(spec, "Treatment",
                        typing.Literal[(*typing.get_args(spec.Treatment), "penalty_copy")])
    monkeypatch.setitem(spec.ContactSpec.VARIANTS["treatment"], "penalty_copy",
                        spec.TREATMENT_INFO["penalty"].keys)
    return "penalty_copy"


def test_a_springs_treatment_under_another_name_is_refused_as_penalty_is(copy_of_penalty):
    """A2 measured sdnv105b with its three springs at 1e3 N/m to 0.0025 s: refused under
    'penalty' (exit 2, 'sinks them by at least 1.37 m'), run to the end (exit 0) under a
    copy named 'penalty_copy', which has_springs tested by name."""
    refusals = {}
    for name in ("penalty", copy_of_penalty):
        with pytest.raises(rc.CaseError) as refused:
            rc.load_case("sdnv105b", {"contact.treatment": name, **SOFT})
        refusals[name] = (refused.value.key, refused.value.problem)
    assert refusals[copy_of_penalty] == refusals["penalty"] == (
        "contact.spring[0].normal_stiffness", SINKS)
    # as shipped, the copy loads, stands on springs and gets the springs' step advice
    shipped = rc.load_case("sdnv105b")
    copy = rc.load_case("sdnv105b", {"contact.treatment": copy_of_penalty})
    assert copy.contact.treatment == copy_of_penalty
    assert has_springs(copy) and has_springs(shipped)
    assert steps_remedy(copy) == steps_remedy(shipped)
    check_sink(copy)  # 4097 N on 9e10 N/m: 4.6e-8 m, nothing to refuse


def test_a_copy_run_watches_its_springs(copy_of_penalty):
    """The run of the copy takes the springs' guards: the release's sink stops it, as for
    'penalty' (O's spring alone soft, so that the sum loads; the weight on O sinks it
    4.1e9 m)."""
    messages = []
    for name in ("penalty", copy_of_penalty):
        case = rc.load_case("sdnv105b", {"contact.treatment": name, "time.end": 0.0005,
                                         "contact.spring.0.normal_stiffness": 1e-6})
        with pytest.raises(rc.SolverFailure) as failure:
            rc.run(case, write=False, plots=False, quiet=True)
        messages.append(str(failure.value))
    assert messages[0] == messages[1], messages
    assert messages[0].startswith("the preload released the block "), messages[0]


def test_a_block_without_springs_has_none_whatever_its_treatment():
    assert not has_springs(rc.load_case("sdnv105a"))
    assert not has_springs(rc.load_case("sdnv105_preload"))
    assert SINK_LIMIT * 0.18 == pytest.approx(0.0018)


@pytest.mark.parametrize("command", [
    ["run", "{case}", "--quiet", "--no-plots", "--out", "{out}"],
    ["validate", "{case}", "--quiet", "--no-plots", "--out", "{out}"],
    ["mesh", "{case}", "--out", "{out}.msh"],
    ["rigid", "{case}", "--quiet", "--no-plots", "--out", "{out}"]],
    ids=["run", "validate", "mesh", "rigid"])
def test_every_command_that_loads_the_case_refuses_it_alike(command, tmp_path):
    """One line naming the file and key, exit 2, nothing written (validate ran the shipped
    cases before it, mesh and rigid took the case: the refusal was the runner's). The
    springs are the file's (mesh takes no --set of contact keys)."""
    case = tmp_path / "soft.toml"
    springs = "".join(f"\n[[contact.spring]]\non = {on!r}\nnormal_stiffness = 1e3\n"
                      for on in ("O", "O1", "A"))
    case.write_text(f'extends = "sdnv105b"\n\n[time]\nend = 0.0025\n{springs}')
    out = tmp_path / "out"
    args = [a.format(case=case, out=out) for a in command]
    done = subprocess.run([sys.executable, "-m", "rocking_contact.cli", *args],
                          capture_output=True, text=True, check=False, timeout=300)
    assert done.returncode == 2, done.stderr
    errors = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "Traceback" not in done.stderr, done.stderr
    assert f"contact.spring[0].normal_stiffness: {SINKS}" in errors[0], errors[0]
    assert str(case) in errors[0], errors[0]
    assert sorted(tmp_path.iterdir()) == [case]
