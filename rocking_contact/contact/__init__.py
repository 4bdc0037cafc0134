"""Contact between the block and its table: kinematics and the treatments of SDNV105.

- :mod:`~rocking_contact.contact.spec`: the ``[contact]`` case section and each
  treatment's record (the keys it reads, the level of its law, its table); light: no
  DOLFINx;
- :mod:`~rocking_contact.contact.kinematics`: pairing, gaps, normals and the operator H
  (the relation between nodal unknowns and contact coordinates), parallel-safe (the
  gathering of its nodes: :mod:`rocking_contact.fem.gather`);
- :mod:`~rocking_contact.contact.local`: the condensed Signorini-Coulomb problem and its
  semismooth Newton / primal-dual active set solvers;
- :mod:`~rocking_contact.contact.condensed`: the Newton loop with Delassus condensation
  (a step Corrector) shared by :mod:`~rocking_contact.contact.lagrange` (SDNV105 A) and
  :mod:`~rocking_contact.contact.continuous` (SDNV105 C);
- :mod:`~rocking_contact.contact.penalty`: point shock springs (SDNV105 B, a Contribution);
- :mod:`~rocking_contact.contact.springs`: the guards of any treatment whose law is springs
  (level ``"springs"``): the load-time refusal of springs the weight sinks too deep, the
  sink at the release and its watch during the run; light: no DOLFINx;
- :mod:`~rocking_contact.contact.release`: the contact takes over from the preload's
  supports (the forces of the first step);
- :mod:`~rocking_contact.contact.friction_contact`: the velocity-level one-step nonsmooth
  problem (Signorini-Moreau with Newton restitution, Coulomb) and its solvers;
- :mod:`~rocking_contact.contact.index_set`: the contacts active in a Moreau-Jean step and
  their last impulses, shared by :mod:`~rocking_contact.contact.theta` (SDNV105 D, a
  Corrector, see ``docs/theta.md``), whose position projection is
  :mod:`~rocking_contact.contact.projection`, and :mod:`~rocking_contact.contact.moreau`,
  which no run uses: a dense Moreau-Jean integrator for systems of a few degrees of
  freedom, the reference the tests check against known answers (a bouncing point mass,
  the rigid block's impact law), on the relations of
  :mod:`~rocking_contact.contact.moreau_relations`;
- :mod:`~rocking_contact.contact.components`: the normal and tangential components of
  per-contact forces and impulses (their rows in H, the force on the table along x, the
  Coulomb-cone test) and the treatments' history columns, their names, units and signs
  (:func:`~rocking_contact.contact.components.point_columns`,
  :func:`~rocking_contact.contact.components.summary_columns`);
- :mod:`~rocking_contact.contact.workspace`: a corrector's work vectors, made once and
  freed with the run;
- :mod:`~rocking_contact.contact.counters`: the solve counters of a run's statistics;
- :mod:`~rocking_contact.contact.model`: :func:`~rocking_contact.contact.model.build`, the
  treatment selected by ``contact.treatment`` and the run's energy balance.

Conventions. Two sign conventions meet here, each kept from where it comes from:

- the shock springs (:mod:`~rocking_contact.contact.penalty`, the discrete module's
  shocks, Code_Aster's DIS_CHOC): the normal ``n`` points from the node towards the
  obstacle, the penetration is ``p = u . n - gap`` (positive penetrating) and the normal
  velocity ``VN = v . n`` is positive towards the obstacle;
- the kinematics and the treatments built on H (:mod:`~rocking_contact.contact.kinematics`,
  condensed, :mod:`~rocking_contact.contact.theta`, :mod:`~rocking_contact.contact.projection`,
  and the tests' :mod:`~rocking_contact.contact.moreau`): the normal points from the obstacle (the
  table) towards the body (+y for SDNV105), the gap is signed (positive open, negative
  penetrating) and the normal relative velocity ``U_N`` is positive when separating.

Both report the normal force or impulse positive in compression (``RN``, ``PN``) and ``RX``
as the force the block exerts on the table (the ground) along x.

See ``docs/contact.md``.

DOLFINx and petsc4py imports go through the package's import hook
(``rocking_contact/__init__.py``, ``_WheelFirst``), which imports the wheel
(``dolfinx_solver``) first.
"""
