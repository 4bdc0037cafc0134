"""Every path and module of the project that README.md and docs/*.md name in backticks is
there: a package path (``rocking_contact/fem/runner.py``, ``rocking_contact/contact/``), a
module or one of its attributes (``rocking_contact.solvers.driver.StepDriver``), a test
(``tests/test_cli.py``), a benchmark (``benchmarks/sdnv105d.py``, also in a ``python
benchmarks/...`` command), a case file (``cases/variants/sdnv105a_auto.toml``), a package
file named from its folder (``contact/lagrange.py``) or a file named alone (``moreau.py``:
one of the package, the tests or the benchmarks). Modules get renamed and split; a doc left naming
the old one sends the reader to nothing.

An attribute is looked up in its module's source first (a top-level ``def``, ``class``,
assignment or import, and a class's own names below it), so that the check imports no
DOLFINx; a name the source does not define at top level (a package's lazy ``__getattr__``)
is checked by importing the module and ``getattr`` (the names the docs give import nothing
heavier than ``rocking_contact.results``; a missing name in a DOLFINx module imports it).

The public API, which the docs name after ``import rocking_contact as rc`` (``rc.run``,
``rc.Diverged``, ``rc.mpi_rank()``, in prose and in examples alike), is checked too: the
name is in the package's ``__all__`` and is defined by ``rocking_contact/__init__.py`` or by
the module its lazy ``__getattr__`` takes it from (``_HOMES``), attributes after it
(``rc.Interrupted.exit_code``) included; both read from the source, so that the check
imports no DOLFINx (``rocking_contact.api``, home of ``rc.run``, would).
"""

import ast
import importlib
import re
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

#: a code span (it may run over a line break)
SPAN = re.compile(r"`([^`]+)`")
#: a path of the project: a package file or folder, a test, a benchmark, a case file (a
#: case file may be a glob: ``cases/variants/sdnv105?_fine.toml``)
PATH = re.compile(r"(?:rocking_contact|tests|benchmarks|cases)(?:/[\w.?*-]+)*/?")
#: a file of the package named from its folder: ``contact/lagrange.py``
IN_PACKAGE = re.compile(r"\w+(?:/\w+)*/\w+\.py")
#: a file named alone, ``moreau.py``: one of the package, the tests or the benchmarks
ALONE = re.compile(r"\w+\.py")
#: a benchmark's command line: ``python benchmarks/sdnv105d.py --runs coarse``
COMMAND = re.compile(r"python\s+(benchmarks/\S+\.py)(?:\s.*)?", re.S)
#: a dotted module name, maybe with attributes, maybe called: ``rocking_contact.x.y(...)``
DOTTED = re.compile(r"(rocking_contact(?:\.\w+)+)(?:\(.*)?", re.S)
#: a name of the public API, maybe with attributes: ``rc.run``, ``rc.Interrupted.exit_code``
API = re.compile(r"(?<![\w.])rc\.(\w+(?:\.\w+)*)")
#: the package's ``__init__.py``, where the public API is listed
PACKAGE = ROOT / "rocking_contact" / "__init__.py"


def _unfenced(text: str) -> str:
    """``text`` without its fenced code blocks (command lines, not names to look up)."""
    return re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)


def _name(span: str) -> str | None:
    """The path or dotted name a code span gives, as :func:`missing` takes it, or None."""
    if "..." not in span and PATH.fullmatch(span):
        return span
    if IN_PACKAGE.fullmatch(span):
        return f"rocking_contact/{span}"
    if ALONE.fullmatch(span):
        return span
    for pattern in (COMMAND, DOTTED):
        if found := pattern.fullmatch(span):
            return found.group(1)
    return None


def named(page: Path) -> list[str]:
    """The paths and dotted names ``page`` gives in backticks, in order, once each."""
    out: dict[str, None] = {}
    for span in SPAN.findall(_unfenced(page.read_text(encoding="utf-8"))):
        if name := _name(span.strip()):
            out[name] = None
    return list(out)


def _defines(tree: ast.Module | ast.ClassDef, name: str) -> ast.AST | None:
    """The top-level statement of ``tree`` that binds ``name``, or None."""
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if node.name == name:
                return node
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                return node
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            if any((a.asname or a.name.split(".")[0]) == name for a in node.names):
                return node
    return None


def _in_source(source: Path, attributes: list[str]) -> bool:
    """Whether the module in ``source`` defines ``attributes`` (a name, then the names of
    the class it names), read from its source."""
    tree: ast.AST | None = ast.parse(source.read_text(encoding="utf-8"))
    for name in attributes:
        if not isinstance(tree, (ast.Module, ast.ClassDef)):
            return False
        tree = _defines(tree, name)
        if tree is None:
            return False
    return True


def missing(name: str) -> str:
    """Why ``name`` (a path or a dotted name) names nothing; empty if it names something."""
    if ALONE.fullmatch(name):
        homes = ("rocking_contact", "tests", "benchmarks")
        found = any(next((ROOT / home).rglob(name), None) for home in homes)
        return "" if found else f"no file {name} in {', '.join(homes)}"
    if "/" in name or "." not in name:
        return "" if next(ROOT.glob(name.rstrip("/")), None) else f"no file or folder {name}"
    parts = name.split(".")
    where = ROOT / parts[0]
    module = [parts[0]]
    for part in parts[1:]:
        if where.is_dir() and (where / part).is_dir():
            where = where / part
        elif where.is_dir() and (where / f"{part}.py").is_file():
            where = where / f"{part}.py"
        else:
            break
        module.append(part)
    attributes = parts[len(module):]
    if not attributes:
        return ""
    source = where / "__init__.py" if where.is_dir() else where
    if source.is_file() and _in_source(source, attributes):
        return ""
    target = importlib.import_module(".".join(module))
    for attribute in attributes:
        if not hasattr(target, attribute):
            return f"{'.'.join(module)} has no {'.'.join(attributes)}"
        target = getattr(target, attribute)
    return ""


def _literal(source: Path, name: str) -> Any:
    """The value of the top-level assignment to ``name`` in ``source``, a Python literal."""
    node = _defines(ast.parse(source.read_text(encoding="utf-8")), name)
    assert isinstance(node, ast.Assign), f"{source}: no assignment to {name}"
    return ast.literal_eval(node.value)


def api_named(page: Path) -> list[str]:
    """The names of the public API ``page`` gives (``rc.<name>``, without ``rc.``), in its
    examples too, in order, once each."""
    return list(dict.fromkeys(API.findall(page.read_text(encoding="utf-8"))))


def api_missing(name: str) -> str:
    """Why ``rc.<name>`` names nothing; empty if it names something."""
    first, *attributes = name.split(".")
    if first not in _literal(PACKAGE, "__all__"):
        return f"{first} is not in rocking_contact.__all__"
    if _in_source(PACKAGE, [first]):
        return missing(f"rocking_contact.{name}") if attributes else ""
    homes = _literal(PACKAGE, "_HOMES")
    if first not in homes:
        return f"rocking_contact.__getattr__ has no module for {first} (_HOMES)"
    return missing(f"rocking_contact.{homes[first]}.{name}")


NAMES = [(str(page.relative_to(ROOT)), name) for page in PAGES for name in named(page)]
API_NAMES = [(str(page.relative_to(ROOT)), name) for page in PAGES for name in api_named(page)]


def test_the_docs_name_paths_and_modules():
    kinds = {name.split("/")[0].split(".")[0] for _, name in NAMES}
    assert len(NAMES) > 100 and kinds >= {"rocking_contact", "tests", "benchmarks", "cases"}


@pytest.mark.parametrize("made_up", [
    "rocking_contact/fem/nowhere.py", "rocking_contact/nowhere/", "fem/nowhere.py",
    "nowhere.py", "rocking_contact.nowhere", "rocking_contact.fem.nowhere",
    "rocking_contact.time.schemes.Nowhere", "rocking_contact.config.NOWHERE",
    "rocking_contact.config.schema.CaseError.nowhere", "rocking_contact.nowhere.run(case)",
    "tests/test_nowhere.py", "python benchmarks/nowhere.py --runs coarse",
    "cases/variants/nowhere.toml", "cases/variants/nowhere?_fine.toml"])
def test_a_made_up_name_is_missing(made_up):
    name = _name(made_up)
    assert name is not None and missing(name)


@pytest.mark.parametrize(("page", "name"), NAMES, ids=[f"{p}:{n}"[:70] for p, n in NAMES])
def test_a_named_path_or_module_exists(page, name):
    assert not missing(name), f"{page}: `{name}`: {missing(name)}"


def test_the_docs_name_the_public_api():
    assert {name for _, name in API_NAMES} >= {"run", "load_case", "Diverged", "mpi_rank"}


@pytest.mark.parametrize("made_up", [
    "rc.nowhere", "rc.Nowhere(case)", "rc.Diverged.nowhere", "rc.SolverFailure.nowhere",
    "rc.CaseError.nowhere", "rc.__version__.nowhere", "rc._HOMES"])
def test_a_made_up_api_name_is_missing(made_up):
    names = API.findall(made_up)
    assert len(names) == 1 and api_missing(names[0])


@pytest.mark.parametrize(("page", "name"), API_NAMES,
                         ids=[f"{p}:rc.{n}"[:70] for p, n in API_NAMES])
def test_a_named_api_name_exists(page, name):
    assert not api_missing(name), f"{page}: `rc.{name}`: {api_missing(name)}"
