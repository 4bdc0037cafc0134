"""pyvista, imported with Ctrl-C and SIGTERM held until its import is done.

A signal that lands while VTK's compiled modules load crashes the process (SIGSEGV, 7 in 30
random Ctrl-C during ``import pyvista``; none with the signals held), so the drawing
modules take pyvista from here: ``from rocking_contact.viz.pv import pyvista as pv``. The
signal then comes right after the import and stops the command as anywhere else.
``pyvista.plotting`` is imported too: pyvista loads it at the first ``Plotter``.
"""

from rocking_contact import interrupt

with interrupt.signals_held_for_python():
    import pyvista as pyvista
    import pyvista.plotting

__all__ = ["pyvista"]
