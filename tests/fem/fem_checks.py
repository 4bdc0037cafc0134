"""The verification problems of the elastic block, as functions returning numbers.

Used in-process by the pytest tests (serial) and as a script under ``mpiexec`` by
``test_mpi.py``, which compares the parallel numbers with the serial ones::

    mpiexec -n 2 python tests/fem/fem_checks.py out.json

Every function builds its own small problem; values are global (same on every rank).
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np
from mpi4py import MPI
from textbook_schemes import textbook_amplification  # tests/fem, beside this file

import rocking_contact  # noqa: F401  (prepares PETSc/MPI before dolfinx)
from rocking_contact.block import Geometry, Materials, Preload, block_material
from rocking_contact.fem.body import ElasticBody
from rocking_contact.fem.constraints import Prescribed, fix
from rocking_contact.fem.modal import eigenmodes
from rocking_contact.fem.preload import gravity_supports, static_preload
from rocking_contact.fem.probes import Recorder
from rocking_contact.geometry.layout import MeshSpec
from rocking_contact.geometry.mesh import create_block_mesh
from rocking_contact.solvers.driver import StepDriver
from rocking_contact.solvers.newton import NewtonSolver
from rocking_contact.solvers.step import StepProblem
from rocking_contact.time import HHT, Newmark, Scheme, Static, Theta, alpha_modified_newmark
from rocking_contact.time.analysis import amplification_matrix

COMM = MPI.COMM_WORLD
GEOMETRY = Geometry()
B, L = GEOMETRY.half_width, GEOMETRY.half_height
RHO, G = 1450.0, 9.81


def block_body(kinematics: str = "small_strain", *, size: float = 0.04, order: int = 1,
               layout: str = "structured", table: bool = False, poisson: float = 0.2,
               rayleigh_stiffness: float = 0.0, rayleigh_mass: float = 0.0,
               gravity: float = G) -> ElasticBody:
    """The SDNV105 block (and table if asked), with chosen damping and Poisson ratio."""
    spec = MeshSpec(layout=layout, element_size=size, order=order, table=table)
    block = replace(block_material(), poisson=poisson, rayleigh_stiffness=rayleigh_stiffness,
                    rayleigh_mass=rayleigh_mass)
    mesh = create_block_mesh(COMM, GEOMETRY, spec)
    return ElasticBody(mesh, Materials(block=block), thickness=1.0, gravity=gravity,
                       kinematics=kinematics)


def stepper(body: ElasticBody, prescribed: Sequence[Prescribed] = (),
            prefix: str = "check_") -> tuple[StepProblem, StepDriver]:
    problem = StepProblem(body, prescribed)
    driver = StepDriver(problem, NewtonSolver(problem, prefix=prefix), max_halvings=0)
    return problem, driver


def clamped(body: ElasticBody) -> list[Prescribed]:
    return [fix(body, "CONHAUT", ["DX", "DY"])]


# -- modal -----------------------------------------------------------------------------
def extension_frequency(size: float, order: int = 1) -> float:
    """First vertical-extension frequency of the block clamped on its base (Hz)."""
    body = block_body(size=size, order=order)
    modes = eigenmodes(body, clamped(body), n=6, target_hz=6357.0)
    return max(modes, key=lambda m: m.effective_mass[1]).frequency


def bar_frequency() -> float:
    """Clamped-free bar of length 2l: c / (4 * 2l) (Hz)."""
    return math.sqrt(block_material().young / RHO) / (8 * L)


# -- one mode through a scheme -------------------------------------------------------------
def first_mode(body: ElasticBody) -> tuple[float, np.ndarray]:
    """(omega (rad/s), M-normalised shape) of the first mode of the clamped block."""
    mode = eigenmodes(body, clamped(body), n=1, target_hz=0.0)[0]
    return 2 * math.pi * mode.frequency, mode.shape


def modal_run(scheme: Scheme, omega_h: float, n_steps: int, *, xi: float = 0.0,
              record: Callable[[StepProblem], None] | None = None
              ) -> tuple[StepProblem, float, np.ndarray]:
    """The clamped block started on its first mode (u0 = phi, v0 = 0), no gravity.

    With stiffness-proportional damping ``alpha = 2 xi / omega`` the mode's damping ratio
    is ``xi``. Returns the problem after ``n_steps`` steps of ``h = omega_h / omega``,
    omega and the mode shape.
    """
    probe = block_body(gravity=0.0)
    omega, shape = first_mode(probe)
    body = block_body(gravity=0.0, rayleigh_stiffness=2 * xi / omega)
    problem, driver = stepper(body, clamped(body))
    problem.set_state(u=1e-6 * shape, t=0.0)
    problem.initial_acceleration()
    if record is not None:
        driver.observers.append(lambda p, _info: record(p))
    h = omega_h / omega
    driver.run(((k + 1) * h, scheme) for k in range(n_steps))
    return problem, omega, shape


def modal_state(problem: StepProblem, shape: np.ndarray) -> np.ndarray:
    """(q, dq/dt, d2q/dt2): the state's projections phi^T M (u, v, a) (M-normalised phi)."""
    body = problem.body
    phi = body.vector()
    with phi.localForm() as local:
        local.array[:] = shape
    m_phi = body.vector()
    body.M.mult(phi, m_phi)
    return np.array([m_phi.dot(f.x.petsc_vec) for f in (problem.u, problem.v, problem.a)])


def modal_decay_error(scheme: Scheme, omega_h: float = 1.0, n_steps: int = 40) -> dict:
    """FEM modal amplitude after n steps vs the textbook amplification matrix.

    The matrix is written here from the schemes' defining equations (not from the
    package's coefficient tables).
    """
    problem, omega, shape = modal_run(scheme, omega_h, n_steps)
    q = modal_state(problem, shape)
    h = omega_h / omega
    a = textbook_amplification(scheme, omega, h)
    s0 = np.array([1e-6, 0.0, -omega**2 * 1e-6])
    predicted = np.linalg.matrix_power(a, n_steps) @ s0
    scale = np.array([1e-6, 1e-6 * omega, 1e-6 * omega**2])
    return {"q": q.tolist(), "predicted": predicted.tolist(),
            "error": float(np.max(np.abs(q - predicted) / scale)),
            "amplitude_ratio": float(math.hypot(q[0], q[1] / omega) / 1e-6),
            "spectral_radius": float(max(abs(np.linalg.eigvals(a))))}


def damped_vibration_error(scheme: Scheme, h_factor: float, xi: float = 0.05,
                           periods: float = 2.0) -> float:
    """|q(T) - q_exact(T)| / q0 for the damped first mode, h = (2 pi / omega) / h_factor."""
    probe = block_body(gravity=0.0)
    omega, _ = first_mode(probe)
    n_steps = int(round(periods * h_factor))
    problem, omega, shape = modal_run(scheme, 2 * math.pi / h_factor, n_steps, xi=xi)
    q = modal_state(problem, shape)[0] / 1e-6
    t = problem.t
    wd = omega * math.sqrt(1 - xi * xi)
    exact = math.exp(-xi * omega * t) * (math.cos(wd * t) + xi * omega / wd * math.sin(wd * t))
    return abs(q - exact)


def spectral_radius_of(scheme: Scheme, omega_h: float) -> float:
    """Package analysis, for comparison with the textbook matrix."""
    a = amplification_matrix(scheme.stage(1.0), omega_h)
    return float(max(abs(np.linalg.eigvals(a))))


# -- energy conservation -------------------------------------------------------------------
def energy_conservation(n_steps: int = 1000, h: float = 2e-5) -> dict:
    """Undamped free vibration of the clamped block (Newmark average acceleration)."""
    body = block_body(gravity=0.0)
    problem, driver = stepper(body, clamped(body))
    from dolfinx import fem

    u0 = fem.Function(body.V)
    u0.interpolate(lambda x: np.vstack([1e-6 * (x[1] / (2 * L)) ** 2, 2e-6 * x[0] * x[1]]))
    problem.set_state(u=u0.x.array, t=0.0)
    problem.initial_acceleration()
    energies: list[float] = []

    def total(p: StepProblem, _info: object = None) -> None:
        body.set_point(p.u.x.array, p.v.x.array)
        energies.append(body.kinetic_energy(p.v.x.petsc_vec) + body.strain_energy())

    total(problem)
    driver.observers.append(total)
    driver.run(((k + 1) * h, Newmark.average_acceleration()) for k in range(n_steps))
    e = np.array(energies)
    recorder = Recorder(body, ["C1"], 2 * B)
    row = recorder.row(problem.t, problem.u.x.array, problem.v.x.array)
    return {"E0": float(e[0]), "E_final": float(e[-1]),
            "max_relative_drift": float(np.max(np.abs(e - e[0])) / e[0]),
            "DX_C1": row["DX_C1"], "VX_C1": row["VX_C1"], "steps": len(e) - 1,
            "jacobian_builds": problem.jacobian_builds}


# -- statics -------------------------------------------------------------------------------
def gravity_statics(poisson: float, size: float = 0.02, order: int = 1) -> dict:
    """Block on a frictionless base under gravity: sigma_yy at cell centres and by rows.

    Returns the largest deviation from -rho g (2l - y) relative to rho g 2l, over all cell
    centres, over the cells above y (for a few y), and over the row averages (the
    resultant over each horizontal row of cells, divided by its area).
    """
    import ufl
    from dolfinx import fem

    body = block_body(size=size, order=order, poisson=poisson)
    problem, driver = stepper(body, gravity_supports(body))
    driver.advance(1.0, Static())
    body.set_point(problem.u.x.array, None)
    mesh = body.V.mesh
    cells_dg = fem.functionspace(mesh, ("DG", 0))
    q = ufl.TestFunction(cells_dg)
    sigma_yy = body.kinematics.cauchy_stress()[1, 1]
    integral = fem.assemble_vector(fem.form(sigma_yy * q * ufl.dx))
    area = fem.assemble_vector(fem.form(q * ufl.dx))
    centre = fem.Expression(ufl.SpatialCoordinate(mesh), cells_dg.element.interpolation_points)
    xy = fem.Function(fem.functionspace(mesh, ("DG", 0, (2,))))
    xy.interpolate(centre)
    n = mesh.topology.index_map(2).size_local
    ys = xy.x.array.reshape(-1, 2)[:n, 1]
    at_centre = fem.Function(cells_dg)
    at_centre.interpolate(fem.Expression(sigma_yy, cells_dg.element.interpolation_points))
    values = at_centre.x.array[:n]
    scale = RHO * G * 2 * L
    deviation = np.abs(values + RHO * G * (2 * L - ys)) / scale
    # Row averages: cells grouped by the height of their centre (structured layout).
    rows_local: dict[float, list[float]] = {}
    for y, s, a in zip(np.round(ys, 9), integral.array[:n], area.array[:n]):
        acc = rows_local.setdefault(float(y), [0.0, 0.0])
        acc[0] += s
        acc[1] += a
    rows: dict[float, list[float]] = {}
    for part in COMM.allgather(rows_local):
        for y, (s, a) in part.items():
            acc = rows.setdefault(y, [0.0, 0.0])
            acc[0] += s
            acc[1] += a
    row_dev = max(abs(s / a + RHO * G * (2 * L - y)) / scale for y, (s, a) in rows.items())

    def worst(mask: np.ndarray) -> float:
        return COMM.allreduce(float(deviation[mask].max()) if mask.any() else 0.0, op=MPI.MAX)

    recorder = Recorder(body, ["C1", "A"], 2 * B)
    row = recorder.row(0.0, problem.u.x.array, problem.v.x.array)
    return {"max_deviation": worst(np.ones_like(ys, bool)),
            "max_deviation_above": {f"{y:g}": worst(ys >= y) for y in (0.1, 0.2, 0.3, 0.4)},
            "row_average_deviation": row_dev,
            "DY_C1": row["DY_C1"], "DX_A": row["DX_A"]}


# -- rigid motions -------------------------------------------------------------------------
def free_fall(kinematics: str, n_steps: int = 10, h: float = 1e-3) -> dict:
    """Unsupported block with Rayleigh damping: acceleration and fall vs g."""
    body = block_body(kinematics, rayleigh_stiffness=1e-4)
    problem, driver = stepper(body)
    problem.set_state(t=0.0)
    problem.initial_acceleration()
    a0 = problem.a.x.array.reshape(-1, 2).copy()
    driver.run(((k + 1) * h, Newmark.average_acceleration()) for k in range(n_steps))
    t = problem.t
    a = problem.a.x.array.reshape(-1, 2)
    u = problem.u.x.array.reshape(-1, 2)
    v = problem.v.x.array.reshape(-1, 2)

    def worst(x: np.ndarray) -> float:
        return COMM.allreduce(float(np.max(np.abs(x))), op=MPI.MAX)

    return {"initial_acceleration_error": worst(a0[:, 1] + G) / G + worst(a0[:, 0]) / G,
            "acceleration_error": worst(a[:, 1] + G) / G + worst(a[:, 0]) / G,
            "fall_error": worst(u[:, 1] + G * t * t / 2) / (G * t * t / 2),
            "velocity_error": worst(v[:, 1] + G * t) / (G * t),
            "fall": float(COMM.allreduce(float(u[0, 1]) if len(u) else 0.0, op=MPI.MIN))}


def rigid_damping_force(kinematics: str, rotation: float = 0.0) -> dict:
    """Rayleigh damping force on rigid velocity fields, relative to a straining field.

    Rigid fields: a translation, and a spin about O at the configuration rotated by
    ``rotation`` (rad; large rotation only: small strain has no finite rotation).
    """
    body = block_body(kinematics, rayleigh_stiffness=1e-4)
    x = body.V.tabulate_dof_coordinates()[:, :2]
    c, s = math.cos(rotation), math.sin(rotation)
    u = np.column_stack([(c - 1) * x[:, 0] - s * x[:, 1], s * x[:, 0] + (c - 1) * x[:, 1]])
    current = x + u
    omega = 2.0  # rad/s
    fields = {"translation": np.tile([1.0, -0.5], (len(x), 1)),
              "spin": omega * np.column_stack([-current[:, 1], current[:, 0]]),
              "stretch": omega * np.column_stack([np.zeros(len(x)), current[:, 1]])}
    out = body.vector()
    norms = {}
    for name, v in fields.items():
        body.set_point(u.ravel(), v.ravel())
        body.damping_force(out)
        norms[name] = out.norm()
    return {"translation": norms["translation"] / norms["stretch"],
            "spin": norms["spin"] / norms["stretch"], "stretch_force": norms["stretch"]}


def rigid_rotation_energy(angle: float = 0.1) -> dict:
    """Strain energy of u = (R - I) X on the block: large rotation vs small strain (J)."""
    values = {}
    for kinematics in ("large_rotation", "small_strain"):
        body = block_body(kinematics, order=2, size=0.04)
        x = body.V.tabulate_dof_coordinates()[:, :2]
        c, s = math.cos(angle), math.sin(angle)
        u = np.column_stack([(c - 1) * x[:, 0] - s * x[:, 1], s * x[:, 0] + (c - 1) * x[:, 1]])
        body.set_point(u.ravel(), None)
        values[kinematics] = body.strain_energy()
    return {"large_rotation": values["large_rotation"], "small_strain": values["small_strain"],
            "ratio": abs(values["large_rotation"]) / values["small_strain"]}


# -- preload -------------------------------------------------------------------------------
def tilt(kinematics: str, pivot: str, layout: str = "aster") -> dict:
    """Static preload (gravity, then C1 pulled by -0.008 m): rotation and lift of A."""
    body = block_body(kinematics, layout=layout, table=True)
    problem, driver = stepper(body)
    static_preload(problem, driver, GEOMETRY, Preload(tilt=0.01, pivot=pivot))
    recorder = Recorder(body, ["O", "A", "C1"], 2 * B)
    row = recorder.row(0.0, problem.u.x.array, problem.v.x.array)
    return {k: row[k] for k in ("THETA", "DY_A", "DX_A", "DX_O", "DX_C1", "DY_C1", "EPOT_GRAV")}


def rigid_tilt_about_o(pivot: str, kinematics: str) -> tuple[float, float]:
    """(theta, lift of A) of a rigid block with C1 pulled by -2 l 0.01 (rad, m)."""
    target = 2 * L * 0.01
    if kinematics == "small_strain":
        return 0.01, 2 * B * 0.01
    if pivot == "O1":
        theta = math.asin(target / (2 * L))
    else:  # b (1 - cos) + 2 l sin = target, Newton
        theta = 0.01
        for _ in range(50):
            f = B * (1 - math.cos(theta)) + 2 * L * math.sin(theta) - target
            theta -= f / (B * math.sin(theta) + 2 * L * math.cos(theta))
    return theta, 2 * B * math.sin(theta)


# -- everything, for the MPI comparison ---------------------------------------------------
def all_checks() -> dict:
    """The numbers test_mpi compares between 1, 2 and 3 ranks."""
    out: dict = {}
    out["modal"] = {"f_0.02": extension_frequency(0.02)}
    energy = energy_conservation(n_steps=200)
    out["energy"] = {k: energy[k] for k in ("E0", "E_final", "DX_C1", "VX_C1")}
    decay = {}
    for name, scheme in (("alpha_newmark", alpha_modified_newmark(-0.2)), ("hht", HHT(-0.2))):
        decay[name] = modal_decay_error(scheme, 1.0, 20)["q"]
    out["decay"] = decay
    out["theta_scheme"] = damped_vibration_error(Theta(0.5), 20.0, periods=1.0)
    gravity = gravity_statics(0.2, size=0.04)
    out["gravity"] = {"DY_C1": gravity["DY_C1"], "DX_A": gravity["DX_A"]}
    out["free_fall"] = {k: free_fall(k, n_steps=5)["fall"]
                        for k in ("small_strain", "large_rotation")}
    out["rigid_rotation"] = {"small_strain": rigid_rotation_energy()["small_strain"]}
    out["tilt"] = tilt("large_rotation", "O1")
    return out


if __name__ == "__main__":
    results = all_checks()
    if COMM.rank == 0:
        with open(sys.argv[1], "w") as fh:
            json.dump(results, fh)
