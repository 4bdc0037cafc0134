"""Every relative link of the README and the docs leads somewhere: the file exists and, for
``#anchor`` links, the target has a heading with that anchor (GitHub's: lower case,
punctuation but ``-`` and ``_`` dropped, spaces as ``-``, a repeated heading numbered
``-1``, ``-2``). The docs' contents lists link their sections and get restructured."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

#: a markdown link's target, ``[text](target)``
LINK = re.compile(r"\]\(([^()\s]+)\)")


def _unfenced(text: str) -> str:
    """``text`` without its fenced code blocks, where a ``#`` line is no heading."""
    return re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)


def _prose(text: str) -> str:
    """``text`` without its code blocks and code spans, where ``](`` is no link."""
    return re.sub(r"`[^`\n]*`", "", _unfenced(text))


def anchors(page: Path) -> set[str]:
    """The anchors GitHub gives the headings of ``page``."""
    seen: dict[str, int] = {}
    out = set()
    for line in _unfenced(page.read_text(encoding="utf-8")).splitlines():
        heading = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not heading:
            continue
        slug = re.sub(r"[^\w\- ]", "", heading.group(1).lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        out.add(slug if count == 0 else f"{slug}-{count}")
    return out


def _links() -> list[tuple[str, str]]:
    return [(str(page.relative_to(ROOT)), target) for page in PAGES
            for target in LINK.findall(_prose(page.read_text(encoding="utf-8")))
            if not re.match(r"[a-z]+:", target)]


LINKS = _links()


def test_the_pages_have_links():
    assert len(LINKS) > 50


@pytest.mark.parametrize(("page", "target"), LINKS, ids=[f"{p}:{t}"[:60] for p, t in LINKS])
def test_a_link_leads_somewhere(page, target):
    path, _, anchor = target.partition("#")
    where = (ROOT / page).parent / path if path else ROOT / page
    assert where.exists(), f"{page}: link to {target}: no {path}"
    if anchor:
        assert where.suffix == ".md", f"{page}: link to {target}: an anchor in a non-page"
        assert anchor in anchors(where), f"{page}: link to {target}: no such heading"
