"""The elastic block on its table: plane-stress elastodynamics in DOLFINx.

- :mod:`~rocking_contact.fem.materials`: constitutive laws as small pure functions;
- :mod:`~rocking_contact.fem.forces`: the internal and damping forces, small strain (linear,
  K and C assembled once) or large rotation (St Venant-Kirchhoff, total Lagrangian);
- :mod:`~rocking_contact.fem.petsc`: assembly into PETSc vectors and matrices;
- :mod:`~rocking_contact.fem.body`: the discretised body: space, mass, forces, energies;
- :mod:`~rocking_contact.fem.constraints`: prescribed displacements on named groups;
- :mod:`~rocking_contact.fem.gather`: the few nodes a contact or a point spring acts on,
  gathered on every rank;
- :mod:`~rocking_contact.fem.modal`: natural modes (SLEPc);
- :mod:`~rocking_contact.fem.preload`: static gravity, the tilt, the release's supports;
- :mod:`~rocking_contact.fem.preload_messages`: what the preload says of a tilt it could not
  reach or kept short;
- :mod:`~rocking_contact.fem.energy_balance`: the energy balance kept step by step;
- :mod:`~rocking_contact.fem.overturn`: the run's stop when the block overturns or slides
  off its table;
- :mod:`~rocking_contact.fem.probes`: history values (named points, base rotation,
  energies);
- :mod:`~rocking_contact.fem.output`, :mod:`~rocking_contact.fem.fields`: what a run writes
  as it goes (history rows, ``fields.pvd`` and ``fields.xdmf``);
- :mod:`~rocking_contact.fem.case` / :mod:`~rocking_contact.fem.runner`: the ``block`` kind
  of case file.

Units are SI throughout (m, kg, s, N, Pa); y points up, gravity along -y.

DOLFINx and petsc4py imports go through the package's import hook
(``rocking_contact/__init__.py``, ``_WheelFirst``), which imports the wheel
(``dolfinx_solver``) first.
"""
