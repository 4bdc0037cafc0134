"""The block-on-table geometry (SDNV105): Gmsh model, named groups, DOLFINx mesh.

- :mod:`~rocking_contact.geometry.layout`: the ``[mesh]`` case section and the layout of
  the model as grids of patches (pure Python, no Gmsh).
- :mod:`~rocking_contact.geometry.gmsh_model`: builds and meshes the Gmsh model with its
  physical groups (Gmsh is imported by its functions, and by
  :func:`~rocking_contact.geometry.mesh.mesh_from_gmsh`, which reads the model).
- :mod:`~rocking_contact.geometry.mesh`: reads a Gmsh model or ``.msh`` file into DOLFINx
  with one mesh-tag object per named group, in parallel.
- :mod:`~rocking_contact.geometry.cli`: ``rocking-contact mesh``.

Nothing here imports Gmsh or DOLFINx at module level: the functions that use them import
them. Importing this package still loads the wheel's bootstrap: like every module of
``rocking_contact`` outside :data:`rocking_contact.LIGHT_MODULES`, it goes through the
package's import hook (``rocking_contact/__init__.py``, ``_WheelFirst``), which imports
``dolfinx_solver`` (and mpi4py) first, about 0.2 s (measured: 0.19-0.20 s and 101 modules,
against 0.01-0.02 s for ``rocking_contact`` alone). DOLFINx and petsc4py imports go through
the same hook.
"""
