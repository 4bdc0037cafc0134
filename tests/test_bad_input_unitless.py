"""Numbers without a unit (coefficients, ratios, tolerances, factors) are held to the range
that means something for them, like the physical ones: a value outside it is refused in
one line naming the file, the key, the value and the range allowed, exit code 2, nothing
run. Every such key has a range but the signed ones listed here with the reason."""

import dataclasses
import types
import typing

import pytest
from test_bad_input import assert_one_line_error

import rocking_contact as rc
from rocking_contact.cli import main
from rocking_contact.config import FINITE, KINDS, kind_schema

# (case, --set, words of the one line): the coefficients of physics, then the numerical
# factors and tolerances bounded on 2026-11-23 (they took any positive or any number)
OUTSIDE = [
    ("sdnv105a", ["contact.mu=-0.1"], "contact.mu: got -0.1, allowed: a number >= 0"),
    ("sdnv105b", ["contact.spring.0.mu=-0.5"],
     "contact.spring[0].mu: got -0.5, allowed: a number >= 0"),
    ("sdnd100a", ["model.shock.0.mu=-1"], "model.shock[0].mu: got -1.0, allowed: a number >= 0"),
    ("sdnv105d", ["contact.restitution=3"],
     "contact.restitution: got 3.0, allowed: a number in [0, 1]"),
    ("sdnv105_rigid", ["rigid.restitution=3"],
     "rigid.restitution: got 3.0, allowed: a number in (0, 1]"),
    ("sdnv105d", ["scheme.theta=0.4"], "scheme.theta: got 0.4, allowed: a number in [0.5, 1]"),
    # 1e300 stopped MUMPS with a PETSc error, 1e200 failed the first step
    ("sdnv105a", ["contact.augmentation_normal=1e13"],
     "contact.augmentation_normal: got 1e+13, allowed: a number in [1e-12, 1e+06]"),
    # 1e12 failed steps of C (normal) and A (tangential) with "rejected by the contact
    # treatment 'continuous'"
    ("sdnv105c", ["contact.augmentation_normal=1e12"],
     "contact.augmentation_normal: got 1e+12, allowed: a number in [1e-12, 1e+06]"),
    ("sdnv105a", ["contact.augmentation_tangential=1e9"],
     "contact.augmentation_tangential: got 1e+09, allowed: a number in [1e-12, 1e+06]"),
    ("sdnv105c", ["contact.augmentation_tangential=1e-13"],
     "contact.augmentation_tangential: got 1e-13, allowed: a number in [1e-12, 1e+06]"),
    # relative to the step's displacement: 1 % and more accepted the predictor unsolved
    ("sdnd100a", ["solver.scheme=newmark", "solver.newton_tol=0.02"],
     "solver.newton_tol: got 0.02, allowed: a number in (0, 0.01]"),
    ("sdnd100a", ["solver.scheme=hht", "solver.newton_tol=0"],
     "solver.newton_tol: got 0.0, allowed: a number in (0, 0.01]"),
    # signed, but an acceleration: 1e300 failed the first step on a NaN
    ("sdnv105d_shaking", ["loading.table_acceleration_x.amplitude=-2e4"],
     "loading.table_acceleration_x.amplitude: got -20000, a peak of 20000 m/s^2; allowed: a "
     "number, negative to reverse the motion, with a peak within 10000 m/s^2 (about 1000 g"),
    ("sdnv105d_shaking", ['loading.table_acceleration_x={type="table", times=[0, 1], '
                          'values=[0, 3000], amplitude=5}'],
     "loading.table_acceleration_x.amplitude: got 5 times the table's largest |value| 3000, "
     "a peak of 15000 m/s^2; allowed:"),
    ("sdnd102c", ["model.support.acceleration.amplitude=1e300"],
     "model.support.acceleration.amplitude: got 1e+300, a peak of 1e+300 m/s^2"),
]


@pytest.mark.parametrize("case,sets,words", OUTSIDE, ids=[" ".join(o[1]) for o in OUTSIDE])
def test_a_unitless_value_outside_its_range_is_refused(capsys, tmp_path, case, sets, words):
    argv = ["run", case, "--out", str(tmp_path)]
    for setting in sets:
        argv += ["--set", setting]
    code = main(argv)
    assert_one_line_error(capsys, code, [f"{case}.toml (with --set): {words}"])
    assert not (tmp_path / "results.json").exists()


def test_a_negative_amplitude_is_a_motion_reversed():
    """The amplitude multiplies the function (``A sin(2 pi f t + phase)``, ``A`` times a
    table's values): -6 m/s^2 is the shaking table of +6 half a period later, a record
    mirrored, and is accepted as any motion."""
    case = rc.load_case("sdnv105d_shaking", {"loading.table_acceleration_x.amplitude": -6.0})
    assert case.loading.table_acceleration_x.amplitude == -6.0


#: unitless numbers with no range: what they are is signed, any finite value has a meaning
#: (each still finite; a time function's peak is bounded as an acceleration)
SIGNED = {
    "quantity.level": "a level in its column's unit, which may be negative",
    "reference.value": "a reference in its quantity's unit, which may be negative",
    "model.relation.coefficients": "c_i of sum c_i u_i = 0 (all zero refused)",
    "model.shock.normal": "a direction, normalised (the zero vector refused)",
    "model.support.direction": "a direction, normalised (the zero vector refused)",
    "model.support.acceleration.amplitude": "signed factor; the peak is bounded",
    "model.support.acceleration.values": "signed samples; the peak is bounded",
    "loading.table_acceleration_x.amplitude": "signed factor; the peak is bounded",
    "loading.table_acceleration_x.values": "signed samples; the peak is bounded",
    "loading.table_acceleration_y.amplitude": "signed factor; the peak is bounded",
    "loading.table_acceleration_y.values": "signed samples; the peak is bounded",
}


def _unbounded(cls: type, prefix: str = "") -> set[str]:
    """Dotted keys (list indices dropped) of the unitless numbers of a schema whose check
    admits any finite value."""
    out: set[str] = set()
    hints = typing.get_type_hints(cls)
    for f in dataclasses.fields(cls):
        key, tp = f"{prefix}{f.name}", hints[f.name]
        while typing.get_origin(tp) in (list, tuple, typing.Union, types.UnionType):
            tp = next(a for a in typing.get_args(tp) if a not in (type(None), Ellipsis))
        if dataclasses.is_dataclass(tp):
            out |= _unbounded(tp, f"{key}.")
        elif tp in (float, int) and not f.metadata.get("unit"):
            if f.metadata.get("check") in (None, FINITE):
                out.add(key)
    return out


@pytest.mark.parametrize("kind", KINDS)
def test_every_unitless_number_has_a_range_or_is_signed(kind):
    """A new coefficient or tolerance without a range fails here: give it one, or say here
    why any sign and size of it is a value."""
    assert _unbounded(kind_schema(kind)) <= set(SIGNED), kind
