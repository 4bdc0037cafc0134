"""Looking at results: time-history plots, reference markers, pyvista scenes and movies.

Everything here reads a results directory (``results.json``, ``history.csv`` and, for FEM
runs, ``fields.pvd``) and never the solvers, so that any case, present or future, is
drawn from what it wrote. matplotlib and pyvista are imported by the modules that draw,
not by this package, so that ``rocking-contact --help`` stays fast.

- :mod:`.channels`: names and units of the history columns (``DY_O``, ``FN_NO1``...).
- :mod:`.changes`: what a run changes from its case file's physics, to name it by.
- :mod:`.markers`: reference values of the ``checks`` turned into plot markers.
- :mod:`.style`: fonts, colours and markers shared by every figure.
- :mod:`.history_plots`: the PNG/SVG plots written by every run.
- :mod:`.comparison`: several treatments of one validation case on one axis.
- :mod:`.fields`: the FEM field series (``fields.pvd``) at any instant.
- :mod:`.scenes`: pyvista scenes (FEM block, rigid block, spring-mass systems).
- :mod:`.render`: screenshots, GIF/MP4 movies and the interactive window.
"""
