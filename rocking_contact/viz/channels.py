"""Names and units of the history columns.

A history column is named ``<COMPONENT>_<WHERE>`` in Code_Aster style: ``DY_O`` is the
vertical displacement of node O, ``FN_NO1`` the normal force of shock NO1, ``EKIN_BLOCK``
the kinetic energy of the block. A few whole names (``ENERGY_RESIDUAL``,
``CONTACT_ITERATIONS``) are channels of their own. Unknown components are still drawn,
labelled with their raw name.

``PN`` depends on the run's kind: a discrete shock's penetration (m), a block's normal
impulse on the table over the step (N.s, the theta-scheme of SDNV105 D).

The words follow docs/outputs.md's column table, signs included: ``RX`` and ``PX`` are the
block's force and impulse on the table along x (Code_Aster's sign, the opposite of the
table's reaction on the block), ``THETA`` is positive counter-clockwise: A, the base's
corner at the larger x, above O. (Descriptions start lower case and hold no capital: the
plots' titles and the report's captions capitalise them with ``str.capitalize``.)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

#: component -> (description, SI unit)
COMPONENTS: dict[str, tuple[str, str]] = {
    "DX": ("displacement x", "m"),
    "DY": ("displacement y", "m"),
    "DZ": ("displacement z", "m"),
    "VX": ("velocity x", "m/s"),
    "VY": ("velocity y", "m/s"),
    "VZ": ("velocity z", "m/s"),
    "AX": ("acceleration x", "m/s²"),
    "AY": ("acceleration y", "m/s²"),
    "AZ": ("acceleration z", "m/s²"),
    "FN": ("normal force", "N"),
    "FT": ("tangential force", "N"),
    "VN": ("normal velocity", "m/s"),
    "PN": ("normal impulse on the table", "N.s"),
    "PX": ("horizontal impulse on the table", "N.s"),
    "RN": ("normal reaction", "N"),
    "RX": ("force of the block on the table along x", "N"),
    "RY": ("reaction y", "N"),
    "EKIN": ("kinetic energy", "J"),
    "EELAS": ("elastic energy", "J"),
    "EDAMP": ("energy dissipated by damping", "J"),
    "ETOT": ("total energy", "J"),
    "THETA": ("counter-clockwise tilt of the base", "rad"),
    "DT": ("time step", "s"),
    "NEWTON": ("Newton iterations per step", ""),
    "OMEGA": ("angular velocity", "rad/s"),
    "CONTACTS": ("closed contacts", ""),
    "SLIDING": ("sliding contacts", ""),
}

#: kind -> the components that mean something else in that kind's runs
KIND_COMPONENTS: dict[str, dict[str, tuple[str, str]]] = {
    "discrete": {"PN": ("penetration", "m")},
}

#: whole column names that are not ``<COMPONENT>_<WHERE>``
WHOLE_NAMES: dict[str, tuple[str, str]] = {
    "ENERGY_RESIDUAL": ("energy balance residual", "J"),
    "EPOT_GRAV": ("gravity potential energy", "J"),
    "ECONTACT": ("energy taken by the contact", "J"),
    "EFRICTION": ("work of the friction forces", "J"),
    "ESPRING": ("energy stored in the shock springs", "J"),
    "ESTICK": ("energy the springs' friction law supplied", "J"),
    "GAP_MIN": ("smallest gap of the base (negative: into the table)", "m"),
    "EPROJECTION": ("work of the position projection", "J"),
    "ETABLE": ("work of the table's drag", "J"),
    "CONTACT_ITERATIONS": ("contact iterations per step", ""),
}


#: locations that are regions, not points: the column is the resultant over them (the
#: sum over all the region's contact nodes, the corners' included), in legend words
REGIONS: dict[str, str] = {"BASE": "summed over the whole base"}


@dataclass(frozen=True)
class Channel:
    """One history column of a run of ``kind``, split into its component and location."""

    name: str
    component: str
    where: str
    kind: str = ""

    @classmethod
    def parse(cls, name: str, kind: str | None = None) -> Channel:
        """Split ``DY_O`` into component ``DY`` and location ``O``; ``kind`` is the run's
        (``results.json`` ``kind``), which fixes what ``PN`` means."""
        if name in WHOLE_NAMES:
            return cls(name, name, "", kind or "")
        component, _, where = name.partition("_")
        return cls(name, component, where, kind or "")

    def _meaning(self) -> tuple[str, str] | None:
        """(description, SI unit), None when the column is unknown."""
        if self.name in WHOLE_NAMES:
            return WHOLE_NAMES[self.name]
        own = KIND_COMPONENTS.get(self.kind, {})
        return own.get(self.component) or COMPONENTS.get(self.component)

    @property
    def description(self) -> str:
        """What the column holds, in words (the raw name when unknown)."""
        meaning = self._meaning()
        return meaning[0] if meaning else self.name

    @property
    def unit(self) -> str:
        """SI unit of the column, empty when unknown."""
        meaning = self._meaning()
        return meaning[1] if meaning else ""

    @property
    def is_resultant(self) -> bool:
        """Whether the column sums a region's contacts (``RN_BASE``) rather than holds a
        point's: it equals the reaction of the one point that carries the block."""
        return self.where in REGIONS

    @property
    def label(self) -> str:
        """Legend text: ``displacement y at O (DY_O)``, ``kinetic energy of the block ...``."""
        if self.description == self.name:
            return self.name
        if not self.where:
            return f"{self.description} ({self.name})"
        # energies belong to a body (EKIN_BLOCK), the other channels sit at a node or shock
        # or are a resultant over a region (RN_BASE)
        where = (f"of the {self.where.lower()}" if self.unit == "J"
                 else REGIONS.get(self.where, f"at {self.where}"))
        return f"{self.description} {where} ({self.name})"


def sentence(description: str) -> str:
    """A description as a title or caption starts: its first letter capital, the rest as
    written (``str.capitalize`` lowered the rest: "O-A" read "o-a")."""
    return description[:1].upper() + description[1:]


def columns_of(history: Iterable[str], components: Iterable[str]) -> list[str]:
    """The history columns whose component is one of ``components``, in history order."""
    wanted = set(components)
    return [name for name in history if name != "time" and Channel.parse(name).component in wanted]


def kinetic_energy_column(history: Iterable[str]) -> str | None:
    """The block's kinetic-energy column (``EKIN_BLOCK``, or any ``EKIN*``), if any."""
    names = [n for n in history if n != "time"]
    for preferred in ("EKIN_BLOCK", "EKIN"):
        if preferred in names:
            return preferred
    return next((n for n in names if n.startswith("EKIN")), None)
