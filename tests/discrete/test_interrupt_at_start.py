"""A Ctrl-C while the numba kernels compile (6 to 27 s from a cold cache) stops the run
at time.start, before its first chunk of steps (S27 U1 #12e): it went on through a chunk
of 2000 steps or more, and a run of one chunk, as sdnd101a's 1000 steps, to its end."""

import numpy as np
import pytest

import rocking_contact as rc
from rocking_contact import interrupt
from rocking_contact.discrete import runner
from rocking_contact.stops import Interrupted


@pytest.mark.parametrize("scheme", ["central_difference", "newmark"])
def test_a_stop_asked_while_compiling_ends_the_run_at_its_start(monkeypatch, scheme):
    compile_kernels = runner.compile_kernels

    def pressed_during(*args):  # what the SIGINT handler does while numba compiles
        interrupt.request()
        return compile_kernels(*args)

    monkeypatch.setattr(runner, "compile_kernels", pressed_during)
    case = rc.load_case("sdnd101a", {"solver.scheme": scheme})
    with interrupt.deferred(), pytest.raises(Interrupted) as info:
        runner.run(case)
    assert str(info.value) == "interrupted at t = 0 s"
    partial = info.value.partial
    assert partial.timing["steps"] == 0 and list(partial.history["time"]) == [0.0]
    monkeypatch.undo()
    whole = runner.run(case)
    for column, values in partial.history.items():
        assert np.array_equal(values, whole.history[column][:1]), column
