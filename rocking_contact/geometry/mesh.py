"""Read the block-on-table model into DOLFINx, with every named group, in parallel.

The Gmsh model lives on one rank; DOLFINx distributes the cells. Cell regions (BLOCK,
GROUN) become the mesh's cell tags. Point and curve groups overlap (CONHAUT is part of
CTBLO, a named point lies on named curves), which one ``MeshTags`` per dimension cannot
hold, so each name gets its own ``MeshTags`` (value 1 on its entities), distributed with
``dolfinx.io.distribute_entity_data`` from the Gmsh node numbers.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from mpi4py import MPI

from rocking_contact.block import Geometry
from rocking_contact.geometry.layout import MeshSpec

#: the rank that builds or reads the Gmsh model
_GMSH_RANK = 0

@dataclass
class BlockMesh:
    """A DOLFINx mesh of the block-on-table model and its named groups.

    Attributes:
        mesh: the distributed mesh (gdim 2).
        cell_tags: region tag of every local cell.
        regions: region name (BLOCK, GROUN) -> cell tag value.
        groups: point or curve name -> its mesh tags (vertices or facets, value 1).

    """

    mesh: Any
    cell_tags: Any
    regions: dict[str, int]
    groups: dict[str, Any]

    def cells(self, region: str) -> np.ndarray:
        """Local cells (owned and ghost) of a region."""
        if region not in self.regions:
            raise KeyError(f"no region {region!r} (regions: {', '.join(self.regions)})")
        cells: np.ndarray = self.cell_tags.find(self.regions[region])
        return cells

    def entities(self, name: str) -> tuple[int, np.ndarray]:
        """(dimension, local entities) of a named point (0) or curve (1)."""
        if name not in self.groups:
            raise KeyError(f"no group {name!r} (groups: {', '.join(self.names)})")
        tags = self.groups[name]
        return tags.dim, tags.indices

    @property
    def names(self) -> list[str]:
        """Names of the point and curve groups."""
        return list(self.groups)

    def dofs(self, space: Any, name: str, component: int | None = None) -> np.ndarray:
        """Local dofs (owned and ghost, unrolled) of ``space`` on a named group or region.

        Args:
            space: a vector (blocked) function space on this mesh.
            name: point, curve or region name.
            component: 0 (x) or 1 (y); None for both.

        """
        from dolfinx import fem

        if name in self.regions:
            dim, entities = self.mesh.topology.dim, self.cells(name)
        else:
            dim, entities = self.entities(name)
        comps = range(space.dofmap.index_map_bs) if component is None else [component]
        found = [fem.locate_dofs_topological(space.sub(c), dim, entities) for c in comps]
        return np.unique(np.concatenate(found)).astype(np.int32)


def _named_entities(gmsh: Any) -> dict[str, tuple[int, np.ndarray]]:
    """Physical groups of dimension < 2: name -> (dim, node numbers (0-based) per entity)."""
    out = {}
    for dim, tag in gmsh.model.getPhysicalGroups():
        if dim >= 2:
            continue
        rows = []
        for entity in gmsh.model.getEntitiesForPhysicalGroup(dim, tag):
            types, _, nodes = gmsh.model.mesh.getElements(dim, entity)
            for etype, enodes in zip(types, nodes):
                n = gmsh.model.mesh.getElementProperties(etype)[3]
                rows.append(np.asarray(enodes, dtype=np.int64).reshape(-1, n) - 1)
        out[gmsh.model.getPhysicalName(dim, tag)] = (dim, np.vstack(rows))
    return out


def mesh_from_gmsh(comm: MPI.Comm) -> BlockMesh:
    """Turn the current Gmsh model (open on rank :data:`_GMSH_RANK`) into a
    :class:`BlockMesh`.

    The model's point and curve physical groups are removed from it (they are kept as
    separate tags); write the model to a file before calling this if you need them there.
    """
    from dolfinx.graph import adjacencylist
    from dolfinx.io import distribute_entity_data
    from dolfinx.io import gmsh as gmshio
    from dolfinx.mesh import meshtags_from_entities

    named: dict[str, tuple[int, np.ndarray]] = {}
    model = None
    if comm.rank == _GMSH_RANK:
        import gmsh

        model = gmsh.model
        named = _named_entities(gmsh)
        lower = [(d, t) for d, t in gmsh.model.getPhysicalGroups() if d < 2]
        gmsh.model.removePhysicalGroups(lower)
    layout = comm.bcast([(name, dim, nodes.shape[1]) for name, (dim, nodes) in named.items()],
                        root=_GMSH_RANK)
    data = gmshio.model_to_mesh(model, comm, _GMSH_RANK, gdim=2)
    mesh = data.mesh
    regions = {name: group.tag for name, group in data.physical_groups.items()
               if group.dim == 2}
    groups = {}
    tdim = mesh.topology.dim
    for name, dim, width in layout:
        nodes = named[name][1] if comm.rank == _GMSH_RANK else np.empty((0, width), np.int64)
        local, values = distribute_entity_data(mesh, dim, nodes, np.ones(len(nodes), np.int32))
        mesh.topology.create_connectivity(dim, tdim)
        tags = meshtags_from_entities(mesh, dim, adjacencylist(local),
                                      values.astype(np.int32, copy=False))
        tags.name = name
        groups[name] = tags
    return BlockMesh(mesh=mesh, cell_tags=data.cell_tags, regions=regions, groups=groups)


def create_block_mesh(comm: MPI.Comm, geometry: Geometry, spec: MeshSpec) -> BlockMesh:
    """Build, mesh and distribute the block-on-table model.

    Args:
        comm: communicator of the mesh (Gmsh runs on its rank 0).
        geometry: dimensions of the block and table (m).
        spec: the ``[mesh]`` section.

    """
    from rocking_contact.geometry.gmsh_model import build_model, session

    if comm.rank != _GMSH_RANK:
        return mesh_from_gmsh(comm)
    with session():
        build_model(geometry, spec)
        return mesh_from_gmsh(comm)


def read_block_mesh(comm: MPI.Comm, path: Path) -> BlockMesh:
    """Read a ``.msh`` file written by ``rocking-contact mesh`` (rank 0 reads), with its
    named groups, into the :class:`BlockMesh` a run would build from the same ``[mesh]``.

    No run reads a file (each meshes its case anew): this is for a mesh inspected or
    checked outside a run, and the test that the command's file is the run's model.
    """
    from rocking_contact.geometry.gmsh_model import session

    if comm.rank != _GMSH_RANK:
        return mesh_from_gmsh(comm)
    with session() as gmsh:
        gmsh.model.add("read")
        gmsh.merge(str(path))
        return mesh_from_gmsh(comm)
