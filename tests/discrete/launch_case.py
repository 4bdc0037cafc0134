"""The case the discrete tests give their shocks and loads to: 10 kg on a 1000 N/m spring
to ground along x (DY and DZ fixed), launched at 1 m/s along x (its amplitude
sqrt(m / k) v0 is 0.1 m, its period 2 pi / 10 s)."""

from pathlib import Path

HEAD = """
[case]
name = "launch"
title = "a mass on a spring launched along x"
kind = "discrete"
description = "10 kg on a 1000 N/m spring, launched at 1 m/s along x."

[[model.node]]
name = "M"
mass = 10.0
fixed = ["DY", "DZ"]
v0 = [{v0}, 0.0, 0.0]

[[model.spring]]
name = "K"
nodes = ["M"]
stiffness = [1000.0, 0.0, 0.0]
"""


def launch_case(folder: Path, *tables: str, end: float = 1.0, step: float = 1e-4,
                v0: float = 1.0) -> Path:
    """launch.toml in ``folder``: the mass, then ``tables`` (TOML text: shocks, support,
    gravity), run to ``end`` (s) by steps of ``step`` (s)."""
    path = folder / "launch.toml"
    path.write_text("\n".join([HEAD.format(v0=v0), *tables,
                               f"[time]\nend = {end!r}\nstep = {step!r}\n"]))
    return path


def wall(gap: float) -> str:
    """A 1e6 N/m wall ``gap`` (m) ahead of the mass along x."""
    return (f'[[model.shock]]\nname = "WALL"\nnode = "M"\nnormal = [1.0, 0.0, 0.0]\n'
            f"gap = {gap!r}\nkn = 1.0e6\n")


#: a floor pad pressed along the mass's held DY with its weight, 98.1 N (it cannot open),
#: with Coulomb friction mu = 0.2
FLOOR = """
[[model.shock]]
name = "FLOOR"
node = "M"
normal = [0.0, -1.0, 0.0]
gap = -1.0
kn = 98.1
kt = 1.0e6
mu = 0.2
friction = "exact"
"""
