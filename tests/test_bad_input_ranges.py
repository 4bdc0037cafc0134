"""Values beyond any physical scale: refused at load in one line naming the key and the
range allowed (they overflowed: an infinite energy with a RuntimeWarning, a NaN solver
failure in the preload, a block 1e300 m tall said to topple by its tilt)."""

import dataclasses
import typing

import pytest
from test_bad_input import assert_one_line_error

import rocking_contact as rc
from rocking_contact.cli import main
from rocking_contact.config import KINDS, CaseError, kind_schema, shipped_cases, variant_cases
from rocking_contact.config.schema import SCALES

# (case, --set, words of the one line)
BEYOND = [
    ("sdnd101a", "model.node.0.v0.0=1e300",
     "model.node[0].v0[0]: got 1e+300, allowed: a number, with |x| <= 1000 m/s"),
    # c**2 overflowed where the stability limit is formed: "above 0 s", blaming time.step
    ("sdnd101a", "model.damping.mass_coefficient=1e300",
     "model.damping.mass_coefficient: got 1e+300, allowed: a number >= 0, with |x| <= "
     "1e+06 1/s"),
    ("sdnd101a", "model.node.0.mass=-1e300", "model.node[0].mass: got -1e+300, allowed: a "
                                             "number >= 0"),
    ("sdnd101a", "model.shock.0.gap=-1e300", "model.shock[0].gap: got -1e+300, allowed: a "
                                             "finite number, with |x| <= 1000 m"),
    ("sdnv105d", "geometry.half_height=1e300",
     "geometry.half_height: got 1e+300, allowed: a number > 0, with |x| <= 1000 m"),
    ("sdnv105d", "geometry.table_right=1e300", "geometry.table_right: got 1e+300, allowed: a "
                                               "finite number, with |x| <= 1000 m"),
    ("sdnv105d", "geometry.thickness=1e300", "geometry.thickness: got 1e+300"),
    ("sdnv105d", "material.block.density=1e300",
     "material.block.density: got 1e+300, allowed: a number > 0, with |x| <= 100000 kg/m3"),
    ("sdnv105d", "loading.gravity=1e300", "loading.gravity: got 1e+300, allowed: a number >= "
                                          "0, the magnitude (gravity acts along -y), with |x| "
                                          "<= 10000 m/s2"),
    ("sdnv105d", "collisions.windows=[[0, 1e300]]",
     "collisions.windows[0][1]: got 1e+300, allowed: a number, with |x| <= 1e+06 s"),
    ("sdnv105_rigid", "geometry.half_width=1e300", "geometry.half_width: got 1e+300"),
    # a relative Newton correction below round-off never comes: 0 failed the run at step 1
    ("sdnv105a", "contact.step_tolerance=0",
     "contact.step_tolerance: got 0.0, allowed: a number in [1e-15, 0.001]"),
]


@pytest.mark.parametrize("case,setting,words", BEYOND, ids=[b[1] for b in BEYOND])
def test_a_value_beyond_its_units_scale_is_refused(capsys, tmp_path, case, setting, words):
    code = main(["run", case, "--out", str(tmp_path), "--set", setting])
    assert_one_line_error(capsys, code, [f"{case}.toml (with --set): {words}"])
    assert not (tmp_path / "results.json").exists()


def test_the_python_api_refuses_it_alike():
    with pytest.raises(CaseError, match=r"model\.node\[0\]\.v0\[0\]: got 1e\+300"):
        rc.load_case("sdnd101a", {"model.node.0.v0": [1e300, 0.0, 0.0]})
    case = rc.load_case("sdnd101a")
    case.model.node[0].v0 = (1e300, 0.0, 0.0)
    with pytest.raises(CaseError, match=r"\(changed after loading\): model\.node\[0\]\.v0"):
        rc.run(case, write=False)


@pytest.mark.parametrize("setting,words", [
    ("geometry.half_height=999", "geometry.half_height: 999 m with preload.tilt = 0.01 "
     "releases the block at 0.0100002 rad, past its overturning angle atan(b/l) = 0.00018018 "
     "rad, and it topples; allowed: a half_height below 17.9991 m, or a preload.tilt below "
     "0.00018018"),
    ("geometry.half_width=0.001", "geometry.half_width: 0.001 m with preload.tilt = 0.01 "
     "releases the block at 0.0100002 rad, past its overturning angle atan(b/l) = 0.00249999 "
     "rad, and it topples; allowed: a half_width above 0.0040002 m"),
])
def test_a_block_too_slender_for_its_tilt_names_the_key_given(capsys, tmp_path, setting,
                                                              words):
    """A block made slender by --set under the file's tilt: its key is the one named (a
    block 1e300 m tall was "preload.tilt: 0.01 releases the block ... allowed: below
    1.8e-301")."""
    code = main(["run", "sdnv105d", "--out", str(tmp_path), "--set", setting])
    assert_one_line_error(capsys, code, [words])


def test_the_limits_given_are_the_turning_points(tmp_path):
    """The block just inside the limit the message gives is released (it loads), the one
    just outside is refused: pivot O moves the release angle with the block."""
    path = tmp_path / "o.toml"
    path.write_text('extends = "sdnv105d"\n[preload]\npivot = "O"\ntilt = 0.3\n')
    with pytest.raises(CaseError, match="allowed: a half_height below") as refused:
        rc.load_case(path, {"geometry.half_height": 0.6})
    tallest = float(str(refused.value).split("half_height below ")[1].split(" m")[0])
    rc.load_case(path, {"geometry.half_height": tallest * (1 - 1e-5)})
    with pytest.raises(CaseError, match="geometry.half_height"):
        rc.load_case(path, {"geometry.half_height": tallest * (1 + 1e-5)})


def _units(cls: type) -> set[str]:
    """The units of every field of a schema, its tables' included."""
    units = set()
    hints = typing.get_type_hints(cls)
    for f in dataclasses.fields(cls):
        units.add(f.metadata.get("unit", ""))
        args = [a for a in typing.get_args(hints[f.name]) if a is not type(None)]
        for tp in (hints[f.name], *args):
            if isinstance(tp, type) and dataclasses.is_dataclass(tp):
                units |= _units(tp)
    return units - {""}


def test_every_unit_a_schema_uses_has_its_scale():
    for kind in KINDS:
        assert _units(kind_schema(kind)) <= set(SCALES), kind


def _values(obj, unit: str = "") -> list[tuple[str, float]]:
    """(unit, value) of every number of a loaded case."""
    if dataclasses.is_dataclass(obj):
        return [v for f in dataclasses.fields(obj)
                for v in _values(getattr(obj, f.name), f.metadata.get("unit", ""))]
    if isinstance(obj, list | tuple):
        return [v for item in obj for v in _values(item, unit)]
    return [(unit, obj)] if isinstance(obj, float) else []


@pytest.mark.parametrize("name", [*shipped_cases(), *variant_cases()])
def test_the_shipped_cases_are_far_within_the_scales(name):
    """A margin of 10 at least between any value of a shipped case and its unit's scale
    (40 for the densest, 2500 kg/m3: no material is denser than 22590 kg/m3)."""
    for unit, value in _values(rc.load_case(name)):
        if unit in SCALES:
            assert abs(value) <= SCALES[unit].limit / 10, (name, unit, value)
