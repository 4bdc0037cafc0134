"""History values of a block run: named-point motions, rotation of the base, energies.

Every value is global (the same on every rank): point values come from the rank owning
the dof, energies from collective dot products.

Columns:

- ``DX_<P>``, ``DY_<P>`` (m), ``VX_<P>``, ``VY_<P>`` (m/s) for each named point P;
- ``THETA``: rotation of the base chord OA (rad, > 0 when A is higher than O);
- ``EKIN_BLOCK``, ``EKIN``: kinetic energy of the block, of everything (J);
- ``EELAS``: stored elastic energy (J); ``EPOT_GRAV``: potential of gravity measured from
  the undeformed configuration, ``int rho g u_y e dx`` (J);
- ``ETOT = EKIN + EELAS + EPOT_GRAV`` (J): constant without damping and dissipation.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from mpi4py import MPI

from rocking_contact.fem.body import ElasticBody
from rocking_contact.geometry.layout import BLOCK


class PointProbe:
    """Displacement and velocity components at named nodes.

    Args:
        body: the bodies (named groups come from its mesh).
        names: named points.

    """

    def __init__(self, body: ElasticBody, names: Sequence[str]):
        self.body = body
        self.names = list(names)
        slots, dofs = [], []
        for k, name in enumerate(self.names):
            for c in (0, 1):
                found = body.block_mesh.dofs(body.V, name, c)
                owned = found[found < body.n_owned]
                if len(owned):
                    slots.append(2 * k + c)
                    dofs.append(owned[0])
        self._slots = np.asarray(slots, dtype=np.int64)
        self._dofs = np.asarray(dofs, dtype=np.int64)
        n = 2 * len(self.names)
        # each column's name and its slot in the reduced values, made once (a row a step)
        self._columns = [(column, slot) for k, name in enumerate(self.names)
                         for column, slot in ((f"DX_{name}", 2 * k), (f"DY_{name}", 2 * k + 1),
                                              (f"VX_{name}", n + 2 * k),
                                              (f"VY_{name}", n + 2 * k + 1))]

    def sample(self, u: np.ndarray, v: np.ndarray) -> dict[str, float]:
        """``DX_<P>``, ``DY_<P>`` (m) and ``VX_<P>``, ``VY_<P>`` (m/s) of the named points,
        from local arrays (owned and ghost) of the displacement ``u`` (m) and the velocity
        ``v`` (m/s), components along global x and y (up), as the fields hold them
        (from the undeformed state; relative to the table on a shaking one).

        Collective: every rank of the body's communicator must call it (the values come
        from the ranks that own the points, by one ``Allreduce``); each gets them all.
        """
        n = 2 * len(self.names)
        local = np.zeros(2 * n)
        local[self._slots] = u[self._dofs]
        local[n + self._slots] = v[self._dofs]
        comm = self.body.comm
        if comm.size > 1:
            total = np.zeros_like(local)
            comm.Allreduce(local, total, op=MPI.SUM)
        else:  # one rank holds every value: its reduction would copy them
            total = local
        return {column: total[slot] for column, slot in self._columns}


def base_rotation(values: dict[str, float], base_width: float) -> float:
    """Rotation of the chord OA from the O and A displacements ``DX_O``, ``DY_O``,
    ``DX_A``, ``DY_A`` (m) and the undeformed chord's length ``base_width`` (m): rad,
    positive when A is higher than O (counter-clockwise)."""
    dx = base_width + values["DX_A"] - values["DX_O"]
    return math.atan2(values["DY_A"] - values["DY_O"], dx)


def energies(body: ElasticBody, u: np.ndarray, v: np.ndarray) -> dict[str, float]:
    """Kinetic, elastic and gravity energies (J) of the state ``u`` (m), ``v`` (m/s) given
    as local arrays (owned and ghost): ``EKIN_BLOCK``, ``EKIN``, ``EELAS``, ``EPOT_GRAV``
    and their sum ``ETOT``.

    Side effect: it copies ``u`` and ``v`` into the body's evaluation point
    (``body.set_point``: ``body.u``, ``body.v``), which stays there; a caller that needs
    the point it had sets it again. Collective: every rank must call it (assembly and dot
    products over the communicator).
    """
    body.set_point(u, v)
    kin = body.kinetic_energy(body.v.x.petsc_vec)
    kin_block = body.kinetic_energy(body.v.x.petsc_vec, BLOCK)
    elastic = body.strain_energy()
    potential = body.gravity_potential(body.u.x.petsc_vec)
    return {"EKIN_BLOCK": kin_block, "EKIN": kin, "EELAS": elastic,
            "EPOT_GRAV": potential, "ETOT": kin + elastic + potential}


class Recorder:
    """Builds history rows of a state: points, THETA (if O and A are recorded), energies.

    Args:
        body: the bodies.
        points: named points to record.
        base_width: 2b (m), for THETA.

    """

    def __init__(self, body: ElasticBody, points: Sequence[str], base_width: float):
        self.body = body
        self.probe = PointProbe(body, points)
        self.base_width = base_width
        self.has_theta = "O" in points and "A" in points

    def row(self, t: float, u: np.ndarray, v: np.ndarray) -> dict[str, float]:
        """The history row of the state at time ``t`` (s), ``u`` and ``v`` local dof arrays
        of the displacement (m) and the velocity (m/s): ``time`` (s), ``DX_<P>``, ``DY_<P>``
        (m) and ``VX_<P>``, ``VY_<P>`` (m/s) of the recorded points, ``THETA`` (rad,
        counter-clockwise, when O and A are recorded) and the energies (J) of
        :func:`energies`, which leaves ``u``, ``v`` in the body's evaluation point.
        Collective: every rank must call it."""
        out = {"time": t}
        values = self.probe.sample(u, v)
        out.update(values)
        if self.has_theta:
            out["THETA"] = base_rotation(values, self.base_width)
        out.update(energies(self.body, u, v))
        return out
