"""The elastic block on its table: plane-stress elastodynamics in DOLFINx.

- :mod:`~rocking_contact.fem.materials`: constitutive laws as small pure functions;
- :mod:`~rocking_contact.fem.kinematics`: small strain (linear, K and C assembled once) and
  large rotation (St Venant-Kirchhoff, total Lagrangian);
- :mod:`~rocking_contact.fem.body`: the discretised body: space, mass, forces, energies;
- :mod:`~rocking_contact.fem.constraints`: prescribed displacements on named groups;
- :mod:`~rocking_contact.fem.case` / :mod:`~rocking_contact.fem.runner`: the ``block`` kind
  of case file.

Units are SI throughout (m, kg, s, N, Pa); y points up, gravity along -y.
"""
