"""Solving the time-discrete equations: the step problem, its SNES, the step driver.

- :mod:`~rocking_contact.solvers.step`: :class:`~.step.StepProblem`, the equation of one
  step ``R(x) = 0`` built from a body, a scheme stage and prescribed displacements, with
  the seam where contact treatments add their terms (:class:`~.step.Contribution`,
  :class:`~.step.Corrector`);
- :mod:`~rocking_contact.solvers.mass`: :class:`~.mass.MassSolver`, the mass solve with
  prescribed rows (initial acceleration, contact release);
- :mod:`~rocking_contact.solvers.newton`: the prefixed PETSc SNES around it (one factorised
  solve per step for linear problems);
- :mod:`~rocking_contact.solvers.driver`: the time loop: predictor, solve, accept, or halve
  the step and retry.

The history a block run streams as it goes is :class:`rocking_contact.results_io.History`'s,
beside the rest of ``history.csv``'s format.

DOLFINx and petsc4py imports go through the package's import hook
(``rocking_contact/__init__.py``, ``_WheelFirst``), which imports the wheel
(``dolfinx_solver``) first.
"""
