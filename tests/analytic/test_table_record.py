"""The rigid block on a long table record: the record's values as numpy.interp gives them,
to the last bit, and a rest that looks at the record only as far as its uplift."""

import math
from dataclasses import replace

import numpy as np
import pytest

import rocking_contact as rc
from rocking_contact.analytic.rigid_block import RigidBlock
from rocking_contact.analytic.rigid_motion import RockingSimulation
from rocking_contact.loads import (
    Record,
    TableMotion,
    TimeFunction,
    table_samples,
    time_function_callable,
)

BLOCK = RigidBlock(half_width=0.1, half_height=0.5, mass=96.0, gravity=9.81)


def test_a_record_gives_numpy_interps_values_to_the_last_bit(tmp_path):
    rng = np.random.default_rng(7)
    times = np.cumsum(rng.uniform(1e-4, 0.01, 2001))
    values = rng.normal(size=times.size) * 10.0 ** rng.uniform(-4, 2, times.size)
    path = tmp_path / "record.csv"
    np.savetxt(path, np.column_stack([times, values]), delimiter=",", fmt="%.17g")
    function = TimeFunction(type="table", path=str(path), amplitude=9.81)
    record = time_function_callable(function)  # the record read back from its file
    assert isinstance(record, Record)
    instants = np.concatenate([rng.uniform(times[0] - 1, times[-1] + 1, 20000), times,
                               np.nextafter(times, np.inf), np.nextafter(times, -np.inf),
                               [np.inf, -np.inf]])
    for t in instants:
        assert record(float(t)) == 9.81 * float(np.interp(float(t), times, values)), t
    assert math.isnan(record(math.nan))
    assert Record(times, values, 9.81)(1.5) == record(1.5)


def test_a_loadings_table_motion_evaluates_its_records_so():
    loading = rc.load_case("sdnv105_rigid", {
        "loading.table_acceleration_x": {"type": "table", "times": [0.0, 0.1, 0.3],
                                         "values": [0.0, 2.0, -1.0], "amplitude": 3.0},
        "loading.table_acceleration_y": {"type": "sine", "amplitude": 1.0,
                                         "frequency": 2.0}}).loading
    table = loading.table_motion()
    assert isinstance(table.horizontal, Record)
    assert table.breakpoints == (0.0, 0.1, 0.3)
    for t in np.linspace(-0.1, 0.4, 501):
        ux, uy = table.at(float(t))
        assert ux == 3.0 * float(np.interp(float(t), [0.0, 0.1, 0.3], [0.0, 2.0, -1.0]))
        assert uy == float(np.sin(2.0 * np.pi * 2.0 * t))


class Counted:
    """A table acceleration that notes the instants it is asked for."""

    def __init__(self, function):
        self.function, self.asked = function, []

    def __call__(self, t):
        self.asked.append(t)
        return self.function(t)


def test_a_rest_samples_the_record_only_as_far_as_its_uplift():
    """A block resting on a 100 s record of 20,001 samples looked at all of it, from its
    rest to the record's end, for its first uplift (3 functions, each sampled maximum
    refined): a long record's run took 73 s for 100 s. A pulse at 0.5 s tips it over;
    nothing after about 1 s needs to be looked at."""
    times = np.linspace(0.0, 100.0, 20001)
    values = np.where((times >= 0.5) & (times < 1.0), 20.0, 0.0)  # 2 g: it topples
    counted = Counted(Record(times, values, 1.0))
    table = TableMotion(horizontal=counted, breakpoints=tuple(times.tolist()))
    motion = RockingSimulation(BLOCK, table=table).run(0.0, 0.0, 100.0,
                                                       np.linspace(0.0, 100.0, 101))
    assert [e.kind for e in motion.events] == ["uplift", "overturn"]
    assert motion.events[0].time == pytest.approx(0.5, abs=0.005)
    assert max(counted.asked) < 2.0


def test_a_record_held_moves_the_block_as_numpy_interp_did(tmp_path):
    """The same history, bit for bit, and the same events with the record held as with
    numpy.interp over its arrays (shipped runs: history.csv byte-identical against
    df04f6e, commit message)."""
    path = tmp_path / "shake.csv"
    t = np.arange(0.0, 3.0 + 1e-9, 0.005)
    np.savetxt(path, np.column_stack([t, 0.6 * np.sin(2 * np.pi * 1.5 * t)]),
               delimiter=",", fmt="%.6f")
    case = rc.load_case("sdnv105_rigid", {
        "preload.tilt": 0.0, "time.end": 3.0,
        "loading.table_acceleration_x": {"type": "table", "path": str(path),
                                         "amplitude": 9.81}})
    block = RigidBlock.from_parameters(case.geometry, case.material.block, case.loading)
    samples = np.linspace(0.0, 3.0, 3001)
    table = case.loading.table_motion()  # its record held (Record)
    times, values = table_samples(case.loading.table_acceleration_x)
    interp = replace(table, horizontal=lambda t: 9.81 * float(np.interp(t, times, values)))
    plain, held = (RockingSimulation(block, table=motion).run(0.0, 0.0, 3.0, samples)
                   for motion in (interp, table))
    assert "uplift" in [e.kind for e in held.events] and held.sequence.impacts
    assert held.events == plain.events and held.outcome == plain.outcome
    for name, column in plain.history.items():
        assert np.array_equal(held.history[name], column), name
