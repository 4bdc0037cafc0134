"""The discretised elastic bodies: function space, mass, forces, energies.

The semi-discrete equation of motion is ``M a + g(u, v, t) = 0`` with

    g(u, v, t) = f_int(u) + f_damp(u, v) - f_ext(t)            (N)

``M`` is the consistent mass ``int rho a . w e dx`` (assembled once, no boundary
conditions); ``f_ext`` is the weight ``int rho (0, -g) . w e dx``, plus, once the table
shakes (:meth:`ElasticBody.shake`), the drag of the table's frame ``-M (ux(t), uy(t))``: the
motion is solved relative to the table's base, which the table's supports hold.

Forces are evaluated at the point held in :attr:`ElasticBody.u` and :attr:`ElasticBody.v`:
the caller (the step problem) fills these two Functions, owned and ghost values, then asks
for the force or its tangent. Every vector is a ghosted PETSc vector of the body's space.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import ufl
from dolfinx import fem, la
from dolfinx.fem import petsc as fem_petsc
from petsc4py import PETSc

from rocking_contact.block import Material, Materials
from rocking_contact.fem.forces import Forces, LargeRotation, MaterialFields, SmallStrain
from rocking_contact.fem.materials import plane_stress_lambda, shear_modulus
from rocking_contact.fem.petsc import assemble_vector_into, shared_matrix
from rocking_contact.geometry.layout import BLOCK, TABLE
from rocking_contact.geometry.mesh import BlockMesh
from rocking_contact.loads import TableMotion

#: region -> attribute of :class:`~rocking_contact.block.Materials`
REGION_MATERIAL = {BLOCK: "block", TABLE: "table"}


def material_fields(block_mesh: BlockMesh, materials: Materials,
                    thickness: float) -> MaterialFields:
    """DG0 material parameters from the region of each cell."""
    mesh = block_mesh.mesh
    space = fem.functionspace(mesh, ("DG", 0))

    def field(name: str, value: Any) -> fem.Function[np.float64]:
        f: fem.Function[np.float64] = fem.Function(space, name=name)
        for region in block_mesh.regions:
            mat: Material = getattr(materials, REGION_MATERIAL[region])
            f.x.array[block_mesh.cells(region)] = value(mat)
        f.x.scatter_forward()
        return f

    return MaterialFields(
        mu=field("mu", lambda m: shear_modulus(m.young, m.poisson)),
        lmbda=field("lambda", lambda m: plane_stress_lambda(m.young, m.poisson)),
        rho=field("rho", lambda m: m.density),
        rayleigh_stiffness=field("rayleigh_stiffness", lambda m: m.rayleigh_stiffness),
        rayleigh_mass=field("rayleigh_mass", lambda m: m.rayleigh_mass),
        thickness=thickness,
    )


#: gravity (m/s^2) of the force scale of the solvers' tolerances: SDNV105's 9.81, not the
#: standard gravity 9.80665 (discrete.runner.G_STANDARD); a fixed scale, whatever the
#: case's gravity, that every block run's tolerances are made of
FORCE_SCALE_GRAVITY = 9.81


class ElasticBody:
    """The block (and table) as plane-stress elastic bodies with mass, damping and weight.

    Args:
        block_mesh: mesh and named groups.
        materials: ``[material.block]`` and ``[material.table]``.
        thickness: out-of-plane thickness e (m).
        gravity: acceleration of gravity along -y (m/s^2).
        kinematics: ``"small_strain"`` or ``"large_rotation"``.
        order: Lagrange degree of the displacement (the mesh's geometry degree by default).

    """

    def __init__(self, block_mesh: BlockMesh, materials: Materials, *, thickness: float,
                 gravity: float, kinematics: str = "large_rotation", order: int | None = None):
        self.block_mesh = block_mesh
        mesh = block_mesh.mesh
        self.comm = mesh.comm
        degree = order if order is not None else mesh.geometry.cmaps[0].degree
        #: Lagrange degree of the displacement
        self.degree = degree
        self.V = fem.functionspace(mesh, ("Lagrange", degree, (2,)))
        # The space's dof counts, read once: each read of V.dofmap makes new wrappers
        # (2 us), and the step loop asks n_owned a dozen times a step.
        imap, bs = self.V.dofmap.index_map, self.V.dofmap.index_map_bs
        self._n_owned = int(imap.size_local * bs)
        self._n_global = int(imap.size_global * bs)
        self.fields = material_fields(block_mesh, materials, thickness)
        #: evaluation point of the forces: displacement (m) and velocity (m/s)
        self.u = fem.Function(self.V, name="u")
        self.v = fem.Function(self.V, name="v")
        # their arrays, fetched once (each u.x.array is a call into DOLFINx; the point is
        # set a few times a step)
        self._point_arrays = (self.u.x.array, self.v.x.array)
        #: changes whenever the evaluation point is set (:meth:`set_point`, a step
        #: problem's end state), so that a caller can tell that it holds what it left there
        self.point_version = 0
        kinds: dict[str, type[SmallStrain] | type[LargeRotation]] = {
            "small_strain": SmallStrain, "large_rotation": LargeRotation}
        if kinematics not in kinds:
            raise ValueError(f"kinematics: got {kinematics!r}, allowed: {', '.join(kinds)}")
        self.kinematics_name = kinematics
        self.kinematics: Forces = kinds[kinematics](self.u, self.v, self.fields)

        du, w = ufl.TrialFunction(self.V), ufl.TestFunction(self.V)
        e, rho = thickness, self.fields.rho
        dx = ufl.dx(domain=mesh)
        self._mass_form = fem.form(rho * ufl.inner(du, w) * e * dx)
        self.M = fem_petsc.assemble_matrix(self._mass_form)
        self.M.assemble()
        self.gravity = gravity
        # A Constant, not a literal: UFL would drop a zero gravity and leave an empty form.
        self._gravity = fem.Constant(mesh, np.array([0.0, -gravity], dtype=PETSc.ScalarType))
        weight = fem.form(ufl.inner(self._gravity * rho, w) * e * dx)
        self.f_ext = self.vector()
        # The scale of the solvers' force tolerances: the weight vector's norm under
        # FORCE_SCALE_GRAVITY, whatever the case's gravity (a block shaken or thrown
        # without gravity still has its masses; a zero scale would ask for an exact zero).
        self._gravity.value[1] = -FORCE_SCALE_GRAVITY
        assemble_vector_into(weight, self.f_ext)
        #: norm of the bodies' weight vector under FORCE_SCALE_GRAVITY, 9.81 m/s^2 (N)
        self.force_scale = float(self.f_ext.norm())
        self._gravity.value[1] = -gravity
        assemble_vector_into(weight, self.f_ext)
        self._work = self.vector()
        self._masks: dict[str, PETSc.Vec] = {}
        self._table: TableMotion | None = None
        self._table_start = math.inf
        self._unit_drags: list[PETSc.Vec] = []

    # -- vectors and matrices ---------------------------------------------------------
    @property
    def linear(self) -> bool:
        """True for small strain: forces are affine in (u, v), the tangent is constant."""
        return self.kinematics.linear

    def vector(self) -> PETSc.Vec:
        """A new ghosted vector of the displacement space, zero."""
        imap = self.V.dofmap.index_map
        return la.petsc.create_vector([(imap, self.V.dofmap.index_map_bs)])

    def matrix(self) -> PETSc.Mat:
        """A new assembled zero matrix with the nonzero pattern of M (and of every tangent);
        on one process its values are a DOLFINx CSR matrix's, which :meth:`tangent`
        assembles into faster (:func:`~rocking_contact.fem.petsc.shared_matrix`)."""
        if self.comm.size == 1:
            return shared_matrix(self._mass_form, self.M)
        out = self.M.duplicate(copy=False)
        out.zeroEntries()
        return out

    @property
    def n_owned(self) -> int:
        """Number of owned scalar dofs on this rank."""
        return self._n_owned

    def global_rows(self, dofs: np.ndarray) -> np.ndarray:
        """The owned dofs among ``dofs`` (local indices, owned and ghost), as global row
        indices of the body's vectors and matrices (PETSc's integer type), in their order:
        the rows a rank may set, e.g. made identity rows for prescribed dofs."""
        imap, bs = self.V.dofmap.index_map, self.V.dofmap.index_map_bs
        owned = dofs[dofs < imap.size_local * bs]
        rows: np.ndarray = (owned + imap.local_range[0] * bs).astype(PETSc.IntType)
        return rows

    @property
    def n_global(self) -> int:
        """Number of scalar dofs of the whole problem."""
        return self._n_global

    # -- forces -------------------------------------------------------------------------
    def force(self, out: PETSc.Vec, t: float | None = None) -> None:
        """``out = g(u, v, t) = f_int(u) + f_damp(u, v) - f_ext(t)`` at the evaluation point
        (N); ``t`` (s) only matters once the table shakes.

        Owned entries are final; ghost entries are not updated (forces are only combined
        and dotted on owned rows).
        """
        self.kinematics.internal(out)
        out.axpy(-1.0, self.f_ext)
        ux, uy = self.table_acceleration(t)
        if ux or uy:
            # g holds -f_ext: the drag -M u_table enters with the opposite sign.
            out.axpy(ux, self._unit_drags[0])
            out.axpy(uy, self._unit_drags[1])

    # -- the shaking table ----------------------------------------------------------------
    def shake(self, table: TableMotion, start: float) -> None:
        """Apply the table's acceleration from ``start`` (s) on: every force evaluated at
        ``t >= start`` gains the drag ``-M (ux(t), uy(t))`` (N). A still table changes
        nothing."""
        if table.still:
            return
        self._table, self._table_start = table, start
        self._unit_drags = []
        for component in (0, 1):
            ones, drag = self.vector(), self.vector()
            with ones.localForm() as local:
                local.array[component::2] = 1.0
            self.M.mult(ones, drag)  # M times a uniform unit field: int rho e_i . w e dx
            drag.ghostUpdate(addv=PETSc.InsertMode.INSERT, mode=PETSc.ScatterMode.FORWARD)
            ones.destroy()
            self._unit_drags.append(drag)

    @property
    def shaking(self) -> bool:
        """True once :meth:`shake` was given a moving table."""
        return self._table is not None

    def table_acceleration(self, t: float | None) -> tuple[float, float]:
        """``(ux, uy)`` (m/s^2) the bodies feel at ``t``: zero without a table, before it
        starts (the static preload comes before :meth:`shake`), or when no time is given
        (a static reaction)."""
        if self._table is None or t is None or t < self._table_start:
            return 0.0, 0.0
        return self._table.at(t)

    def drag_work(self, t0: float, t1: float, du: np.ndarray) -> float:
        """Work of the drag over a step from ``t0`` to ``t1`` for the owned displacement
        increment ``du`` (J, trapezoidal rule; collective)."""
        if self._table is None:
            return 0.0
        a0, a1 = self.table_acceleration(t0), self.table_acceleration(t1)
        n = self.n_owned
        local = -0.5 * sum((a0[i] + a1[i]) * float(self._unit_drags[i].array[:n] @ du)
                           for i in (0, 1))
        work: float = self.comm.allreduce(local)
        return work

    def damping_force(self, out: PETSc.Vec) -> None:
        """``f_damp(u, v)`` alone at the evaluation point (N): the Rayleigh terms of the
        internal force, assembled by themselves (owned entries final)."""
        self.kinematics.damping(out)

    def tangent(self, cu: float, cv: float, out: PETSc.Mat) -> None:
        """``out = cu dg/du + cv dg/dv`` at the evaluation point (no boundary conditions)."""
        self.kinematics.tangent(cu, cv, out)

    # -- energies (J) ---------------------------------------------------------------------
    def region_mask(self, region: str) -> PETSc.Vec:
        """1 on the dofs of a region's cells, 0 elsewhere (cached)."""
        if region not in self._masks:
            mask = self.vector()
            dofs = self.block_mesh.dofs(self.V, region)
            with mask.localForm() as local:
                local.array[dofs] = 1.0
            self._masks[region] = mask
        return self._masks[region]

    def kinetic_energy(self, v: PETSc.Vec, region: str | None = None) -> float:
        """``1/2 v^T M v`` (J) of the velocity ``v`` (m/s), over one region's dofs if given.

        The bodies share no dof, so M is block diagonal between them and the restriction
        of ``v . (M v)`` to a region's dofs is that region's kinetic energy.
        """
        self.M.mult(v, self._work)
        if region is not None:
            self._work.pointwiseMult(self._work, self.region_mask(region))
        energy: float = 0.5 * self._work.dot(v)
        return energy

    def strain_energy(self) -> float:
        """Stored elastic energy at the evaluation displacement."""
        return self.kinematics.strain_energy()

    def gravity_potential(self, u: PETSc.Vec) -> float:
        """``-f_ext . u = int rho g u_y e dx``: potential of gravity from the reference (J)."""
        potential: float = -self.f_ext.dot(u)
        return potential

    def set_point(self, u: PETSc.Vec | np.ndarray | None,
                  v: PETSc.Vec | np.ndarray | None) -> None:
        """Copy a state (ghosted vectors or local arrays) into the evaluation point; None is
        zero."""
        self.point_version += 1
        for target, src in zip(self._point_arrays, (u, v), strict=True):
            if src is None:
                target[:] = 0.0
            elif isinstance(src, np.ndarray):
                target[:] = src
            else:
                with src.localForm() as local:
                    target[:] = local.array_r
