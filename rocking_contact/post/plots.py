"""Time-history plots written by every run (matplotlib, no display needed)."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from rocking_contact.results import RunResult  # noqa: E402

#: history column prefixes grouped into one figure each: (file stem, title, y label)
GROUPS = {
    ("DX", "DY", "DZ"): ("displacement", "Displacements", "displacement (m)"),
    ("VX", "VY", "VZ"): ("velocity", "Velocities", "velocity (m/s)"),
    ("FN", "FT"): ("shock_force", "Shock forces (normal FN, tangential FT)", "force (N)"),
}


def _columns(history: dict[str, np.ndarray], prefixes: tuple[str, ...]) -> list[str]:
    return [k for k in history if k.split("_", 1)[0] in prefixes]


def plot_run(result: RunResult, out_dir: Path) -> list[Path]:
    """Draw the main time histories of a run into ``out_dir``; returns the files."""
    written = []
    t = result.history["time"]
    for prefixes, (stem, title, ylabel) in GROUPS.items():
        cols = _columns(result.history, prefixes)
        cols = [c for c in cols if np.any(result.history[c] != 0)] or cols[:1]
        if not cols:
            continue
        fig, ax = plt.subplots(figsize=(8, 4.5), layout="constrained")
        for c in cols:
            ax.plot(t, result.history[c], label=c, lw=1.2)
        ax.set(title=f"{result.case}: {title}", xlabel="time (s)", ylabel=ylabel)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=9)
        path = out_dir / f"{stem}.png"
        fig.savefig(path, dpi=110)
        plt.close(fig)
        written.append(path)
    return written
