"""The block-on-table geometry (SDNV105): Gmsh model, named groups, DOLFINx mesh.

- :mod:`~rocking_contact.geometry.layout`: the ``[mesh]`` case section and the layout of
  the model as grids of patches (pure Python, no Gmsh).
- :mod:`~rocking_contact.geometry.gmsh_model`: builds and meshes the Gmsh model with its
  physical groups (Gmsh is imported there only).
- :mod:`~rocking_contact.geometry.mesh`: reads a Gmsh model or ``.msh`` file into DOLFINx
  with one mesh-tag object per named group, in parallel.
- :mod:`~rocking_contact.geometry.cli`: ``rocking-contact mesh``.

Importing this package is cheap: nothing here imports Gmsh or DOLFINx at module level.
DOLFINx and petsc4py imports go through the package's import hook
(``rocking_contact/__init__.py``, ``_WheelFirst``), which imports the wheel
(``dolfinx_solver``) first.
"""
