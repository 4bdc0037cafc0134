"""A loaded case pickles: a sweep over ``rc.load_case`` objects with
``concurrent.futures.ProcessPoolExecutor`` (or ``multiprocessing``, spawn) sends each case
to a worker process. It could not: "Can't pickle local object 'layers.<locals>.layer'"
(where each key was given, kept by the case to judge changes made after loading, was a
closure)."""

import multiprocessing
import pickle
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pytest

import rocking_contact as rc
from rocking_contact.config import shipped_cases, variant_cases

#: every shipped case file, of the three kinds, with its variants
FILES = {**shipped_cases(), **variant_cases()}


@pytest.mark.parametrize("name", sorted(FILES))
def test_every_shipped_case_comes_back_from_pickle_equal(name):
    case = rc.load_case(name)
    copy = pickle.loads(pickle.dumps(case))
    assert copy == case and copy.load_info == case.load_info  # its file, record, layers
    assert copy.source_file == FILES[name]


def test_the_layers_of_an_overridden_case_and_of_a_rigid_twin_come_back():
    """The layer of each key (0 overridden, 1 its file, inf its default) decides what a
    later change leaves behind or refuses: the copy's are the case's."""
    case = rc.load_case("sdnv105d", {"time.end": 0.02})
    layer = pickle.loads(pickle.dumps(case)).load_info.loaded_as[1]
    keys = ["time.end", "time.step", "case.title", "contact.mu", "output.fields"]
    assert [layer(key) for key in keys] == [case.load_info.loaded_as[1](key) for key in keys]
    assert layer("time.end") == 0 and layer("case.title") == 1
    twin = rc.rigid_twin(case)
    copy = pickle.loads(pickle.dumps(twin))
    assert copy == twin and copy.load_info == twin.load_info and copy.case.kind == "rigid"


def test_a_pickled_case_runs_in_a_spawned_process_as_here():
    """What a ``ProcessPoolExecutor`` of spawned workers does with a loaded case: the run
    there gives the run here, to the bit."""
    case = rc.load_case("sdnd101a", {"time.end": 0.05})
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(1, mp_context=context) as pool:
        there = pool.submit(rc.run, case, write=False, quiet=True).result()
    here = rc.run(case, write=False, quiet=True)
    assert there.status == here.status == "completed"
    assert list(there.history) == list(here.history) and len(here.history["time"]) == 101
    for column, values in here.history.items():
        assert np.array_equal(there.history[column], values), column
    # (repr: a check not reached holds NaN, its floats' repr their every bit)
    assert repr(there.quantities) == repr(here.quantities) and len(here.quantities) > 10
    assert repr(there.checks) == repr(here.checks)
