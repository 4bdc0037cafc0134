"""results.json ``extra.unread``: the keys of ``parameters`` that the run's variants do not
read (:func:`rocking_contact.config.unread_keys`, the walk over ``VARIANTS`` that refuses
such a key when it is given), for SDNV105 A (Lagrange, alpha windows), B (penalty springs)
and D (theta).

The lists come from the loaded case. What the run reads is measured, not declared: the
contact keys by recording the reads of ``case.contact`` during a short run (outside the
case machinery of rocking_contact/config and the standard library's dataclasses, which
read every key to write ``parameters``); the scheme and refinement keys by the schemes the
run steps with (``fem.runner.time_steps``, ``refinement``), which a key in the list does
not change and a key the run reads does.
"""

import copy
import dataclasses
import sys
from pathlib import Path

import pytest

import rocking_contact as rc
from rocking_contact.config import as_dict, load_case, unread_keys

#: keys each case's variants do not read, as measured on short runs at 08f4ed8
IGNORED = {
    "sdnv105a": {"scheme.beta", "scheme.gamma", "scheme.theta", "contact.restitution",
                 "contact.spring"},
    "sdnv105b": {"scheme.beta", "scheme.gamma", "scheme.theta", "contact.closed_gap",
                 "contact.tolerance", "contact.max_iterations", "contact.augmentation_normal",
                 "contact.augmentation_tangential", "contact.search_distance"},
    "sdnv105d": {"scheme.beta", "scheme.gamma", "scheme.alpha", "contact.search_distance",
                 "contact.gap_tolerance", "contact.augmentation_normal",
                 "contact.augmentation_tangential", "time.refine.step", "time.refine.alpha",
                 "time.refine.hold"},
}
#: a key of each case that its steps read: changing it changes them (the check has teeth)
STEPS_READ = {"sdnv105a": ("scheme.alpha", -0.05), "sdnv105b": ("scheme.alpha", -0.05),
              "sdnv105d": ("scheme.theta", 0.7)}
#: the code whose reads are no use of a key by the run: the case's own machinery (loading,
#: validation, as_dict for ``parameters``) and the standard library
_NOT_THE_RUN = (str(Path(rc.__file__).parent / "config"), str(Path(dataclasses.__file__).parent))


def _flat(params, prefix=""):
    keys = set()
    for key, value in params.items():
        path = f"{prefix}.{key}" if prefix else key
        keys.add(path)
        if isinstance(value, dict):
            keys |= _flat(value, path)
    return keys


@pytest.mark.parametrize("name", sorted(IGNORED))
def test_the_list_holds_the_keys_the_variant_ignores(name):
    case = load_case(name)
    unread = unread_keys(case)
    assert unread == sorted(set(unread))
    assert IGNORED[name] <= set(unread), IGNORED[name] - set(unread)
    assert set(unread) <= _flat(as_dict(case))  # keys of results.json parameters


def _recording(obj, prefix, reads):
    """A copy of the schema table ``obj`` that adds to ``reads`` the dotted key of each of
    its keys the run reads."""
    names = {f.name for f in dataclasses.fields(obj)}

    def __getattribute__(self, name):
        if name in names and not sys._getframe(1).f_code.co_filename.startswith(_NOT_THE_RUN):
            reads.add(f"{prefix}.{name}")
        return object.__getattribute__(self, name)

    cls = type(type(obj).__name__, (type(obj),), {"__getattribute__": __getattribute__})
    return cls(**{name: getattr(obj, name) for name in names})


@pytest.mark.parametrize("name", sorted(IGNORED))
def test_the_run_reads_no_contact_key_of_the_list(name):
    from rocking_contact.fem import runner

    case = load_case(name, {"time.end": 5e-4})
    unread = set(unread_keys(case))
    reads: set[str] = set()
    object.__setattr__(case, "contact", _recording(case.contact, "contact", reads))
    result = runner.run(case)
    assert result.status == "completed"
    assert reads and "contact.mu" in reads  # the recording sees the treatment's reads
    contact_unread = {k for k in unread if k.startswith("contact.")}
    assert contact_unread and not reads & contact_unread, reads & contact_unread


def _steps(case):
    from rocking_contact.fem.runner import refinement, time_steps

    return list(time_steps(case)), refinement(case)


def _other_value(value):
    return not value if isinstance(value, bool) else value * 0.9 if value else 0.1


@pytest.mark.parametrize("name", sorted(IGNORED))
def test_the_steps_read_no_scheme_or_refinement_key_of_the_list(name):
    case = load_case(name)
    steps = _steps(case)
    listed = [k for k in unread_keys(case) if k.startswith(("scheme.", "time."))]
    assert listed
    for key in listed:
        changed = copy.deepcopy(case)
        *tables, field = key.split(".")
        table = changed
        for t in tables:
            table = getattr(table, t)
        setattr(table, field, _other_value(getattr(table, field)))
        assert _steps(changed) == steps, key
    key, value = STEPS_READ[name]
    assert key not in listed
    changed = copy.deepcopy(case)
    setattr(changed.scheme, key.split(".")[1], value)
    assert _steps(changed) != steps


def test_the_schemes_of_a_and_d():
    """What each case steps with, which the list above rests on: A's beta and gamma are
    derived from its alphas (outside the windows average acceleration, 0.25 and 0.5, from
    scheme.alpha = 0; -0.1 at the release, -0.2 around the collisions and in the refined
    steps), D's scheme is theta's alone."""
    from rocking_contact.time import Newmark, Theta, hht_coefficients

    def alpha_newmark(alpha):
        return Newmark(*hht_coefficients(alpha), name="alpha_newmark")

    assert hht_coefficients(0.0) == (0.25, 0.5)
    steps, refine = _steps(load_case("sdnv105a"))
    assert {s for _, s in steps} == {alpha_newmark(0.0), alpha_newmark(-0.1),
                                     alpha_newmark(-0.2)}
    assert refine.scheme == alpha_newmark(-0.2)
    steps, refine = _steps(load_case("sdnv105d"))
    assert {s for _, s in steps} == {Theta(0.6)} and refine is None


def test_a_given_unread_key_is_still_refused():
    """The same walk refuses such a key given in a file or with --set (exit 2)."""
    with pytest.raises(rc.CaseError, match="scheme.theta.*no effect with scheme.type"):
        rc.load_case("sdnv105a", {"scheme.theta": 0.6})


def test_the_list_follows_a_variant_chosen_after_loading():
    case = load_case("sdnv105a")
    case.contact.treatment = "continuous"
    assert "contact.restitution" in unread_keys(case)
    assert "contact.search_distance" not in unread_keys(case)


def test_a_block_at_rest_reads_no_preload_key():
    """initial.state = 'rest' skips the preload: its [preload] keys are listed, and one
    given with it is refused (it was ignored without a word: 'rest' then tilt 0.02 ran)."""
    at_rest = load_case("sdnv105d", {"initial.state": "rest", "collisions.rigid": False})
    assert {"preload.tilt", "preload.pivot"} <= set(unread_keys(at_rest))
    assert not {"preload.tilt", "preload.pivot"} & set(unread_keys(load_case("sdnv105d")))
    with pytest.raises(rc.CaseError,
                       match=r"preload\.tilt: 0\.02 has no effect with initial\.state = 'rest'"):
        rc.load_case("sdnv105d", ["initial.state=rest", "collisions.rigid=false",
                                  "preload.tilt=0.02"])
    # the file's own [preload] is left behind by a later choice of 'rest': not refused
    assert at_rest.preload.tilt == load_case("sdnv105d").preload.tilt
