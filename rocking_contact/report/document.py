"""The report as plain data, so that the HTML page and its Markdown twin say the same.

:mod:`rocking_contact.report.content` fills a :class:`Document` from results directories;
:mod:`rocking_contact.report.html` and :mod:`rocking_contact.report.markdown` render it.
Table cells are text already formatted (the numbers a reader sees are the numbers the
tests read back) with a style class (``num``, ``pass``, ``fail``, ``info``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: what an absent or non-finite value shows as
MISSING = "—"
#: verdict -> style class; the verdicts that are no failure of ours are not red ("fail")
VERDICT_CSS = {"PASS": "pass", "NO CHECK": "info", "INCOMPLETE": "info", "INTERRUPTED": "info",
               "UNFINISHED": "info"}


@dataclass
class Cell:
    """One table cell: its text, an optional style class and an optional link to a
    section of the report (its id)."""

    text: str
    css: str = ""
    link: str | None = None


@dataclass
class Table:
    """A table with a stable ``id`` (``checks-sdnd101a``) that tests can find."""

    id: str
    caption: str
    header: list[str]
    rows: list[list[Cell]]
    collapsed: bool = False


@dataclass
class Figure:
    """A PNG on disk (embedded in the HTML, linked from the Markdown)."""

    path: Path
    caption: str


@dataclass
class Paragraph:
    """Plain text (escaped by the renderers)."""

    text: str


@dataclass
class Group:
    """Blocks a reader opens when he wants them (the solver's diagnostic plots): folded
    under ``title`` in the HTML page (``<details>``), under a sub-heading in Markdown."""

    title: str
    blocks: Sequence[Paragraph | Table | Figure]


Block = Paragraph | Table | Figure | Group


@dataclass
class Section:
    """A titled part of the report; ``badge`` is a verdict shown next to the title."""

    id: str
    title: str
    blocks: list[Block] = field(default_factory=list)
    badge: str | None = None


@dataclass
class Document:
    """The whole report."""

    title: str
    intro: list[Block]
    sections: list[Section]


def number(x: Any, digits: int = 7) -> str:
    """A number with ``digits`` significant digits; :data:`MISSING` for None or non-finite."""
    if x is None or isinstance(x, bool):
        return MISSING if x is None else str(x).lower()
    if isinstance(x, int):
        return str(x)
    if isinstance(x, float):
        return f"{x:.{digits}g}" if math.isfinite(x) else MISSING
    return str(x)


def num(x: Any, digits: int = 7) -> Cell:
    """A right-aligned number cell."""
    return Cell(number(x, digits), "num")
