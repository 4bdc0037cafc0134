"""A Ctrl-C while VTK sets a plotter up comes once the plotter stands (rocking_contact.viz.pv,
render.offscreen_plotter): one landing inside crashed the process (SIGSEGV)."""

import signal

import pytest

from rocking_contact.viz import render
from rocking_contact.viz.pv import pyvista


def test_a_ctrl_c_during_the_plotters_creation_comes_after_it(monkeypatch, python_sigint):
    built = []
    real = pyvista.Plotter

    def plotter(*args, **kwargs):
        signal.raise_signal(signal.SIGINT)  # as if Ctrl-C came while VTK builds it
        built.append(real(*args, **kwargs))
        return built[-1]

    monkeypatch.setattr(pyvista, "Plotter", plotter)
    with pytest.raises(KeyboardInterrupt):
        with render.offscreen_plotter((64, 64)):
            pytest.fail("the plotter was used: the interrupt came after the with")
    assert len(built) == 1  # built whole before the interrupt
    built[0].close()


def test_the_signals_are_not_held_while_the_plotter_draws(python_sigint):
    with render.offscreen_plotter((64, 64)):
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
        assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, [])
