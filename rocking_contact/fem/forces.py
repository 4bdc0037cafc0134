"""Internal and damping forces of a plane-stress body: small strain or large rotation.

Both give, at the evaluation point ``(u, v)`` held in two DOLFINx Functions,

- ``internal(out)``: ``f_int(u) + f_damp(u, v)`` (N), owned entries final;
- ``damping(out)``: ``f_damp(u, v)`` alone (N), the same owned entries (for the energy
  balance: one assembly instead of the difference of two internal forces);
- ``tangent(cu, cv, out)``: ``cu d/du + cv d/dv`` of the same (N/m, N.s/m);
- ``strain_energy()``: stored elastic energy (J);
- ``cauchy_stress()``: UFL Cauchy stress for output (Pa).

Rayleigh damping is ``C = a_K K + a_M M`` region by region (``a_K`` =
:attr:`MaterialFields.rayleigh_stiffness`, Code_Aster's AMOR_ALPHA, s; ``a_M`` =
:attr:`MaterialFields.rayleigh_mass`, AMOR_BETA, 1/s). In large rotation the stiffness part
acts on the Green-Lagrange strain rate, ``a_K S(dE/dt) : dE``, so that it vanishes on every
rigid motion, finite rotations included, and reduces to ``a_K K v`` for small displacements.

Small strain (:class:`SmallStrain`) is linear: K and C are assembled once and every force is
a matrix-vector product. Large rotation (:class:`LargeRotation`) is the total Lagrangian
St Venant-Kirchhoff model of Code_Aster's GROT_GDEP: ``F = I + grad u``,
``E = (F^T F - I)/2``, ``S = 2 mu E + lambda* tr(E) I`` (plane stress), forces
``int S : sym(F^T grad w) e dx``; its tangent is UFL's derivative, with the two weights
``cu`` and ``cv`` as ``fem.Constant`` so that a new step size does not recompile forms.

Quadrature: 2 x 2 Gauss points on Q1 quadrilaterals, Code_Aster's rule for QUAD4 (its RIGI
family). It integrates mass and stiffness exactly on parallelograms and only
under-integrates the quadratic terms of large rotation; UFL's estimate for those forms
(degree 6, 4 x 4 points) costs about three times as much for a round-off-sized change.
Other cells keep UFL's estimate: on Q2 the corresponding 3 x 3 let the 2.5 ms
average-acceleration steps of the refined order-2 release create 1.19 J by 0.05 s (the rule
conserves energy on linear systems only; with 0.5 ms steps both rules give the same run,
docs/fem.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import ufl
from dolfinx import cpp, fem, mesh
from dolfinx.fem import petsc as fem_petsc
from petsc4py import PETSc

from rocking_contact.fem.materials import plane_stress, strain_energy_density
from rocking_contact.fem.petsc import assemble_matrix_into, assemble_vector_into


@dataclass
class MaterialFields:
    """Cell-wise material parameters (DG0 Functions) and the out-of-plane thickness.

    Attributes:
        mu: shear modulus (Pa).
        lmbda: plane-stress Lame coefficient (Pa).
        rho: density (kg/m^3).
        rayleigh_stiffness: stiffness-proportional Rayleigh coefficient (s; Code_Aster's
            AMOR_ALPHA, not a time scheme's alpha).
        rayleigh_mass: mass-proportional Rayleigh coefficient (1/s; AMOR_BETA).
        thickness: e (m); every integral is multiplied by it.

    """

    mu: Any
    lmbda: Any
    rho: Any
    rayleigh_stiffness: Any
    rayleigh_mass: Any
    thickness: float


def small_strain(u: Any) -> Any:
    """The small strain, sym(grad u)."""
    return ufl.sym(ufl.grad(u))


def green_lagrange(u: Any) -> Any:
    """E = (F^T F - I) / 2 with F = I + grad u, as (H + H^T + H^T H) / 2 with H = grad u.

    The expanded form matters: F^T F - I subtracts numbers close to 1 and leaves an
    absolute round-off of 1e-16 in E, i.e. a stress noise of 1e-16 E (0.01 Pa for the
    SDNV105 table) that Newton cannot get below.
    """
    h = ufl.grad(u)
    return 0.5 * (h + h.T + h.T * h)


def strain_variation(u: Any, w: Any) -> Any:
    """dE[w] = sym(F^T grad w): first variation (or rate, with w = v) of E at u."""
    f = ufl.Identity(2) + ufl.grad(u)
    return ufl.sym(f.T * ufl.grad(w))


def force_measure(space: Any) -> Any:
    """The cell measure of the force forms: 2 x 2 Gauss points on Q1 quadrilaterals."""
    domain = space.mesh
    q1 = (domain.topology.cell_type == mesh.CellType.quadrilateral
          and space.ufl_element().embedded_superdegree == 1)
    if not q1:
        return ufl.dx(domain=domain)
    return ufl.dx(domain=domain, metadata={"quadrature_degree": 2})


class _ForceForms:
    """Common state: the evaluation point, the material, the thickness and the measure.

    Args:
        u, v: the evaluation point (Functions of the body's space).
        fields: material parameters.

    """

    def __init__(self, u: Any, v: Any, fields: MaterialFields):
        self.u, self.v, self.fields = u, v, fields
        self.space = u.function_space
        self.e = fields.thickness
        self.dx = force_measure(self.space)


class SmallStrain(_ForceForms):
    """Linear elasticity: ``f_int + f_damp = K u + C v`` with K, C assembled once."""

    linear = True

    def __init__(self, u: Any, v: Any, fields: MaterialFields):
        super().__init__(u, v, fields)
        du, w = ufl.TrialFunction(self.space), ufl.TestFunction(self.space)
        m, e, dx = fields, self.e, self.dx
        elastic = ufl.inner(plane_stress(small_strain(du), m.mu, m.lmbda), small_strain(w))
        stiffness = fem.form(elastic * e * dx)
        damping = fem.form((m.rayleigh_stiffness * elastic
                            + m.rayleigh_mass * m.rho * ufl.inner(du, w)) * e * dx)
        self.K = fem_petsc.assemble_matrix(stiffness)
        self.K.assemble()
        self.C = fem_petsc.assemble_matrix(damping)
        self.C.assemble()
        self._work = self.K.createVecLeft()

    def internal(self, out: PETSc.Vec) -> None:
        # Owned entries only: forces feed algebra on owned rows (no ghost update needed).
        self.K.mult(self.u.x.petsc_vec, out)
        self.C.multAdd(self.v.x.petsc_vec, out, out)

    def damping(self, out: PETSc.Vec) -> None:
        self.C.mult(self.v.x.petsc_vec, out)

    def tangent(self, cu: float, cv: float, out: PETSc.Mat) -> None:
        out.zeroEntries()
        out.axpy(cu, self.K, PETSc.Mat.Structure.SAME_NONZERO_PATTERN)
        out.axpy(cv, self.C, PETSc.Mat.Structure.SAME_NONZERO_PATTERN)

    def strain_energy(self) -> float:
        """1/2 u^T K u (J)."""
        self.K.mult(self.u.x.petsc_vec, self._work)
        energy: float = 0.5 * self._work.dot(self.u.x.petsc_vec)
        return energy

    def cauchy_stress(self) -> Any:
        m = self.fields
        return plane_stress(small_strain(self.u), m.mu, m.lmbda)


class LargeRotation(_ForceForms):
    """St Venant-Kirchhoff, total Lagrangian, plane stress (Code_Aster GROT_GDEP)."""

    linear = False

    def __init__(self, u: Any, v: Any, fields: MaterialFields):
        super().__init__(u, v, fields)
        mesh = self.space.mesh
        w, du = ufl.TestFunction(self.space), ufl.TrialFunction(self.space)
        m, e, dx = fields, self.e, self.dx
        elastic = plane_stress(green_lagrange(u), m.mu, m.lmbda)
        viscous = m.rayleigh_stiffness * plane_stress(strain_variation(u, v), m.mu, m.lmbda)
        residual = (ufl.inner(elastic + viscous, strain_variation(u, w))
                    + m.rayleigh_mass * m.rho * ufl.inner(v, w)) * e * dx
        damping = (ufl.inner(viscous, strain_variation(u, w))
                   + m.rayleigh_mass * m.rho * ufl.inner(v, w)) * e * dx
        self.cu = fem.Constant(mesh, PETSc.ScalarType(1.0))
        self.cv = fem.Constant(mesh, PETSc.ScalarType(0.0))
        # their values as arrays on the C++ storage, set in place (the property setter's
        # conversion cost 3 us a weight, twice a Jacobian)
        self._weights = (self.cu.value, self.cv.value)
        jacobian = (self.cu * ufl.derivative(residual, u, du)
                    + self.cv * ufl.derivative(residual, v, du))
        self._residual = fem.form(residual)
        self._damping = fem.form(damping)
        self._jacobian = fem.form(jacobian)
        self._energy = fem.form(strain_energy_density(green_lagrange(u), m.mu, m.lmbda) * e * dx)

    def internal(self, out: PETSc.Vec) -> None:
        assemble_vector_into(self._residual, out)

    def damping(self, out: PETSc.Vec) -> None:
        assemble_vector_into(self._damping, out)

    def tangent(self, cu: float, cv: float, out: PETSc.Mat) -> None:
        self._weights[0][...] = cu
        self._weights[1][...] = cv
        assemble_matrix_into(self._jacobian, out)

    def strain_energy(self) -> float:
        """Stored energy, int W(E) e dx (J)."""
        form = self._energy._cpp_object
        # fem.assemble_scalar's C++ call, without its Python dispatch; its sum over the
        # ranks, without mpi4py's pickled reduction on one rank (the sum of one term)
        energy: float = cpp.fem.assemble_scalar(form, cpp.fem.pack_constants(form),
                                                cpp.fem.pack_coefficients(form))
        comm = self.space.mesh.comm
        return energy if comm.size == 1 else float(comm.allreduce(energy))

    def cauchy_stress(self) -> Any:
        """Cauchy stress F S F^T / det F (in-plane; the thickness change is neglected)."""
        m = self.fields
        f = ufl.Identity(2) + ufl.grad(self.u)
        s = plane_stress(green_lagrange(self.u), m.mu, m.lmbda)
        return f * s * f.T / ufl.det(f)


#: the force model of a body, chosen by the case's ``[kinematics]`` section
Forces = SmallStrain | LargeRotation
