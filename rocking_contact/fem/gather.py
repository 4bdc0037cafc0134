"""Nodes and nodal values gathered on every rank: the parallel layout of the few nodes a
contact or a point spring acts on.

Every rank gathers the global dof indices and reference coordinates of a named curve's
nodes once (``allgather``), and their values at each update (one ``Allreduce``), so that
every rank computes the same thing in the same order, whatever the partition: results do
not depend on the number of ranks. Used by the contact kinematics
(:mod:`rocking_contact.contact.kinematics`) and the point springs
(:mod:`rocking_contact.contact.penalty`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from mpi4py import MPI
from petsc4py import PETSc

from rocking_contact.fem.body import ElasticBody


@dataclass(frozen=True)
class NodeSet:
    """Nodes of a named curve gathered on every rank, ordered along the curve (by x, y).

    Attributes:
        global_nodes: global (blocked) index of each node.
        X: reference coordinates (m), shape (n, 2).
        owner: rank owning each node.
        local: this rank's local (owned) node index, -1 where it does not own it.

    """

    global_nodes: np.ndarray
    X: np.ndarray
    owner: np.ndarray
    local: np.ndarray

    def __len__(self) -> int:
        return len(self.global_nodes)

    def dofs(self, bs: int) -> tuple[np.ndarray, np.ndarray]:
        """The (x, y) dofs of the nodes, shape (n, 2): global indices, and this rank's
        local ones where it owns the node (-1 elsewhere)."""
        glob = (bs * self.global_nodes[:, None] + np.arange(2)).astype(PETSc.IntType)
        local = np.where(self.local[:, None] >= 0, bs * self.local[:, None] + np.arange(2), -1)
        return glob, local


def gather_values(arrays: list[np.ndarray], local_dofs: np.ndarray, comm: Any) -> np.ndarray:
    """Values of local dof arrays (owned entries first) at dofs given by their local index on
    the rank that owns them (-1 on the others), the same on every rank (one reduction).

    Returns:
        shape ``(len(arrays), *local_dofs.shape)``.

    """
    if comm.size == 1:
        # Every dof is this rank's and a reduction over one rank copies: skip it.
        values = np.empty((len(arrays), *local_dofs.shape))
        for k, array in enumerate(arrays):
            values[k] = array[local_dofs]
        return values
    mine = local_dofs >= 0
    out = np.zeros((len(arrays), *local_dofs.shape))
    for k, array in enumerate(arrays):
        out[k][mine] = array[local_dofs[mine]]
    total = np.empty_like(out)
    comm.Allreduce(out, total, op=MPI.SUM)
    return total


def gather_nodes(body: ElasticBody, name: str) -> NodeSet:
    """The nodes of a named curve or point, on every rank, in the same order."""
    V = body.V
    bs = V.dofmap.index_map_bs
    imap = V.dofmap.index_map
    nodes = np.unique(body.block_mesh.dofs(V, name, 0) // bs)
    owned = nodes[nodes < imap.size_local]
    coords = V.tabulate_dof_coordinates()[owned, :2]
    glob = imap.local_to_global(owned.astype(np.int32))
    comm = body.comm
    parts = comm.allgather((glob, coords, np.full(len(owned), comm.rank)))
    g = np.concatenate([p[0] for p in parts]).astype(np.int64)
    X = np.concatenate([p[1] for p in parts]).reshape(-1, 2)
    owner = np.concatenate([p[2] for p in parts]).astype(np.int32)
    order = np.lexsort((X[:, 1], X[:, 0]))
    g, X, owner = g[order], X[order], owner[order]
    start = imap.local_range[0]
    local = np.where(owner == comm.rank, g - start, -1).astype(np.int64)
    return NodeSet(g, X, owner, local)
