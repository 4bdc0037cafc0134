"""A sample results directory in the FEM results format: a rigid block rocking on a table.

It writes what a FEM SDNV105 run writes (``results.json``, ``history.csv`` with the block
columns, ``fields.pvd`` with one ``.vtu`` per output time holding ``u``, ``von_mises`` and
``sigma_yy``), from a made-up but plausible motion: a rigid rotation about the pivot corner
whose amplitude decays at each impact. It exists to try the viewer and the report before a
FEM run is at hand, and to test them; it is not a solution of anything.

The tilt ``phi`` follows :mod:`rocking_contact.viz.rigid` (``phi > 0``: A lifted).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from rocking_contact.provenance import stack_versions
from rocking_contact.results_io import HISTORY_FILE, RESULTS_FILE, collection_xml, write_history_csv
from rocking_contact.viz.rigid import block_mesh, rigid_displacement

B, L = 0.18, 0.40  # half width, half height (m)
DENSITY, G = 1450.0, 9.81
MASS = 4 * DENSITY * B * L  # kg, thickness 1 m
J_PIVOT = MASS * (B**2 + L**2) / 3 + MASS * (B**2 + L**2)  # about a base corner


def tilt(t: np.ndarray, *, theta0: float = 0.01, first: float = 0.0544,
         ratio: float = 0.75) -> tuple[np.ndarray, list[float]]:
    """Signed tilt phi(t) (rad) and the impact instants (s) of the sample motion.

    The block falls from ``theta0`` onto corner A at ``first``; each later flight is an
    arch about the other corner, ``ratio`` times shorter and ``ratio**2`` times lower than
    the one before (so the angular speed at impact drops by ``ratio``, as in rocking).
    The flights' durations add up to a finite time (as real rocking does): once a flight
    would be shorter than two samples the block stays at rest.
    """
    phi = np.zeros_like(t)
    phi[t <= first] = theta0 * np.cos(0.5 * np.pi * t[t <= first] / first)
    impacts, start, k = [first], first, 1
    shortest = 2 * (t[1] - t[0]) if t.size > 1 else 0.0
    while start < t[-1] and 2 * first * ratio**k > shortest:
        duration, amplitude = 2 * first * ratio**k, theta0 * ratio ** (2 * k)
        inside = (t > start) & (t <= start + duration)
        phi[inside] = (-1) ** k * amplitude * np.sin(np.pi * (t[inside] - start) / duration)
        start += duration
        impacts.append(start)
        k += 1
    return phi, [i for i in impacts if i <= t[-1]]


def _stresses(points: np.ndarray, phi: float, rn: float) -> tuple[np.ndarray, np.ndarray]:
    """Plausible sigma_yy and von Mises (Pa): self-weight plus a load under the pivot."""
    y = points[:, 1]
    pivot_x = 0.0 if phi >= 0 else 2 * B
    r = np.hypot(points[:, 0] - pivot_x, y) + 0.02
    sigma_yy = -DENSITY * G * (2 * L - y) - rn / (np.pi * r) * np.exp(-r / 0.2)
    return sigma_yy, np.abs(sigma_yy)


def write_sample(out_dir: str | Path, *, case: str = "sdnv105_sample", end: float = 0.33,
                 step: float = 1e-3, ratio: float = 0.75, field_every: int = 10,
                 fields: bool = True) -> Path:
    """Write a sample rocking-block results directory; returns ``out_dir``.

    Args:
        out_dir: directory to create (or overwrite).
        case: case name written in ``results.json``.
        end: last instant (s); history every ``step`` (s).
        ratio: how much each flight is lower and shorter than the one before;
            treatments differ by it.
        field_every: one ``fields.pvd`` dataset every ``field_every`` history samples.
        fields: write ``fields.pvd`` (FEM-like) or not (rigid-like).

    """
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    t = np.round(np.arange(0.0, end + step / 2, step), 12)
    phi, impacts = tilt(t, ratio=ratio)
    omega = np.gradient(phi, t)
    pivot_on_o = phi >= 0
    dy_a = np.where(pivot_on_o, 2 * B * np.sin(phi), 0.0)
    dy_o = np.where(pivot_on_o, 0.0, 2 * B * np.sin(-phi))
    weight = MASS * G
    history = {
        "time": t, "DY_O": dy_o, "DY_A": dy_a,
        "VY_O": np.gradient(dy_o, t), "VY_A": np.gradient(dy_a, t),
        "RN_O": np.where(pivot_on_o, weight, 0.0), "RN_A": np.where(pivot_on_o, 0.0, weight),
        "RX_O": np.where(pivot_on_o, -0.3212 * weight, 0.0),
        "RX_A": np.where(pivot_on_o, 0.0, 0.3212 * weight),
        "EKIN_BLOCK": 0.5 * J_PIVOT * omega**2,
        "EELAS": np.full_like(t, 0.05),
        "ENERGY_RESIDUAL": 1e-3 * np.sin(40 * t) * np.exp(-t / 0.1),
    }
    collisions = _collisions(t, impacts, history["EKIN_BLOCK"])
    quantities = {f"collision.{c['index']}.{k}": c[k] for c in collisions
                  for k in ("time", "kinetic_energy")}
    quantities["dy_max_A"] = float(dy_a.max())
    data: dict[str, Any] = {
        "case": case, "kind": "fem" if fields else "rigid", "status": "completed",
        "parameters": {
            "case": {"name": case, "title": f"Sample rocking block ({case})", "kind": "sample",
                     "description": "Made-up rigid rocking written in the FEM results format."},
            "geometry": {"half_width": B, "half_height": L, "thickness": 1.0,
                         "table_left": -0.18, "table_right": 0.54, "table_thickness": 0.08},
            "time": {"start": 0.0, "end": end, "step": step},
            "quantity": [{"name": "dy_max_A", "column": "DY_A", "op": "max", "time": None,
                          "window": [0.0, end]}],
        },
        "quantities": quantities, "impacts": [], "collisions": collisions,
        "checks": _sample_checks(collisions, quantities),
        "timing": {"wall_s": 1.5, "steps": len(t) - 1, "newton_iterations": 3 * len(t)},
        "extra": {},
        "stack": dict(stack_versions(load_libraries=False)),
    }
    if fields:
        data["extra"]["fields"] = "fields.pvd"
        _write_fields(out_dir, t[::field_every], phi[::field_every],
                      history["RN_O"][::field_every] + history["RN_A"][::field_every])
    write_history_csv(history, out_dir / HISTORY_FILE)
    (out_dir / RESULTS_FILE).write_text(json.dumps(data, indent=2) + "\n")
    return out_dir


def _collisions(t: np.ndarray, impacts: list[float],
                ekin: np.ndarray) -> list[dict[str, Any]]:
    """Kinetic-energy maximum in the second half of each flight (Code_Aster's windows
    likewise start after the previous impact's rebound, whose speed equals the next's)."""
    out, previous = [], t[0]
    for k, instant in enumerate(impacts, start=1):
        inside = np.flatnonzero((t > (previous + instant) / 2) & (t <= instant + 1e-12))
        j = inside[np.argmax(ekin[inside])]
        out.append({"index": k, "time": float(t[j]), "kinetic_energy": float(ekin[j])})
        previous = instant
    return out


def _sample_checks(collisions: list[dict[str, Any]],
                   quantities: dict[str, float]) -> list[dict[str, Any]]:
    """References near our values from every source family, one failing on purpose."""
    checks = []
    offsets = {"rigid (sample)": 0.004, "recalage (sample)": -0.006, "LMGC90 (sample)": 0.01,
               "Code_Aster (sample)": 0.002}
    for c in collisions[:3]:
        for source, off in offsets.items():
            for key, tol in (("time", 0.02), ("kinetic_energy", 0.02)):
                name = f"collision.{c['index']}.{key}"
                ref = quantities[name] * (1 + off)
                err = abs(quantities[name] - ref)
                checks.append({
                    "quantity": name, "reference": ref, "value": quantities[name],
                    "abs_error": err, "rel_error": err / abs(ref), "tolerance": tol,
                    "tolerance_kind": "relative", "abs_tolerance": tol * abs(ref),
                    "source": source, "passed": err <= tol * abs(ref), "note": ""})
    ref = 0.0036
    value = quantities["dy_max_A"]
    checks.append({"quantity": "dy_max_A", "reference": ref, "value": value,
                   "abs_error": abs(value - ref), "rel_error": abs(value - ref) / ref,
                   "tolerance": 1e-6, "tolerance_kind": "relative", "abs_tolerance": 3.6e-12,
                   "source": "Code_Aster (sample)", "passed": False,
                   "note": "fails on purpose: the sample's lift is 0.01 rad exactly"})
    return checks


def _write_fields(out_dir: Path, times: np.ndarray, phis: np.ndarray,
                  normal_forces: np.ndarray) -> None:
    mesh = block_mesh(B, L)
    entries = []
    for i, (t, phi, rn) in enumerate(zip(times, phis, normal_forces)):
        frame = mesh.copy()
        frame.point_data["u"] = rigid_displacement(frame.points, float(phi), B)
        syy, vm = _stresses(frame.points, float(phi), float(rn))
        frame.point_data["sigma_yy"] = syy
        frame.point_data["von_mises"] = vm
        name = f"fields_{i:06d}.vtu"
        frame.save(out_dir / name)
        entries.append((float(t), name))
    (out_dir / "fields.pvd").write_text(collection_xml(entries))
