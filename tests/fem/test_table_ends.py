"""A block on a table flush with its base: the corner on the table's end is no slide-off."""

import numpy as np
import pytest

import rocking_contact as rc
from rocking_contact.fem.overturn import OVERHANG


def test_a_table_flush_with_the_block_carries_it():
    """sdnv105d on a table [0, 2b]: the preload about O1 moves the base along +x by
    b (1 - cos theta) = 9.0e-6 m, so corner A crosses x = 2b as the block rocks back (by
    9 nm at 0.0295 s, where the run stopped, "slid off its table", and by up to that shift
    as the block comes down flat). It now goes on: by 0.035 s A stands 2.8e-6 m past the
    end, within the preload's shift and far below OVERHANG of the width."""
    case = rc.load_case("sdnv105d", {"geometry.table_left": 0.0, "geometry.table_right": 0.36,
                                     "time.end": 0.035, "collisions.rigid": False})
    result = rc.run(case, write=False, plots=False, quiet=True)
    assert result.status == "completed"
    x_a = 0.36 + np.asarray(result.history["DX_A"])
    shift = 0.18 * (1.0 - np.cos(case.release_angle))
    assert shift == pytest.approx(9.0e-6, rel=1e-3) and shift < OVERHANG * 0.36
    assert 0.0 < np.max(x_a) - 0.36 < shift
