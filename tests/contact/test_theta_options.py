"""The theta treatment's options have one source: the ``[contact]`` keys that set them and
their defaults (``MoreauJeanOptions()`` held ``stol = 1e-10`` where the case file's
``contact.step_tolerance`` defaults to 1e-12, and ``mu = 0`` where ``contact.mu`` is 0.9)."""

from dataclasses import replace

import pytest

from rocking_contact.contact.friction_contact import NewtonImpactFrictionLaw
from rocking_contact.contact.spec import TREATMENT_INFO, ContactSpec
from rocking_contact.contact.theta import MoreauJeanOptions, options_of


def test_the_options_default_to_the_case_files_defaults():
    default = MoreauJeanOptions()
    assert default == options_of(ContactSpec())
    assert default.stol == ContactSpec().step_tolerance == 1e-12
    assert default.law == NewtonImpactFrictionLaw(restitution=0.0, friction=0.9)


#: a [contact] key, a value other than its default, the option it sets and that option's value
KEYS = [("closed_gap", 1e-8, "activation_gap", 1e-8), ("tolerance", 1e-7, "rtol", 1e-7),
        ("step_tolerance", 1e-11, "stol", 1e-11), ("max_iterations", 7, "max_iterations", 7),
        ("local_iterations", 9, "local_iterations", 9),
        ("restitution", 0.5, "law", NewtonImpactFrictionLaw(0.5, 0.9)),
        ("mu", 0.3, "law", NewtonImpactFrictionLaw(0.0, 0.3))]


@pytest.mark.parametrize("key,value,option,expected", KEYS)
def test_each_key_sets_its_option_and_no_other(key, value, option, expected):
    options, default = options_of(ContactSpec(**{key: value})), MoreauJeanOptions()
    assert getattr(options, option) == expected != getattr(default, option)
    assert replace(options, **{option: getattr(default, option)}) == default


def test_atol_and_local_tolerance_are_set_by_no_key():
    """Every key the treatment reads (but the curves it pairs) given another value leaves
    the two fixed ones."""
    assert {key for key, _, _, _ in KEYS} == set(TREATMENT_INFO["theta"].keys) - {
        "slave", "master"}
    spec = ContactSpec(**{key: value for key, value, _, _ in KEYS})
    options = options_of(spec)
    assert (options.atol, options.local_tolerance) == (1e-8, 1e-12)
    assert all(getattr(options, o) != getattr(MoreauJeanOptions(), o) for _, _, o, _ in KEYS)
