"""Looking at results: time-history plots, reference markers, pyvista scenes and movies.

Everything here reads a results directory (``results.json``, ``history.csv`` and, for FEM
runs, ``fields.pvd``) and never the solvers, so that any case, present or future, is
drawn from what it wrote. matplotlib and pyvista are imported by the modules that draw,
not by this package, so that ``rocking-contact --help`` stays fast.

- :mod:`.channels`: names and units of the history columns (``DY_O``, ``FN_NO1``...).
- :mod:`.changes`: what a run changes from its case file's physics, to name it by.
- :mod:`.markers`: reference values of the ``checks`` turned into plot markers;
  :mod:`.marker_drawing` draws them onto a plot's axis and names them in its legend.
- :mod:`.style`: fonts, colours and markers shared by every figure.
- :mod:`.history_plots`: the PNG/SVG plots written by every run.
- :mod:`.plot_order`: the order a reader takes them in (``results.json``'s ``plots``, the
  report).
- :mod:`.comparison`: several treatments of one validation case on one axis.
- :mod:`.fields`: the FEM field series (``fields.pvd``) at any instant.
- :mod:`.scene`: what every pyvista scene shares (time range, labels, camera); the scenes
  of :mod:`.block_scene` (a block, FEM or rigid, whose mesh and tilt :mod:`.rigid` gives
  from its corners) and :mod:`.discrete_scene` (spring-mass systems); :mod:`.pv` imports
  pyvista.
- :mod:`.runs`: the runs a figure is drawn from (a ``RunResult``, a results directory, or
  its ``results.json`` content and history).
- :mod:`.sample`: a made-up results directory to try the viewer and the report on.
- :mod:`.render`: screenshots, GIF/MP4 movies and the interactive window;
  :mod:`.cli` the ``view`` command.
"""
