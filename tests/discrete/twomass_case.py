"""A new user's case (S29 U1 #5): two masses in the x-y plane, N2 launched at (1, 0.5) m/s
towards a stop 5 mm ahead along x with friction (mu = 0.3, regularised), central
differences at 1e-5 s. Its stop is hit every 0.134 s (4 impacts in 0.5 s)."""

from pathlib import Path

TWOMASS = """
[case]
name = "twomass"
title = "two masses, a stop 5 mm away with friction"
kind = "discrete"

[[model.node]]
name = "N1"
mass = 10.0
fixed = ["DY", "DZ"]

[[model.node]]
name = "N2"
mass = 5.0
fixed = ["DZ"]
v0 = [1.0, 0.5, 0.0]

[[model.spring]]
name = "K1"
nodes = ["N1"]
stiffness = [1.0e4, 0.0, 0.0]

[[model.spring]]
name = "K12"
nodes = ["N1", "N2"]
stiffness = [2.0e4, 1.0e3, 0.0]

[[model.shock]]
name = "STOP"
node = "N2"
normal = [1.0, 0.0, 0.0]
gap = 0.005
kn = 1.0e7
cn = 100.0
mu = 0.3
kt = 1.0e6
ct = 500.0

[solver]
scheme = "central_difference"

[time]
start = 0.0
end = 0.5
step = 1.0e-5
"""


def twomass_case(folder: Path) -> Path:
    """twomass.toml in ``folder``."""
    path = folder / "twomass.toml"
    path.write_text(TWOMASS)
    return path
