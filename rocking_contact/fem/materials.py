"""Isotropic linear elasticity in plane stress, as small pure functions.

Plane stress (sigma_zz = 0) keeps the shear modulus and replaces Lame's lambda by
``lambda* = 2 lambda mu / (lambda + 2 mu) = E nu / (1 - nu^2)``. The same relation links the
second Piola-Kirchhoff stress S to the Green-Lagrange strain E of a St Venant-Kirchhoff
material when S_zz = 0 (Code_Aster C_PLAN with GROT_GDEP).
"""

from __future__ import annotations

from typing import Any


def shear_modulus(young: Any, poisson: Any) -> Any:
    """Shear modulus E / (2 (1 + nu)) (Pa)."""
    return young / (2.0 * (1.0 + poisson))


def plane_stress_lambda(young: Any, poisson: Any) -> Any:
    """lambda* = E nu / (1 - nu^2) (Pa), the plane-stress Lame coefficient."""
    return young * poisson / (1.0 - poisson * poisson)


def plane_stress(strain: Any, mu: Any, lmbda: Any) -> Any:
    """Stress of a 2x2 strain: ``2 mu e + lambda* tr(e) I`` (UFL or numpy)."""
    import ufl

    return 2.0 * mu * strain + lmbda * ufl.tr(strain) * ufl.Identity(2)


def strain_energy_density(strain: Any, mu: Any, lmbda: Any) -> Any:
    """W = 1/2 stress : strain (J/m^3)."""
    import ufl

    return 0.5 * ufl.inner(plane_stress(strain, mu, lmbda), strain)


def von_mises_plane(stress: Any) -> Any:
    """Von Mises stress of a plane stress state (sigma_zz = 0) (Pa)."""
    import ufl

    sxx, syy, sxy = stress[0, 0], stress[1, 1], stress[0, 1]
    return ufl.sqrt(sxx * sxx + syy * syy - sxx * syy + 3.0 * sxy * sxy)
