"""The names a case may give for a registered variant are written once as a Literal type,
for mypy (a misspelt name in a comparison is an error), and each registry's keys are those
names in that order: the order the schema's "allowed: ..." messages and ``rocking-contact
keys`` list them in."""

import typing

import pytest

from rocking_contact.contact.spec import TREATMENT_INFO, ContactSpec, Treatment
from rocking_contact.discrete.case import SCHEMES as DISCRETE_SCHEMES
from rocking_contact.discrete.case import SchemeName, Solver
from rocking_contact.fem.case import SchemeSpec
from rocking_contact.time.schemes import ALPHA_SCHEMES, SCHEMES, AlphaScheme, SchemeType


@pytest.mark.parametrize("names,registry", [
    (Treatment, TREATMENT_INFO), (SchemeType, SCHEMES), (SchemeName, DISCRETE_SCHEMES),
    (AlphaScheme, dict.fromkeys(ALPHA_SCHEMES))],
    ids=["contact.treatment", "scheme.type", "solver.scheme", "alpha schemes"])
def test_a_registry_holds_the_names_of_its_literal_in_their_order(names, registry):
    assert tuple(registry) == typing.get_args(names)


@pytest.mark.parametrize("schema,key,names", [
    (ContactSpec, "treatment", Treatment), (Solver, "scheme", SchemeName),
    (SchemeSpec, "type", SchemeType)])
def test_the_schema_checks_the_literal(schema, key, names):
    assert typing.get_type_hints(schema)[key] == names
