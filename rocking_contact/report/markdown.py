"""The report as Markdown (GitHub flavour): the HTML page's twin, for diffs and browsing.

Figures are linked, not embedded: their PNG files sit next to the Markdown file.
"""

from __future__ import annotations

import os
from pathlib import Path

from rocking_contact.report.document import (
    Block,
    Document,
    Figure,
    Group,
    Paragraph,
    Section,
    Table,
)


def _escape(text: str) -> str:
    """Text safe inside a table cell: pipes escaped, line breaks flattened."""
    return " ".join(text.split()).replace("|", "\\|")


def _table(table: Table) -> str:
    # a table the HTML page collapses stands under a sub-heading of its own: the page opens
    # it on a click, the Markdown shows it whole
    title = f"### {_escape(table.caption)}" if table.collapsed else f"**{table.caption}**"
    lines = [title, "",
             "| " + " | ".join(_escape(h) or " " for h in table.header) + " |",
             "|" + "|".join("---:" if all(r[i].css == "num" for r in table.rows) and table.rows
                            else "---" for i in range(len(table.header))) + "|"]
    for row in table.rows:
        cells = [f"[{_escape(c.text)}](#{c.link})" if c.link else _escape(c.text) for c in row]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _block(block: Block, base: Path) -> str:
    if isinstance(block, Table):
        return _table(block)
    if isinstance(block, Figure):
        link = Path(os.path.relpath(block.path, base)).as_posix()
        return f"![{_escape(block.caption)}]({link})\n\n*{block.caption}*"
    if isinstance(block, Group):
        return "\n\n".join([f"### {_escape(block.title)}",
                            *(_block(b, base) for b in block.blocks)])
    assert isinstance(block, Paragraph)
    return block.text


def _section(section: Section, base: Path) -> str:
    badge = f" — {section.badge}" if section.badge else ""
    parts = [f'<a id="{section.id}"></a>', f"## {section.title}{badge}"]
    parts += [_block(b, base) for b in section.blocks]
    return "\n\n".join(parts)


def render(doc: Document, base: Path) -> str:
    """The Markdown text of a document written in directory ``base`` (for figure links)."""
    parts = [f"# {doc.title}"] + [_block(b, base) for b in doc.intro]
    parts += [_section(s, base) for s in doc.sections]
    return "\n\n".join(parts) + "\n"
