"""docs/code.md, the map of the code, names every module of the package: a module added
without its row is one a new contributor does not find there. A module is named by its
path (``rocking_contact/caches.py``), by its path from the package (``fem/gather.py``), or
by its file name alone in its subpackage's row of the "Subpackages" table
(``loading.py`` in the row of ``rocking_contact/config/``; ``cli.py`` in the top level's).
That the modules it names exist is ``tests/test_doc_paths.py``'s.
"""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "rocking_contact"
CODE_MAP = ROOT / "docs" / "code.md"


def _named(text: str) -> set[str]:
    """The module paths (from the package, ``fem/gather.py``; top level ``cli.py``) that
    the map names."""
    named = set()
    for span in re.findall(r"`(\w[\w/]*/\w+\.py)`", text):
        named.add(span.removeprefix("rocking_contact/"))
    for line in text.splitlines():
        cells = line.split("|")
        if len(cells) < 4:
            continue
        row = re.fullmatch(r"\s*(?:`rocking_contact/(\w+)/`|(top level))\s*", cells[1])
        if row is None:
            continue
        folder = f"{row.group(1)}/" if row.group(1) else ""
        named.update(folder + m for m in re.findall(r"`(\w+\.py)`", cells[3]))
    return named


def test_the_code_map_names_every_module():
    named = _named(CODE_MAP.read_text(encoding="utf-8"))
    modules = {p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py")
               if p.name != "__init__.py"}
    assert len(modules) > 100  # the package's, not an empty glob
    assert sorted(modules - named) == []


def test_a_module_named_only_in_prose_is_not_counted():
    text = ("| subpackage | owns | main modules |\n"
            "| `rocking_contact/fem/` | the block | `runner.py` |\n"
            "body.py, `runner.py` and `contact/theta.py`\n")
    # a file name alone counts in its subpackage's row only: not a top-level runner.py
    assert _named(text) == {"fem/runner.py", "contact/theta.py"}
