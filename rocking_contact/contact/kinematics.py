"""Contact kinematics: the block base (slave nodes) against the table top (master polyline).

The relation (Siconos' word) between the nodal unknowns and the contact's local coordinates.

Pairing
-------
The slave side is the set of nodes of the slave curve (``CONHAUT``, the block base); the
master side is the polyline through the nodes of the master curve (``CONBAS``, the table
top), ordered along it. A slave node is paired

- **node-to-node** with the master node it coincides with in the reference configuration
  (O/S0, O1/S1, A/S2 on the Code_Aster mesh; every base node on the structured mesh): the
  pair is kept for the whole run, as in Code_Aster;
- **node-to-segment** otherwise: with its orthogonal projection ``xi`` in [0, 1] on the
  nearest master segment (B1 and B2 of the Code_Aster mesh), recomputed at every update;
- **unpaired** when it projects outside the table (never active).

Local coordinates (m)
---------------------
For slave node ``i`` at ``x_s`` paired with master point ``x_m = sum_k w_k x_k`` (weights
``(1 - xi, xi)``, or ``(1, 0)`` node-to-node):

- normal ``n``: unit normal of the master segment pointing out of the table (+y for
  SDNV105), the normalised mean of the two segment normals at a master node;
  tangent ``t = (n_y, -n_x)`` (+x for SDNV105);
- gap ``g = n . (x_s - x_m)`` (positive open, negative penetrating);
- relative displacement ``q = (n . (u_s - u_m), t . (u_s - u_m))``: its tangential part,
  measured between two instants, is the slip.

With ``large_rotation`` the positions are the current ones ``x = X + u`` (pairing,
normals and gaps updated with the geometry); with small strain the pairing and normals stay
those of the reference configuration and ``g`` is affine in ``u``.

Operator H and sign conventions
-------------------------------
``H`` (rows ``2i`` normal, ``2i + 1`` tangential of contact ``i``) maps the displacements of
the *contact dofs* (the slave then the master nodes, x and y each; see
:attr:`ContactKinematics.global_dofs`) to the relative displacements: ``dq = H du`` and
``dg = H_N du`` (the normal's own variation is neglected: the SDNV105 table is 170 times
stiffer than the block, its top stays flat). The contact force on the bodies is
``F = H^T lambda`` with ``lambda = (lambda_N, lambda_T)`` per contact: ``lambda_N >= 0``
pushes the slave along ``+n`` (compression positive, Code_Aster's RN) and the master along
``-n``; ``lambda_T`` is the tangential force on the slave along ``+t``. The force the block
exerts on the table along x is ``RX = -(lambda_N n_x + lambda_T t_x)`` (Code_Aster's sign:
RX_O = -1149.79 N while the block rocks on O).

Velocities map the same way (``H v``), which is what a velocity-level (theta-scheme)
corrector needs: its local law acts on ``H v_{n+1}``, with ``H`` and the gaps of the
predicted positions.

Parallel layout
---------------
The contact nodes are few (one per base node). Every rank gathers their global dof indices
and reference coordinates once (``allgather``), and their displacements at each update (one
``Allreduce``; :mod:`rocking_contact.fem.gather`), so every rank computes the same geometry
in the same order, whatever the partition: results do not depend on the number of ranks.
Contact forces are added by each rank to the dofs it owns
(:meth:`ContactKinematics.add_forces`); the theta treatment applies H to each rank's owned
dofs and sums over the ranks (:class:`OwnedDofsRelation`). A contact's row is attributed to
the rank that owns its slave node (:attr:`ContactKinematics.owner`), the layout of
:meth:`ContactKinematics.petsc_operator` (H as a distributed PETSc matrix), which the tests
check H against; no treatment uses it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import IntEnum
from functools import cached_property
from typing import Any

import numpy as np
import scipy.sparse as sp
from petsc4py import PETSc

from rocking_contact.contact.components import normal_tangential_rows
from rocking_contact.fem.body import ElasticBody
from rocking_contact.fem.gather import gather_nodes, gather_values

#: relative distance (to the smallest master segment) under which nodes coincide
COINCIDENT = 1e-9
#: the (x, y) offsets of a node's dofs
_XY = np.arange(2)


class Pairing(IntEnum):
    """How a slave node is paired."""

    UNPAIRED = 0
    NODE_TO_NODE = 1
    NODE_TO_SEGMENT = 2


#: plain ints of :class:`Pairing` for the arrays of every contact iteration: numpy takes an
#: IntEnum operand or value the slow way (1-2 us each)
_UNPAIRED, _ON_SEGMENT = int(Pairing.UNPAIRED), int(Pairing.NODE_TO_SEGMENT)


@dataclass(frozen=True)
class ContactGeometry:
    """The contacts at one configuration (every array is the same on every rank).

    Attributes:
        pairing: :class:`Pairing` of each slave node.
        gap: normal gap (m), ``+inf`` for unpaired nodes.
        normal, tangent: unit vectors, shape (ns, 2).
        masters: master node indices (two; equal for node-to-node), shape (ns, 2).
        weights: their weights in the master point, shape (ns, 2).
        H: relative displacements of the contact dofs, shape (2 ns, 2 (ns + nm)).

    """

    pairing: np.ndarray
    gap: np.ndarray
    normal: np.ndarray
    tangent: np.ndarray
    masters: np.ndarray
    weights: np.ndarray
    H: np.ndarray

    @cached_property
    def paired(self) -> np.ndarray:
        """Mask of the paired slave nodes (made once: a contact iteration asks it twice)."""
        mask: np.ndarray = self.pairing != _UNPAIRED
        return mask

    def rows(self, contacts: np.ndarray) -> np.ndarray:
        """Row indices of H for the given contacts, (N, T) interleaved."""
        return normal_tangential_rows(contacts)


@dataclass(frozen=True)
class _Layout:
    """Index arrays of one pairing (:meth:`ContactKinematics.geometry`).

    Attributes:
        unpaired: the unpaired slave nodes.
        on_segment: the slave nodes paired node-to-segment.
        reference: their reference positions and those of their two master nodes (m).
        entries: flat indices in H of the entries that the pairing writes, and ``values``
            the flat indices of their values in the blocks of
            :meth:`ContactKinematics._operator`.

    """

    unpaired: np.ndarray
    on_segment: np.ndarray
    reference: tuple[np.ndarray, np.ndarray, np.ndarray]
    entries: np.ndarray
    values: np.ndarray


class ContactKinematics:
    """Pairing, gaps and the operator H of a slave curve against a master polyline.

    Args:
        body: the bodies (its mesh holds the named curves).
        slave: slave curve (``CONHAUT``).
        master: master curve (``CONBAS``).
        large_rotation: update the geometry with the displacements (else the reference
            pairing and normals are kept and the gap is affine in u).
        names: named points to look up among the slave nodes (those present are kept).

    Attributes:
        slave, master: the gathered nodes.
        global_dofs: global dof of every contact dof, slave nodes first (x, y each).
        local_dofs: this rank's local dof of each, -1 where it does not own it.
        owner: rank owning each contact (its slave node).
        named: point name -> slave index.

    """

    def __init__(self, body: ElasticBody, slave: str = "CONHAUT", master: str = "CONBAS", *,
                 large_rotation: bool = True, names: tuple[str, ...] = ("O", "O1", "A")):
        self.comm = body.comm
        self.large_rotation = large_rotation
        self.slave = gather_nodes(body, slave)
        self.master = gather_nodes(body, master)
        bs = body.V.dofmap.index_map_bs
        (gs, ls), (gm, lm) = self.slave.dofs(bs), self.master.dofs(bs)
        self.global_dofs = np.concatenate([gs, gm]).ravel()
        self.local_dofs = np.concatenate([ls, lm]).ravel()
        self._mine = np.flatnonzero(self.local_dofs >= 0)
        self._mine_local = self.local_dofs[self._mine]  # distinct: no index repeats
        # this rank owns every contact dof (one rank): forces[_mine] would copy them whole
        self._owns_all = len(self._mine) == len(self.local_dofs)
        self.owner = self.slave.owner
        self.named = self._find_named(body, names)
        self._segment_min = self._smallest_segment()
        self._reference_pairs = self._coincident_pairs()
        self._coincident = np.flatnonzero(self._reference_pairs >= 0)
        self._coincident_masters = self._reference_pairs[self._coincident]
        self._uncoincident = np.flatnonzero(self._reference_pairs < 0).tolist()
        ns = len(self.slave)
        # the pairing of the coincident nodes (constant), the others unpaired
        self._reference_pairing = np.zeros(ns, dtype=np.int64)
        self._reference_pairing[self._coincident] = Pairing.NODE_TO_NODE
        self._reference_masters = np.zeros((ns, 2), dtype=np.int64)
        self._reference_masters[self._coincident] = self._coincident_masters[:, None]
        self._reference_weights = np.zeros((ns, 2))
        self._reference_weights[self._coincident] = (1.0, 0.0)
        self._layout: tuple[tuple[Any, ...], _Layout] | None = None
        self._ns, self._nm = ns, len(self.master)

    # -- set-up -------------------------------------------------------------------------
    @property
    def n_contacts(self) -> int:
        """Number of slave nodes (contacts), paired or not."""
        return len(self.slave)

    @property
    def n_dofs(self) -> int:
        """Number of contact dofs (2 per slave and per master node)."""
        return len(self.global_dofs)

    def _find_named(self, body: ElasticBody, names: tuple[str, ...]) -> dict[str, int]:
        out = {}
        for name in names:
            if name not in body.block_mesh.groups:
                continue
            node = gather_nodes(body, name).global_nodes
            hit = np.flatnonzero(np.isin(self.slave.global_nodes, node))
            if len(hit):
                out[name] = int(hit[0])
        return out

    def _smallest_segment(self) -> float:
        d = np.diff(self.master.X, axis=0)
        lengths = np.hypot(d[:, 0], d[:, 1])
        return float(lengths.min()) if len(lengths) else 1.0

    def _coincident_pairs(self) -> np.ndarray:
        """Master node coinciding with each slave node in the reference (-1: none)."""
        out = np.full(len(self.slave), -1, dtype=np.int64)
        if not len(self.master):
            return out
        for i, x in enumerate(self.slave.X):
            dist = np.hypot(*(self.master.X - x).T)
            j = int(np.argmin(dist))
            if dist[j] <= COINCIDENT * self._segment_min:
                out[i] = j
        return out

    # -- values ---------------------------------------------------------------------------
    def values(self, array: np.ndarray) -> np.ndarray:
        """Values of a local dof array (owned first) at the contact dofs, on every rank."""
        values: np.ndarray = gather_values([array], self.local_dofs, self.comm)[0]
        return values

    def values_many(self, arrays: list[np.ndarray]) -> np.ndarray:
        """:meth:`values` of several arrays with one reduction, shape (len(arrays), n)."""
        return gather_values(arrays, self.local_dofs, self.comm)

    def column_values(self, Z: np.ndarray) -> np.ndarray:
        """The columns of ``Z`` (rows: this rank's owned dofs) at the contact dofs, on every
        rank, shape (contact dofs, columns): the transpose of :meth:`values_many` of the
        columns (its layout too)."""
        if self.comm.size > 1:
            return self.values_many(list(Z.T)).T
        # One rank owns every dof: one indexing instead of one per column.
        out = np.empty((Z.shape[1], self.n_dofs))
        np.take(Z, self.local_dofs, axis=0, out=out.T)
        return out.T

    def add_forces(self, forces: np.ndarray, array: np.ndarray, scale: float = 1.0) -> None:
        """``array[dof] += scale * forces`` on the contact dofs this rank owns.

        Args:
            forces: one value per contact dof (e.g. ``H^T lambda``, N), the same on every
                rank; or one row of values per contact dof, shape (contact dofs, k).
            array: a local dof array (owned entries first), e.g. ``vec.array``; or one row
                per local dof, shape (dofs, k).
            scale: factor. ``H^T lambda`` with ``lambda_N >= 0`` in compression is the
                contact force on the bodies (it pushes the base and the table apart):
                ``+1`` adds it to a force; ``-1`` to a residual, where a force on the bodies
                counts negative (``-f_ext`` in ``g``), as the condensed treatments do.

        """
        array[self._mine_local] += scale * (forces if self._owns_all else forces[self._mine])

    # -- geometry -----------------------------------------------------------------------
    def geometry(self, u: np.ndarray) -> ContactGeometry:
        """Pairing, gaps, frames and H at the contact-dof displacements ``u`` (m)."""
        frames, layout, pairing, masters, weights, us, um = self._paired(u)
        normal = frames[:, 0]
        frames[:, 1, 0] = normal[:, 1]
        frames[:, 1, 1] = -normal[:, 0]
        return ContactGeometry(pairing=pairing, gap=self._gaps(layout, normal, us, um, masters,
                                                               weights),
                               normal=normal.copy(), tangent=frames[:, 1].copy(),
                               masters=masters, weights=weights,
                               H=self._operator(layout, frames, weights))

    def gaps(self, u: np.ndarray) -> np.ndarray:
        """The gaps of :meth:`geometry` at the contact-dof displacements ``u`` (m), without
        its frames and H (a history row's ``GAP_MIN``)."""
        frames, layout, _, masters, weights, us, um = self._paired(u)
        return self._gaps(layout, frames[:, 0], us, um, masters, weights)

    def _paired(self, u: np.ndarray) -> tuple[np.ndarray, _Layout, np.ndarray, np.ndarray,
                                              np.ndarray, np.ndarray, np.ndarray]:
        """The pairing at the contact-dof displacements ``u`` (m): the frames (their
        normals set, the tangents left to the caller), the layout, pairing, masters and
        weights, the slave and master displacements (shape (nodes, 2))."""
        ns, nm = self._ns, self._nm
        us, um = u[:2 * ns].reshape(ns, 2), u[2 * ns:].reshape(nm, 2)
        if self.large_rotation:
            xs, xm = self.slave.X + us, self.master.X + um
        else:
            xs, xm = self.slave.X, self.master.X
        seg_t, seg_n, lengths = _segment_frames(xm)
        pairing, masters = self._reference_pairing.copy(), self._reference_masters.copy()
        weights = self._reference_weights.copy()
        # frames[i]: the normal and the tangent of slave node i, +y and +x while unpaired
        frames = np.zeros((ns, 2, 2))
        frames[:, 0, 1] = 1.0
        normal = frames[:, 0]
        # Node-to-node pairs, all at once (every base node of the structured meshes).
        if len(self._coincident):
            normal[self._coincident] = _node_normals(seg_n)[self._coincident_masters]
        key: list[tuple[int, bool, bool] | None] = []
        for i, found in zip(self._uncoincident, self._project(xs, xm, seg_t, lengths),
                            strict=True):
            if found is None:
                key.append(None)
                continue
            k, xi = found
            pairing[i] = _ON_SEGMENT
            masters[i] = (k, k + 1)
            weights[i] = (1.0 - xi, xi)
            normal[i] = seg_n[k]
            key.append((k, 1.0 - xi != 0.0, xi != 0.0))
        layout = self._layout_of(tuple(key), pairing, masters, weights)
        return frames, layout, pairing, masters, weights, us, um

    def _gaps(self, layout: _Layout, normal: np.ndarray, us: np.ndarray, um: np.ndarray,
              masters: np.ndarray, weights: np.ndarray) -> np.ndarray:
        """``n . (x_s - x_m)`` (m) of every slave node, ``+inf`` for unpaired ones."""
        if len(layout.unpaired) == self._ns:  # nothing paired (nor a master node, maybe)
            return np.full(self._ns, np.inf)
        # Every node at once, the unpaired ones' values dropped. vecdot: the same rounding as
        # one 2-vector dot product per contact (BLAS ddot).
        w0, w1 = weights[:, :1], weights[:, 1:]
        gap: np.ndarray = np.vecdot(normal, self._offset(layout, weights) + us
                                    - w0 * um[masters[:, 0]] - w1 * um[masters[:, 1]])
        gap[layout.unpaired] = np.inf
        return gap

    def _project(self, xs: np.ndarray, xm: np.ndarray, seg_t: np.ndarray,
                 lengths: np.ndarray) -> list[tuple[int, float] | None]:
        """:func:`_project` of the slave nodes that coincide with no master node (slave
        positions ``xs``), all at once."""
        if not self._uncoincident:
            return []
        return _project(xs[self._uncoincident], xm, seg_t, lengths)

    def _offset(self, layout: _Layout, weights: np.ndarray) -> np.ndarray | float:
        """``x_s - x_m`` of each slave node in the reference configuration (m): 0 for
        coincident nodes (their round-off dropped) and unpaired ones."""
        i = layout.on_segment
        if not len(i):
            return 0.0
        w = weights[i]
        Xs, Xm0, Xm1 = layout.reference
        offset = np.zeros((self._ns, 2))
        offset[i] = Xs - w[:, :1] * Xm0 - w[:, 1:] * Xm1
        return offset

    def _operator(self, layout: _Layout, frames: np.ndarray, weights: np.ndarray) -> np.ndarray:
        """H: each node's frame on its columns, ``-w_k`` times it on master k's (where
        ``w_k != 0``), every entry written once, the unpaired nodes' rows left at 0."""
        blocks = np.empty((self._ns, 3, 2, 2))  # slave, master 0, master 1
        blocks[:, 0] = frames
        masters = blocks[:, 1:]
        np.multiply(weights[:, :, None, None], frames[:, None], out=masters)
        np.subtract(0.0, masters, out=masters)
        H = np.zeros((2 * self._ns, 2 * (self._ns + self._nm)))
        H.flat[layout.entries] = blocks.ravel()[layout.values]
        return H

    def _layout_of(self, key: tuple[Any, ...], pairing: np.ndarray, masters: np.ndarray,
                   weights: np.ndarray) -> _Layout:
        """The index arrays of a pairing (``key``: segment and nonzero weights of each node
        paired to a segment), kept while the pairing stays (most steps)."""
        if self._layout is not None and self._layout[0] == key:
            return self._layout[1]
        ns, nm = self._ns, self._nm
        nodes = np.arange(ns)
        # the blocks of _operator that go into H: paired nodes, masters of nonzero weight
        written = (pairing != Pairing.UNPAIRED)[:, None] & np.column_stack(
            [np.ones(ns, dtype=bool), weights != 0.0])
        # H's flat index of every entry of those blocks, shape (ns, 3, 2, 2): (slave,
        # master 0, master 1) x (normal, tangential row) x (x, y column)
        rows = 2 * nodes[:, None, None, None] + _XY[None, None, :, None]
        cols = 2 * np.column_stack([nodes, ns + masters])[:, :, None, None] + _XY
        flat = rows * 2 * (ns + nm) + cols
        mask = np.broadcast_to(written[:, :, None, None], flat.shape)
        on_segment = np.flatnonzero(pairing == Pairing.NODE_TO_SEGMENT)
        Xm = self.master.X
        reference = (self.slave.X[on_segment], Xm[masters[on_segment, 0]],
                     Xm[masters[on_segment, 1]])
        layout = _Layout(unpaired=np.flatnonzero(pairing == Pairing.UNPAIRED),
                         on_segment=on_segment, reference=reference,
                         entries=flat[mask], values=np.flatnonzero(mask))
        self._layout = (key, layout)
        return layout

    # -- a distributed H ---------------------------------------------------------------
    def petsc_operator(self, geometry: ContactGeometry, body: ElasticBody) -> PETSc.Mat:
        """H as a PETSc AIJ matrix (2 ns rows x the body's dofs); a contact's two rows live
        on the rank that owns its slave node (the caller destroys it).

        No treatment uses it: it serves ``tests/contact/test_kinematics.py``, which checks
        the distributed H, rows in :attr:`owner` order, against the dense one."""
        comm = body.comm
        mine = np.flatnonzero(self.owner == comm.rank)
        n_local_rows = 2 * len(mine)
        n_owned = body.n_owned
        H = PETSc.Mat().createAIJ(((n_local_rows, None), (n_owned, body.n_global)),
                                  nnz=(6, 6), comm=comm)
        H.setOption(PETSc.Mat.Option.NEW_NONZERO_ALLOCATION_ERR, False)
        # Global row numbering: contacts in the order of the ranks owning them.
        counts = comm.allgather(len(mine))
        first = 2 * sum(counts[:comm.rank])
        for k, i in enumerate(mine):
            for r in (0, 1):
                row = geometry.H[2 * i + r]
                cols = np.flatnonzero(row)
                H.setValues(first + 2 * k + r, self.global_dofs[cols], row[cols])
        H.assemble()
        return H


def _segment_frames(xm: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Unit tangents and outward normals (tangent turned +90 degrees) of the segments, and
    their lengths (m)."""
    d = xm[1:] - xm[:-1]
    lengths = np.hypot(d[:, 0], d[:, 1])
    t = d / lengths[:, None]
    n = np.empty_like(t)
    n[:, 0] = -t[:, 1]
    n[:, 1] = t[:, 0]
    return t, n, lengths


def _node_normals(seg_n: np.ndarray) -> np.ndarray:
    """Normal at every master node: normalised mean of its segments' normals."""
    n = np.empty((len(seg_n) + 1, 2))
    n[:-1] = seg_n
    n[-1] = seg_n[-1]
    n[1:-1] += seg_n[:-1]
    unit: np.ndarray = n / np.hypot(n[:, 0], n[:, 1])[:, None]
    return unit


def _project(xs: np.ndarray, xm: np.ndarray, seg_t: np.ndarray, lengths: np.ndarray
             ) -> list[tuple[int, float] | None]:
    """For each point of ``xs`` (shape (n, 2)): the nearest segment (k, xi in [0, 1]) of the
    master polyline whose span holds its orthogonal projection; None outside the polyline.
    The first of equally near segments wins."""
    d = xs[:, None, :] - xm[None, :-1, :]
    # vecdot: one BLAS ddot per point and segment, as ``d[i, k] @ seg_t[k]``
    xi = (np.vecdot(d, seg_t) / lengths).tolist()
    # The rest one point and segment at a time in Python floats (2 x 4 on the SDNV105
    # meshes): the IEEE operations numpy would do, without its cost per call
    tangents = seg_t.tolist()
    out: list[tuple[int, float] | None] = []
    for xi_i, d_i in zip(xi, d.tolist(), strict=True):
        least, nearest = math.inf, -1
        for k, ((tx, ty), (dx, dy), s) in enumerate(zip(tangents, d_i, xi_i, strict=True)):
            distance = abs(tx * dy - ty * dx)
            # within the segment's span; the first of equally near segments wins
            if -1e-12 <= s <= 1.0 + 1e-12 and distance < least:
                least, nearest = distance, k
        # clipped by Python's max and min, which keep an xi of -0.0 (numpy's may not)
        out.append((nearest, min(max(xi_i[nearest], 0.0), 1.0)) if nearest >= 0 else None)
    return out


class OwnedDofsRelation:
    """The kinematics seen as a Siconos-style *relation* over this rank's owned dofs: the
    :class:`~rocking_contact.contact.theta.ContactRelation` of the theta treatment.

    What a velocity-level (theta-scheme) corrector needs, every method collective and
    every result the same on every rank:

    - :attr:`keys`: identity of each contact (the slave node's global index);
    - :meth:`gaps`: gaps (m) at a displacement given as a local dof array;
    - :meth:`operator`: H at that displacement as a scipy CSR matrix (2 rows per contact,
      ``[N_0, T_0, N_1, ...]``) over the *owned* dofs of this rank, so that
      ``allreduce(H @ v[:n_owned])`` is the relative velocity of every contact;
    - :meth:`contact_at`: the contact of a named base point.

    Args:
        kinematics: the pairing and geometry.
        n_owned: owned scalar dofs of this rank (the operator's column count).

    """

    def __init__(self, kinematics: ContactKinematics, n_owned: int):
        self.kin = kinematics
        self.n_owned = n_owned
        # H's columns of the owned contact dofs, in the order of their local dofs: the
        # order of a canonical CSR row (kinematics.local_dofs are distinct)
        mine = np.flatnonzero(kinematics.local_dofs >= 0)
        order = np.argsort(kinematics.local_dofs[mine], kind="stable")
        self._columns = mine[order]
        self._local_columns = kinematics.local_dofs[self._columns].astype(np.int32)

    @property
    def keys(self) -> list[int]:
        """Global node index of each contact's slave node."""
        return [int(g) for g in self.kin.slave.global_nodes]

    def geometry(self, u: np.ndarray) -> ContactGeometry:
        """The geometry at a local dof array of displacements ``u`` (m, owned and
        ghost): gaps (m, positive open), frames, H (:class:`ContactGeometry`)."""
        return self.kin.geometry(self.kin.values(u))

    def gaps(self, u: np.ndarray) -> np.ndarray:
        """Gaps (m); ``+inf`` for slave nodes off the table."""
        return self.kin.gaps(self.kin.values(u))

    def operator(self, u: np.ndarray, geometry: ContactGeometry | None = None,
                 rows: np.ndarray | None = None) -> sp.csr_matrix:
        """H at ``u`` (local array, m) over this rank's owned dofs (columns it does not own
        are dropped): rows ``[N_0, T_0, N_1, ...]``, ``H v`` the normal and tangential
        relative velocities, slave minus master (m/s; normal positive opening);
        ``geometry``, if given, is :meth:`geometry` at ``u`` already computed; ``rows``,
        if given, the rows of H to keep, in that order (the matrix scipy's ``[rows]`` of
        the whole one gives, without its indexing: 40 us a step)."""
        H = (geometry if geometry is not None else self.geometry(u)).H
        H = H[:, self._columns] if rows is None else H[np.ix_(rows, self._columns)]
        # The nonzero entries row by row in increasing column: the canonical CSR matrix
        # (what a COO matrix of them converts to), built without the conversion.
        rows, cols = np.nonzero(H)
        indptr = np.zeros(H.shape[0] + 1, dtype=np.int32)
        np.cumsum(np.bincount(rows, minlength=H.shape[0]), out=indptr[1:])
        return sp.csr_matrix((H[rows, cols], self._local_columns[cols], indptr),
                             shape=(H.shape[0], self.n_owned))

    def contact_at(self, point: str) -> int | None:
        """Index of the contact whose slave node is the named point (None if none)."""
        return self.kin.named.get(point)


def without_columns(H: sp.csr_matrix, columns: np.ndarray) -> sp.csr_matrix:
    """``H`` with its entries in ``columns`` removed: the matrix, entry order included, of
    ``H @ diag(keep)`` (``keep`` 0 on ``columns``, 1 elsewhere), whose product each step
    cost a sparse-sparse multiplication (1.6 ms on the 0.02 m mesh) for a selection.

    Built as scipy's product builds it, so that the sums of ``H @ v`` keep their order and
    rounding: each row's entries in reverse order, the zero ones dropped (explicit zeros
    included). A row with a repeated column (not canonical) is left to the product itself.
    """
    if not H.has_canonical_format:
        keep = np.ones(H.shape[1])
        keep[columns] = 0.0
        product: sp.csr_matrix = (H @ sp.diags(keep)).tocsr()
        return product
    kept = np.ones(H.shape[1], dtype=bool)
    kept[columns] = False
    start, end = H.indptr[:-1], H.indptr[1:]
    row = np.repeat(np.arange(H.shape[0]), end - start)
    mirrored = start[row] + end[row] - 1 - np.arange(H.nnz)  # each row reversed
    cols, values = H.indices[mirrored], H.data[mirrored]
    mask = kept[cols] & (values != 0.0)
    indptr = np.zeros(H.shape[0] + 1, dtype=H.indptr.dtype)
    np.cumsum(np.bincount(row[mask], minlength=H.shape[0]), out=indptr[1:])
    return sp.csr_matrix((values[mask], cols[mask], indptr), shape=H.shape)
