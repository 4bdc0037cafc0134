"""The report as one self-contained HTML page.

Self-contained: the style sheet is inline, the figures are embedded as base64 PNG, and
there is no script, no remote font and no link outside the page, so it opens anywhere
with no network. Collapsed tables use ``<details>`` (no script needed).
"""

from __future__ import annotations

import base64
from html import escape

from rocking_contact.report import document
from rocking_contact.report.document import (
    Block,
    Cell,
    Document,
    Figure,
    Group,
    Paragraph,
    Section,
    Table,
)

CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0 auto;
  max-width: 70rem; padding: 1rem 2rem 3rem; color: #1a1a1a; line-height: 1.45; }
h1 { font-size: 1.7rem; border-bottom: 2px solid #0072B2; padding-bottom: .3rem; }
h2 { font-size: 1.35rem; margin-top: 2.5rem; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: .6rem 0 1.2rem; font-size: .9rem; }
caption { text-align: left; font-weight: 600; padding: .2rem 0; }
th, td { border: 1px solid #d0d0d0; padding: .25rem .5rem; vertical-align: top; }
th { background: #eef3f8; text-align: left; }
tbody tr:nth-child(even) { background: #fafafa; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.code { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; }
td.pass { color: #0a6b3d; font-weight: 600; }
td.fail { color: #b00020; font-weight: 700; }
td.info { color: #666; }
.badge { font-size: .8rem; padding: .1rem .5rem; border-radius: .8rem; margin-left: .6rem;
  vertical-align: middle; color: white; }
.badge.pass { background: #0a6b3d; } .badge.fail { background: #b00020; }
.badge.info { background: #777; }
figure { margin: 1rem 0 1.5rem; }
figure img { max-width: 100%; height: auto; border: 1px solid #e0e0e0; }
figcaption { font-size: .9rem; color: #444; }
details { margin: .5rem 0 1rem; } summary { cursor: pointer; font-weight: 600; }
nav ul { columns: 3; }
"""


def _badge_class(badge: str) -> str:
    return document.VERDICT_CSS.get(badge, "fail")


def _cell(cell: Cell, tag: str = "td") -> str:
    css = f' class="{escape(cell.css)}"' if cell.css else ""
    text = escape(cell.text)
    if cell.link:
        text = f'<a href="#{escape(cell.link)}">{text}</a>'
    return f"<{tag}{css}>{text}</{tag}>"


def _table(table: Table) -> str:
    head = "".join(f'<th scope="col">{escape(h)}</th>' for h in table.header)
    body = "\n".join("<tr>" + "".join(_cell(c) for c in row) + "</tr>" for row in table.rows)
    html = (f'<table id="{escape(table.id)}">\n<caption>{escape(table.caption)}</caption>\n'
            f"<thead><tr>{head}</tr></thead>\n<tbody>\n{body}\n</tbody>\n</table>")
    if table.collapsed:
        n = len(table.rows)
        return (f"<details><summary>{escape(table.caption)} ({n} row{'s' if n != 1 else ''})"
                "</summary>\n"
                f"{html}\n</details>")
    return html


def _figure(figure: Figure) -> str:
    data = base64.b64encode(figure.path.read_bytes()).decode("ascii")
    return (f'<figure><img src="data:image/png;base64,{data}" alt="{escape(figure.caption)}">'
            f"<figcaption>{escape(figure.caption)}</figcaption></figure>")


def _block(block: Block) -> str:
    if isinstance(block, Table):
        return _table(block)
    if isinstance(block, Figure):
        return _figure(block)
    if isinstance(block, Group):
        inner = "\n".join(_block(b) for b in block.blocks)
        return f"<details><summary>{escape(block.title)}</summary>\n{inner}\n</details>"
    assert isinstance(block, Paragraph)
    return f"<p>{escape(block.text)}</p>"


def _section(section: Section) -> str:
    badge = (f'<span class="badge {_badge_class(section.badge)}">{escape(section.badge)}</span>'
             if section.badge else "")
    blocks = "\n".join(_block(b) for b in section.blocks)
    return (f'<section id="{escape(section.id)}">\n<h2>{escape(section.title)}{badge}</h2>\n'
            f"{blocks}\n</section>")


def render(doc: Document, meta: str = "") -> str:
    """The HTML page of a document; ``meta``: a ``<meta>`` element for its head
    (:func:`rocking_contact.report.meta.report_meta`)."""
    toc = "".join(f'<li><a href="#{escape(s.id)}">{escape(s.title)}</a></li>'
                  for s in doc.sections)
    intro = "\n".join(_block(b) for b in doc.intro)
    sections = "\n".join(_section(s) for s in doc.sections)
    meta_line = f"{meta}\n" if meta else ""
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"{meta_line}"
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{escape(doc.title)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n"
            f"<h1>{escape(doc.title)}</h1>\n{intro}\n"
            f"<nav><ul>{toc}</ul></nav>\n{sections}\n</body>\n</html>\n")
