"""Every place that sends a reader to a section of a doc, ``(docs/contact.md, "Failure
handling")``, names a section that is there: a heading of that doc, or the lead of one of
its paragraphs, that starts with the cited words. The package's messages, the case files'
notes (printed under a FAIL row as ``why:``), the docs, the README and the tests cite them,
and the docs are restructured from time to time; a citation left behind would send the
user to nothing."""

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"

#: ``docs/<name>.md, "<title>"`` or ``docs/<name>.md, '<title>'`` (a title in single
#: quotes may hold an apostrophe: ``'Misses of the issue's acceptance'``)
CITATION = re.compile(r"docs/([a-z_-]+\.md),\s*(?:\"([^\"]+)\"|'(.+?)'(?![A-Za-z]))", re.S)


def _python_texts(path: Path) -> list[str]:
    """The string constants of a Python file, each whole: ast joins the literals a message
    is split into, so a citation across two of them is read as one."""
    texts = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            texts.append(node.value)
        elif isinstance(node, ast.JoinedStr):
            texts.append("".join(part.value for part in node.values
                                 if isinstance(part, ast.Constant)))
    return texts


def _citations() -> dict[tuple[str, str], list[str]]:
    """(doc, cited title) -> the files that cite it."""
    sources = [(path, _python_texts(path)) for folder in ("rocking_contact", "tests",
                                                          "benchmarks")
               for path in sorted((ROOT / folder).rglob("*.py"))]
    sources += [(path, [path.read_text(encoding="utf-8")])
                for path in [ROOT / "README.md", *sorted(DOCS.glob("*.md")),
                             *sorted((ROOT / "cases").rglob("*.toml"))]]
    found: dict[tuple[str, str], list[str]] = {}
    for path, texts in sources:
        if path == Path(__file__).resolve():
            continue
        for text in texts:
            for match in CITATION.finditer(text):
                title = " ".join((match.group(2) or match.group(3)).split())
                found.setdefault((match.group(1), title), []).append(
                    str(path.relative_to(ROOT)))
    return found


def _sections(doc: str) -> tuple[list[str], list[str]]:
    """The headings of ``doc`` (without their marks) and the starts of its paragraphs and
    list items (without bullets), whitespace collapsed."""
    text = (DOCS / doc).read_text(encoding="utf-8")
    headings, leads = [], []
    for block in re.split(r"\n\s*\n", text):
        for line in block.splitlines():
            if line.startswith("#"):
                headings.append(line.lstrip("#"))
            elif line.lstrip().startswith(("- ", "* ")):
                leads.append(line)
        leads.append(block)
    def clean(lead: str) -> str:
        return " ".join(re.sub(r"^\s*[-*]\s", "", lead).split())
    return [clean(h) for h in headings], [clean(lead) for lead in leads]


def _names(title: str, doc: str) -> bool:
    """Whether ``title`` names a section of ``doc``: a heading that starts with it (whole
    words), or a paragraph or list item led by it in bold (``**Restitution.**``)."""
    headings, leads = _sections(doc)
    return (any(re.match(re.escape(title) + r"(?!\w)", heading) for heading in headings)
            or any(re.match(r"\*\*" + re.escape(title) + r"(?!\w)", lead) for lead in leads))


CITED = _citations()


def test_the_docs_are_cited():
    """The scan finds the citations it checks (the case files' notes cite the misses)."""
    assert ("contact.md", "What misses the acceptance") in CITED
    assert len(CITED) > 20


@pytest.mark.parametrize(("doc", "title"), sorted(CITED), ids=lambda v: v[:40])
def test_a_cited_section_is_there(doc, title):
    assert (DOCS / doc).is_file(), f"{CITED[doc, title]} cite docs/{doc}, which is missing"
    assert _names(title, doc), \
        f"{', '.join(sorted(set(CITED[doc, title])))}: docs/{doc} has no section {title!r}"
