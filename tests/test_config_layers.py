"""The case files' layer sits below what it configures: no module of
``rocking_contact.config`` imports another module of the package (at its top, in a
function or for mypy under TYPE_CHECKING) but ``rocking_contact.lazy``, which imports the
kinds' schemas by name. A load's function of time, a contact treatment or a runner imports
the config; the config never imports them back (it did, for mypy: config.loading -> the
kinds' runners -> loads -> config)."""

import ast
from pathlib import Path

import pytest

import rocking_contact

PACKAGE = Path(rocking_contact.__file__).parent
CONFIG = sorted((PACKAGE / "config").glob("*.py"))


def imported(path: Path) -> set[str]:
    """Every module of the package that ``path`` names in an import statement, anywhere in
    it (``from rocking_contact.x import y`` gives ``rocking_contact.x``)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return {n for n in names if n.split(".")[0] == "rocking_contact"}


@pytest.mark.parametrize("path", CONFIG, ids=[p.stem for p in CONFIG])
def test_the_config_imports_nothing_of_the_package_above_it(path):
    above = {n for n in imported(path)
             if not n.startswith("rocking_contact.config") and n != "rocking_contact.lazy"}
    assert above == set()


def test_the_loads_import_the_schema_pieces_not_the_loading():
    assert imported(PACKAGE / "loads.py") == {"rocking_contact.config.schema",
                                              "rocking_contact.config.names"}
