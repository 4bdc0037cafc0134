"""Numbers in ``keys`` and in refusals are written as a case file writes them: a Young's
modulus of 6e11 Pa was listed as ``default 600000000000.0``, beside ``|x| <= 1e+16 Pa`` on
the same line (session 31, L1)."""

import math
import tomllib

import numpy as np
import pytest

import rocking_contact as rc
from rocking_contact.cli import main
from rocking_contact.config import toml_text


def test_keys_writes_large_defaults_with_an_exponent(capsys):
    assert main(["keys", "sdnv105b"]) == 0
    rows = {line.split()[0]: line for line in capsys.readouterr().out.splitlines()
            if line.startswith("  ")}
    assert " default 6e+11; [Pa]" in rows["material.block.young"]
    assert " default 1e+14; [Pa]" in rows["material.table.young"]
    assert " default 3e+10; [N/m]" in rows["contact.spring.N.normal_stiffness"]
    # small and ordinary numbers as they were
    assert " default 0.0001; [s]" in rows["material.block.rayleigh_stiffness"]
    assert " default 10000.0; [N.s/m]" in rows["contact.spring.N.tangential_damping"]


def test_a_refusal_writes_the_value_as_typed():
    with pytest.raises(rc.CaseError) as raised:
        rc.load_case("sdnv105a", ["material.block.young=-6e11"])
    assert raised.value.problem == "got -6e+11, allowed: a number > 0"


@pytest.mark.parametrize(("value", "text"), [
    (6e11, "6e+11"), (1e14, "1e+14"), (3e10, "3e+10"), (1e6, "1e+06"), (1.5e6, "1.5e+06"),
    (-2e7, "-2e+07"), (0.0001, "0.0001"), (9.81, "9.81"), (417.6, "417.6"), (1e-05, "1e-05"),
    (999999.0, "999999.0"), (1234567.0, "1234567.0"), (123456789.125, "123456789.125"),
    (0.0, "0.0"), (np.float64(6e11), "6e+11"), ([6e11, 2], "[6e+11, 2]"),
    (math.inf, "inf")])
def test_a_float_is_its_shortest_text_and_reads_back_as_the_same_float(value, text):
    assert toml_text(value) == text
    back = tomllib.loads(f"v = {text}")["v"]
    assert back == value and type(back) is type(value if isinstance(value, list) else 1.0)


def test_every_float_reads_back():
    rng = np.random.default_rng(31)
    for value in [*(10.0 ** rng.uniform(-8, 20, 2000)), *(rng.integers(1, 10**9, 500) * 1e3)]:
        value = float(value)
        back = tomllib.loads(f"v = {toml_text(value)}")["v"]
        assert back == value and isinstance(back, float), value
