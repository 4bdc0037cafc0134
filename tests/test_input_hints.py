"""What a refusal of a mistyped value says it meant (audit U1 #11, session 29): a decimal
comma, a number in quotes, a list without brackets, a misspelt key or choice; and a CSV
record whose header names another unit than it is read in."""

from dataclasses import dataclass
from typing import Literal

import pytest

from rocking_contact.config import CaseError, build, load_case, param
from rocking_contact.loads import TimeFunction, held_values


@dataclass(kw_only=True)
class Table:
    half_width: float = param(0.1, unit="m")
    half_height: float = param(0.5, unit="m")
    every: int = param(1)
    v0: tuple[float, float, float] = param((0.0, 0.0, 0.0), unit="m/s")
    treatment: Literal["lagrange", "penalty", "theta"] = param("theta")


def problem(data: dict[str, object]) -> str:
    with pytest.raises(CaseError) as err:
        build(Table, data, file="f.toml")
    return err.value.problem


def test_a_misspelt_key_gets_the_close_names_a_misspelt_quantity_gets():
    """``half_widht`` listed the allowed keys and no ``close:`` name: build wrote the
    refusal before names.close_hint existed and never used it."""
    assert problem({"half_widht": 0.1}) == (
        "unknown key (allowed: half_width, half_height, every, v0, treatment; close: "
        "half_width, half_height)")
    assert problem({"colour": 1}) == (
        "unknown key (allowed: half_width, half_height, every, v0, treatment)")
    with pytest.raises(CaseError) as err:
        load_case("sdnv105d", ["geometry.half_widht=0.2"])
    assert err.value.key == "geometry.half_widht"
    assert err.value.problem.endswith("; close: half_width, half_height)")


def test_a_decimal_comma_is_said_with_the_number_it_meant():
    assert problem({"half_width": "0,2"}) == (
        "got '0,2', allowed: a number with a decimal point, such as 0.2 "
        "(a comma separates the items of a list)")
    assert problem({"half_width": "-1,5e-1"}).endswith("such as -1.5e-1 (a comma separates "
                                                       "the items of a list)")
    assert problem({"half_width": "1,000"}).endswith(
        "such as 1.000, or 1000 if the comma separates thousands (a comma separates the items "
        "of a list)")
    # .5 is no TOML: the offer is 0.5 (RV3: ',5' was refused with no allowed part)
    assert problem({"half_width": ",5"}).endswith("such as 0.5 (a comma separates the items "
                                                  "of a list)")
    # thousands in several groups, and an integer's (RV3: neither was offered anything)
    assert problem({"half_width": "1,000,000"}).endswith(
        "allowed: a number, such as 1000000 if the comma separates thousands (a comma "
        "separates the items of a list)")
    assert problem({"every": "1,000"}) == (
        "got '1,000', allowed: an integer, such as 1000 if the comma "
        "separates thousands (a comma separates the items of a list)")
    with pytest.raises(CaseError) as err:  # --set hands the text over as a string
        load_case("sdnv105d", ["geometry.half_width=0,2"])
    assert err.value.key == "geometry.half_width"
    assert "allowed: a number with a decimal point, such as 0.2" in err.value.problem


def test_a_number_in_quotes_and_a_list_without_brackets_are_said_so():
    assert problem({"half_width": "3e10"}) == (
        "got '3e10', allowed: a number, not a string: 3e10 without quotes")
    assert problem({"every": "3"}) == (
        "got '3', allowed: an integer, not a string: 3 without quotes")
    assert problem({"v0": "1,0,0"}) == (
        "got '1,0,0', allowed: a list of 3 values (a number each) in brackets, such as "
        "[1,0,0]")
    # nothing to say of a word, nor of a comma where an integer is expected: the key's
    # values (its type and the scale of its unit; they said only its type before)
    assert problem({"half_width": "abc"}) == "got 'abc', allowed: a number, |x| <= 1000 m"
    assert problem({"half_width": "nan"}) == "got 'nan', allowed: a number, |x| <= 1000 m"
    assert problem({"every": "0,2"}) == "got '0,2', allowed: an integer"


def test_several_numbers_for_one_are_said_to_be_a_sweep():
    """``run sdnv105d --set contact.mu=0.3,0.6`` (sweep's syntax given to run) was refused
    as 'expected a number, got '0.3,0.6'' with no allowed part, and ``time.step=1e-4,2e-4``
    as 'a number alone, read in s' (its 'e-4,2e-4' taken for a unit)."""
    hint = ("one number (a comma separates the items of a list; rocking-contact "
            "sweep runs a case once per value)")
    assert problem({"half_width": "0.3,0.6"}) == f"got '0.3,0.6', allowed: {hint}"
    assert problem({"half_width": "1e-4, 2e-4,5e-4"}).endswith(hint)
    with pytest.raises(CaseError) as err:  # --set hands the text over as a string
        load_case("sdnv105d", ["contact.mu=0.3,0.6"])
    assert err.value.problem.endswith(hint)
    # a decimal comma and thousands keep their own offers (above); a word is no number
    assert problem({"half_width": "0.3,abc"}) == ("got '0.3,abc', allowed: a number, "
                                                  "|x| <= 1000 m")


def test_a_list_of_numbers_for_one_is_said_to_be_a_sweep():
    """``sweep sdnd101a --set 'time.step=[1e-4,2e-4]'`` (the values in brackets, one list
    to a sweep) was refused as 'expected a number, got [0.0001, 0.0002]' with no allowed
    part (session 37's walk through the README)."""
    hint = ("one number, not a list (rocking-contact sweep runs a case once per "
            "value: --set KEY=V1,V2,... without brackets)")
    assert problem({"half_width": [0.3, 0.6]}) == f"got [0.3, 0.6], allowed: {hint}"
    assert problem({"every": [1, 2]}) == f"got [1, 2], allowed: {hint}"
    # the values separated by spaces (read as a number and a unit 'e-4 2e-4' before)
    spaced = ("one number (rocking-contact sweep runs a case once per value: "
              "--set KEY=V1,V2,..., separated by commas)")
    assert problem({"half_width": "1e-4 2e-4"}) == f"got '1e-4 2e-4', allowed: {spaced}"
    assert problem({"every": "1 2"}) == f"got '1 2', allowed: {spaced}"
    assert problem({"half_width": "0.1 m"}).endswith("read in m, such as 0.1")  # a unit still
    # one item, or items that are no numbers: the key's values say it
    assert problem({"half_width": [0.3]}) == "got [0.3], allowed: a number, |x| <= 1000 m"
    assert problem({"half_width": ["a", "b"]}) == ("got ['a', 'b'], allowed: a number, "
                                                   "|x| <= 1000 m")
    with pytest.raises(CaseError) as err:
        load_case("sdnd101a", ["time.step=[1e-4,2e-4]"])
    assert err.value.problem.endswith(hint)


def test_a_misspelt_choice_gets_the_close_one():
    assert problem({"treatment": "lagrang"}) == (
        "got 'lagrang', allowed: one of 'lagrange', 'penalty', 'theta'; close: 'lagrange'")
    assert problem({"treatment": "bogus"}) == (
        "got 'bogus', allowed: one of 'lagrange', 'penalty', 'theta'")
    # case-blind (RV3: scheme.type=HHT got no hint)
    assert problem({"treatment": "THETA"}) == (
        "got 'THETA', allowed: one of 'lagrange', 'penalty', 'theta'; close: 'theta'")


@pytest.mark.parametrize("typed, close", [
    ("SDND101A", "close: sdnd101a, "),  # as the Code_Aster manuals write it
    ("SDNV105D_SHAKING", "close: sdnv105d_shaking, "),  # a variant
    ("sdnd101", "close: sdnd101a, "),
])
def test_a_case_name_in_capitals_gets_the_close_names(typed, close):
    """``run SDND101A`` listed the shipped cases and no ``close:`` name."""
    with pytest.raises(CaseError) as err:
        load_case(typed)
    assert err.value.file == typed and close in err.value.problem


def test_a_key_in_capitals_gets_the_close_one():
    assert problem({"HALF_WIDTH": 0.2}).endswith("; close: half_width)")


def record(tmp_path, header: str, rows: str = "0,0\n0.1,0.5\n", **keys: object
           ) -> TimeFunction:
    path = tmp_path / "rec.csv"
    path.write_text(f"{header}\n{rows}", encoding="utf-8")
    return build(TimeFunction, {"type": "table", "path": str(path), **keys}, file="f.toml")


def test_a_record_headed_in_g_read_as_given_is_warned(tmp_path):
    """A record headed ``accel (g)`` was read as 0.5 m/s^2 where it meant 0.5 g, without a
    word (the 1e4 m/s^2 bound catches none of it): a warning says so and which amplitude
    reads it in g; an amplitude that converts it, or a header in m/s^2, says nothing."""
    said = held_values(record(tmp_path, "time (s),accel (g)"), "ux", 0.0, 0.1)
    assert said == ["ux: the record's column 2 is headed 'accel (g)', in g, and is read in "
                    "m/s^2 (times amplitude 1): 0.5 m/s^2 at most; a record in g wants "
                    "amplitude = 9.80665"]
    said = held_values(record(tmp_path, "t,ax [mm/s2]", amplitude=-1.0), "ux", 0.0, 0.1)
    assert said[0].endswith("a record in mm/s^2 wants amplitude = -0.001")
    for header, keys in (("time (s),accel (g)", {"amplitude": 9.80665}),
                         ("t,ax (m/s2)", {}), ("t,ax [m.s-2]", {}), ("t,ax (m/s\u00b2)", {}),
                         ("t,ax (filtered)", {}), ("t,ax", {})):
        assert held_values(record(tmp_path, header, **keys), "ux", 0.0, 0.1) == [], header


def test_a_record_headed_in_ms_is_refused(tmp_path):
    """Its times are read in s, and no key scales them."""
    with pytest.raises(CaseError) as err:
        record(tmp_path, "t [ms],ax", "0,0\n100,0.5\n")
    assert err.value.key == "path"
    assert err.value.problem.endswith(
        "rec.csv: column 1 (t [ms]) is in ms, and a record's times are read in s (allowed: "
        "its times in s, 0.001 times the column's)")
    assert record(tmp_path, "time (s),ax").path.endswith("rec.csv")
