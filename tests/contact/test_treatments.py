"""The registry of contact treatments: one entry a treatment, every list made from it."""

import typing

import pytest

from rocking_contact.contact import model
from rocking_contact.contact.spec import (
    TABLE_TREATMENTS,
    TABLELESS_TREATMENTS,
    TREATMENT_INFO,
    ContactSpec,
    ShockSpring,
)


def test_the_schema_offers_the_registered_treatments_in_their_order():
    allowed = typing.get_type_hints(ContactSpec)["treatment"]
    assert typing.get_args(allowed) == tuple(TREATMENT_INFO)
    assert set(TABLE_TREATMENTS) | set(TABLELESS_TREATMENTS) == set(TREATMENT_INFO)
    assert TABLELESS_TREATMENTS[-1] == "none"  # offered last, after the springs


@pytest.mark.parametrize("name", list(TREATMENT_INFO))
def test_each_entry_names_an_importable_factory(name):
    module, sep, function = TREATMENT_INFO[name].factory.partition(":")
    assert sep and module and function
    assert callable(model.factory(name))


def test_each_treatment_reads_the_keys_of_its_record():
    variants = ContactSpec.VARIANTS["treatment"]
    assert {name: info.keys for name, info in TREATMENT_INFO.items()} == variants
    assert "spring" in variants["penalty"] and "restitution" in variants["theta"]


@pytest.mark.parametrize(("spec", "mu"), [
    (ContactSpec(treatment="none", mu=0.3), None),
    (ContactSpec(treatment="theta", mu=0.3), 0.3),
    (ContactSpec(treatment="lagrange", mu=0.5), 0.5),
    (ContactSpec(treatment="penalty", mu=0.9,
                 spring=[ShockSpring(on="O", anchor_stiffness=1e9),
                         ShockSpring(on="A", mu=0.4), ShockSpring(on="O1")]), 0.4),
    (ContactSpec(treatment="penalty", mu=0.9,
                 spring=[ShockSpring(on="O", anchor_stiffness=1e9)]), None),
])
def test_sliding_friction_is_the_least_coulomb_coefficient_of_what_can_slide(spec, mu):
    assert spec.sliding_friction() == mu
