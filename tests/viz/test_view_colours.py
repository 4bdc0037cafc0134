"""The colours of a FEM block's view: the block's own range, round colour-bar ticks, a table
in the mesh drawn grey."""

import math
import shutil
from pathlib import Path

import numpy as np
import pytest

from rocking_contact.viz import render
from rocking_contact.viz.block_scene import TABLE_COLOUR
from rocking_contact.viz.sample import B

SMALL = (320, 320)
#: the table's stresses in the sample with a table: far above the block's (kPa at most)
TABLE_STRESS = 1e9


def _bar(plotter):
    """The colour bar: (lower end, upper end) in its unit, the number of labels."""
    (bar,) = plotter.scalar_bars.values()
    lo, hi = bar.GetLookupTable().GetRange()
    return lo, hi, bar.GetNumberOfLabels(), bar.GetLabelFormat()


@pytest.fixture(scope="module")
def with_table(block_dir, tmp_path_factory):
    """The sample with a meshed table under the block (as A's, C's and D's meshes), its
    stresses 1e9 Pa at every output."""
    import pyvista as pv

    out = Path(shutil.copytree(block_dir, tmp_path_factory.mktemp("table") / "s"))
    x = np.linspace(-B, 3 * B, 5)
    y = np.linspace(-0.08, 0.0, 3)
    table = pv.StructuredGrid(*np.meshgrid(x, y, [0.0], indexing="ij")).cast_to_unstructured_grid()
    for path in sorted(out.glob("fields_*.vtu")):
        block = pv.read(path)
        part = table.copy()
        part.point_data["u"] = np.zeros((part.n_points, 3))
        for name in ("von_mises", "sigma_yy"):
            part.point_data[name] = np.full(part.n_points, TABLE_STRESS)
        # its own nodes on the block's base line, as a FEM mesh of two bodies has
        block.merge(part, merge_points=False).save(path)
    return out


def test_the_colour_range_is_the_blocks_and_the_table_is_grey(with_table, block_dir):
    """In A's and D's event views the table's stresses under the impact saturated the colour
    bar (yellow table, dark block): the range is the block's alone, as without a table,
    and the table is drawn in the table's grey, uncoloured."""
    shown = {}
    for name, result in (("table", with_table), ("none", block_dir)):
        scene = render.open_scene(result)
        with render.offscreen_plotter(SMALL) as plotter:
            scene.add_to(plotter)
            shown[name] = _bar(plotter)
            if name == "table":
                table = plotter.actors["table"]
                assert not table.mapper.scalar_visibility
                assert table.prop.color.hex_rgb.lower() == TABLE_COLOUR.lower()
                assert scene.table_mesh.n_points == 15
                assert scene.mesh.n_points == scene.motion.reference.n_points - 15
    assert shown["table"] == shown["none"]
    assert shown["table"][1] < TABLE_STRESS / 1e3


def test_the_colour_bar_has_round_limits_and_ticks(block_dir):
    """Limits and ticks were the 1st and 99th percentiles and four fifths between them
    (0.619 / 13.4 / 26.2 / 39 / 51.8 kPa): now multiples of a 1, 2, 5 step, every label
    on one, printed without needless digits."""
    for field in ("von_mises", "sigma_yy"):
        scene = render.open_scene(block_dir, render.ViewOptions(field=field))
        lo_pct, hi_pct = scene.motion.series.value_range(field, 99.0)
        with render.offscreen_plotter(SMALL) as plotter:
            scene.add_to(plotter)
            lo, hi, labels, fmt = _bar(plotter)
        step = (hi - lo) / (labels - 1)
        mantissa = step / 10 ** math.floor(math.log10(step))
        assert any(np.isclose(mantissa, m) for m in (1.0, 2.0, 5.0)), (field, step)
        assert np.isclose(lo / step, round(lo / step)) and np.isclose(hi / step, round(hi / step))
        assert 3 <= labels <= 7
        divisor = 1e3  # the sample's stresses are kPa
        assert lo <= lo_pct / divisor and hi >= hi_pct / divisor  # widened, never cut
        assert hi - lo < 2 * (hi_pct - lo_pct) / divisor + 2 * step
        assert fmt == ("%.0f" if step >= 1 else f"%.{-math.floor(math.log10(step))}f")
        if field == "sigma_yy":  # diverging: centred on zero
            assert np.isclose(lo, -hi)


def test_a_colour_range_asked_for_is_drawn_as_given(block_dir):
    scene = render.open_scene(block_dir, render.ViewOptions(clim=(1234.0, 56789.0)))
    with render.offscreen_plotter(SMALL) as plotter:
        scene.add_to(plotter)
        lo, hi, _, _ = _bar(plotter)
    assert np.isclose(lo, 1.234) and np.isclose(hi, 56.789)


def test_nice_ticks():
    from rocking_contact.viz.scene import nice_ticks

    assert np.allclose(nice_ticks(0.619, 51.8), [0, 10, 20, 30, 40, 50, 60])
    assert np.allclose(nice_ticks(-52.0, 52.0), [-60, -40, -20, 0, 20, 40, 60])
    assert np.allclose(nice_ticks(0.0, 40.0), [0, 10, 20, 30, 40])  # round limits kept
    assert np.allclose(nice_ticks(1e-3, 2.3e-3), [1e-3, 1.5e-3, 2e-3, 2.5e-3])
    assert np.allclose(nice_ticks(5.0, 5.0), [5.0, 5.0])  # nothing to round
