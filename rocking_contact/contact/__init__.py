"""Contact between the block and its table: kinematics and the treatments of SDNV105.

- :mod:`~rocking_contact.contact.spec`: the ``[contact]`` case section (light: no DOLFINx);
- :mod:`~rocking_contact.contact.kinematics`: pairing, gaps, normals and the operator H
  (the relation between nodal unknowns and contact coordinates), parallel-safe;
- :mod:`~rocking_contact.contact.local`: the condensed Signorini-Coulomb problem and its
  semismooth Newton / primal-dual active set solvers;
- :mod:`~rocking_contact.contact.condensed`: the Newton loop with Delassus condensation
  (a step Corrector) shared by :mod:`~rocking_contact.contact.lagrange` (SDNV105 A) and
  :mod:`~rocking_contact.contact.continuous` (SDNV105 C);
- :mod:`~rocking_contact.contact.penalty`: point shock springs (SDNV105 B, a Contribution);
- :mod:`~rocking_contact.contact.friction_contact`: the velocity-level one-step nonsmooth
  problem (Signorini-Moreau with Newton restitution, Coulomb) and its solvers;
- :mod:`~rocking_contact.contact.moreau`: the Moreau-Jean one-step integrator (dense, for
  small systems) and the index set shared with
  :mod:`~rocking_contact.contact.theta` (SDNV105 D, a Corrector, see ``docs/theta.md``);
- :mod:`~rocking_contact.contact.model`: :func:`~rocking_contact.contact.model.build`, the
  treatment selected by ``contact.treatment`` and the run's energy balance.

See ``docs/contact.md``.
"""
