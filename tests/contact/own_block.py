"""A block of a user's own, the audit of session 25's, for the tests of what it found."""


def tall_block(parent: str, extra: str = "") -> str:
    """The case file of audit s25's own block: a 0.2 m x 1.0 m granite block (E = 5e10 Pa,
    nu = 0.25, 2700 kg/m^3) released at 0.02 and run to 0.15 s (its first impact, rigid:
    0.1242 s), extending the shipped case ``parent`` without its checks; ``extra``: more
    TOML tables."""
    return f"""extends = "{parent}"
quantity = []
reference = []
[case]
name = "tall"
description = "a 0.2 m x 1.0 m granite block released at 0.02"
[geometry]
half_width = 0.1
half_height = 0.5
[material.block]
young = 5.0e10
poisson = 0.25
density = 2700.0
[preload]
tilt = 0.02
[initial]
preload_steps = 4
[time]
end = 0.15
[collisions]
windows = [[0.0, 0.15]]
{extra}"""
