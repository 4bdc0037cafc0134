"""The examples of README.md and docs/*.md run as written.

Python: every ```python block is a whole script. Each runs in a fresh interpreter (this
venv's), in an empty directory, with matplotlib's Agg backend and pyvista offscreen, and
must exit 0, print no Python warning nor a ``warning:`` line its promise does not expect,
and do what it says (the files it writes, the values it prints): :data:`PROMISES`, one entry
per block, keyed by its file and section. A results directory a block reads,
``"results/<case>"`` for a shipped case or variant that the block does not write itself
(``out="results/<case>"``), is made first by ``rocking-contact run <case> --quiet
--no-plots`` (the blocks read results, not plots). A block shown as a
part of a larger script is marked on the line before its fence with :data:`FRAGMENT` and
is not run.

Shell: every ``rocking-contact <command>`` shown, in a fenced block (not python, not toml),
in an inline code span, or in an option table under a heading naming the command (``##
`rocking-contact view```), names a command of ``rocking-contact --help`` and only options
of that command's ``--help``; the case names it gives are shipped cases or variants (or a
kind, for ``keys``), the ``cases/`` files exist, and its ``--set``\\ s load on its case
(placeholders, ``<case>``, ``CASE``, ``k=v``, ``...``, are not checked). Nothing is run.
"""

from __future__ import annotations

import json
import math
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import rocking_contact as rc
from rocking_contact.config import KINDS, shipped_cases, variant_cases

ROOT = Path(__file__).resolve().parents[1]
DOC_FILES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
CLI = Path(sys.executable).parent / "rocking-contact"
#: the line before a ```python fence of a block that is a part of a larger script
FRAGMENT = "<!-- snippet: fragment -->"
#: a fence line, opening (with its language, maybe none) or closing
FENCE = re.compile(r"^```(\w*)\s*$")


@dataclass(frozen=True)
class Block:
    """A fenced block of a doc: its language, the section it is in and its text."""

    doc: str
    line: int
    lang: str
    heading: str
    text: str
    before: str

    @property
    def where(self) -> str:
        return f"{self.doc}:{self.line}"


@cache
def doc_text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


@cache
def blocks() -> tuple[Block, ...]:
    """Every fenced block of README.md and docs/*.md, in order; ``line`` is its fence's."""
    found = []
    for path in DOC_FILES:
        lines = doc_text(path).splitlines()
        heading, opened, lang, before = "", None, "", ""
        for number, line in enumerate(lines, 1):
            fence = FENCE.match(line)
            if opened is None and fence:
                opened, lang = number, fence.group(1)
                before = next((x for x in reversed(lines[:number - 1]) if x.strip()), "")
            elif opened is not None and line.strip() == "```":
                found.append(Block(str(path.relative_to(ROOT)), opened, lang, heading,
                                   "\n".join(lines[opened:number - 1]) + "\n", before))
                opened = None
            elif opened is None and line.startswith("#"):
                heading = line.lstrip("#").strip()
    return tuple(found)


def python_blocks() -> list[Block]:
    return [b for b in blocks() if b.lang == "python"]


# --- Python blocks ---------------------------------------------------------------------

#: run by the snippet's interpreter: the block as a script (``__main__``), then, when the
#: test asks, a JSON of values of its namespace (an expression) into a file
DRIVER = """\
import json, runpy, sys
namespace = runpy.run_path(sys.argv[1], run_name="__main__")
if len(sys.argv) > 2:
    with open(sys.argv[2], "w", encoding="utf-8") as out:
        json.dump(eval(sys.argv[3], namespace), out)
"""


@dataclass
class Done:
    """A block's run: its directory, output and the values its promise asked for."""

    cwd: Path
    stdout: str
    stderr: str
    values: Any = None


@dataclass(frozen=True)
class Promise:
    """What a block says it does: ``check(done)`` asserts it; ``values``, an expression in
    the block's namespace, what ``check`` reads of it (JSON); ``warnings``, patterns of the
    ``warning:`` lines it prints (none unless said); ``slow``, for a block that runs longer
    than a whole case (~10 s): behind the ``slow`` marker, out of ``make test``."""

    check: Callable[[Done], None]
    values: str | None = None
    warnings: tuple[str, ...] = ()
    slow: bool = False


def readme_from_python(done: Done) -> None:
    """README "Using it": the table of the run, the share of a tolerance, what the run
    wrote and read back, and the study's line per step."""
    out = done.cwd / "results" / "my_sdnd100a_exact_step1e-4"
    same = rc.load_result(out)
    assert same.parameters["time"]["step"] == 1e-4
    assert same.parameters["model"]["shock"][0]["friction"] == "exact"
    assert {"time", "DX_NO1"} <= set(same.history)
    assert any(out.glob("*.png")), f"{out}: no plot (plots are on by default)"
    assert done.stdout.startswith(rc.format_table(same) + "\n")
    checks = same.columns("checks")
    used = max(e / t for e, t in zip(checks["abs_error"], checks["abs_tolerance"])
               if not math.isnan(t))
    assert f"largest share of a tolerance used {used:.2g}" in done.stdout.splitlines()
    for step in (1e-4, 5e-5):
        study = done.cwd / "results" / f"sdnd101a_step{step:g}"
        result = rc.load_result(study)
        assert result.parameters["time"]["step"] == step
        assert f"{step} {result.status} {result.passed}" in done.stdout.splitlines()
        assert not list(study.glob("*.png")), f"{study}: plots drawn with plots=False"


def rigid_comparison(done: Done) -> None:
    """docs/rigid.md "Comparing a FEM run with the rigid levels": every level's five
    fields for each collision of the run, its relative differences from the run's
    collision, all in ``result.quantities``."""
    got = done.values
    assert got["in_result"] == got["quantities"]
    collisions = [c for c in got["collisions"] if c["interior"]]
    assert len(collisions) >= 2, got["collisions"]
    fields = ("impact", "time", "kinetic_energy", "time_error", "energy_error")
    expected = {f"rigid.{level}.collision.{c['index']}.{f}"
                for level in got["levels"] for c in collisions for f in fields}
    q = got["quantities"]
    assert set(q) == expected, sorted(set(q) ^ expected)
    for level in got["levels"]:
        for c in collisions:
            key = f"rigid.{level}.collision.{c['index']}."
            for ours, theirs in (("time", "time_error"), ("kinetic_energy", "energy_error")):
                assert q[key + theirs] == pytest.approx(
                    (c[ours] - q[key + ours]) / q[key + ours], rel=1e-9, abs=1e-15)


def plots_from_python(done: Done) -> None:
    """docs/viz.md "Plots from Python": the run's plots, PNG and SVG, from a result and
    from a directory, and the comparison named after the name given."""
    plots = done.cwd / "plots"
    for sub in ("tilt0.005", "sdnd101a"):
        png = {p.stem for p in (plots / sub).glob("*.png")}
        svg = {p.stem for p in (plots / sub).glob("*.svg")}
        assert "kinetic_energy" in png, f"{plots / sub}: {sorted(png)}"
        assert png == svg, f"{plots / sub}: PNG without SVG or back: {sorted(png ^ svg)}"
    for suffix in (".png", ".svg"):
        assert (plots / f"sdnv105d_tilts_kinetic_energy{suffix}").stat().st_size > 0


def python_study(done: Done) -> None:
    """docs/studies.md "From Python": the table of the three runs as study() gives it, a
    line per run of its rows, the CSV written."""
    import contextlib

    from rocking_contact.commands.compare import study

    with contextlib.chdir(done.cwd):  # the block's directories are relative to where it ran
        table = study([f"studies/kn/kn={kn:g}" for kn in (1e5, 1e6, 1e7)],
                      ["impact.NO1.1.duration"])
    text = table.text().splitlines()
    lines = done.stdout.splitlines()
    assert lines[:len(text)] == text
    assert [[float(v) for v in line.split()] for line in lines[len(text):]] == [
        [r["model.shock.0.kn (N/m)"], r["NO1 F1 (N)"], r["impact.NO1.1.duration (s)"]]
        for r in table.rows()]
    assert (done.cwd / "studies" / "kn.csv").read_text().count("\n") == 4


#: each block's promise, by (doc, section heading); a block without one fails
PROMISES: dict[tuple[str, str], Promise] = {
    ("README.md", "Using it"): Promise(readme_from_python),
    ("docs/rigid.md", "Comparing a FEM run with the rigid levels"): Promise(
        rigid_comparison,
        values="{'quantities': quantities, 'levels': sorted(levels),"
               " 'in_result': {k: result.quantities.get(k) for k in quantities},"
               " 'collisions': [{k: c.get(k, True) for k in ('index', 'time',"
               " 'kinetic_energy', 'interior')} for c in result.collisions]}"),
    # the runs at 1e5 and 1e7 N/m change the file's stop, and say so
    ("docs/studies.md", "From Python"): Promise(
        python_study, warnings=(r"warning: sdnd101a: .*\bchanges model\.shock\.0\.kn\b",)),
    # the runs at tilts 0.005 and 0.015 change their file's physics, and say so (the
    # windows and references are the file's)
    ("docs/viz.md", "Plots from Python"): Promise(
        plots_from_python, warnings=(r"warning: sdnv105d: .*\bchanges preload\.tilt\b",)),
}


def results_read(block: Block) -> list[str]:
    """The shipped cases whose ``results/<case>`` the block reads and does not write."""
    known = {**shipped_cases(), **variant_cases()}
    named = set(re.findall(r"""["']results/(\w+)/?["']""", block.text))
    written = set(re.findall(r"""out\s*=\s*["']results/(\w+)/?["']""", block.text))
    return sorted(n for n in named - written if n in known)


def snippet_env() -> dict[str, str]:
    return {**os.environ, "MPLBACKEND": "Agg", "PYVISTA_OFF_SCREEN": "true"}


def run_block(block: Block, promise: Promise, cwd: Path) -> Done:
    for case in results_read(block):
        made = subprocess.run([str(CLI), "run", case, "--quiet", "--no-plots"], cwd=cwd,
                              env=snippet_env(), capture_output=True, text=True)
        assert made.returncode == 0, f"{block.where}: run {case}: {made.stderr[-2000:]}"
    script = cwd / "snippet.py"
    script.write_text(block.text, encoding="utf-8")
    args = [sys.executable, "-c", DRIVER, str(script)]
    if promise.values:
        args += [str(cwd / "values.json"), promise.values]
    proc = subprocess.run(args, cwd=cwd, env=snippet_env(), capture_output=True, text=True)
    assert proc.returncode == 0, (f"{block.where}: exit code {proc.returncode}\n"
                                  f"{proc.stderr[-3000:]}")
    values = None
    if promise.values:
        values = json.loads((cwd / "values.json").read_text(encoding="utf-8"))
    return Done(cwd, proc.stdout, proc.stderr, values)


def block_params() -> list:
    params = []
    for block in python_blocks():
        promise = PROMISES.get((block.doc, block.heading))
        slow = [pytest.mark.slow] if promise and promise.slow else []
        params.append(pytest.param(block, id=block.where, marks=slow))
    return params


@pytest.mark.parametrize("block", block_params())
def test_the_python_block_runs_as_written(block, tmp_path):
    if block.before.strip() == FRAGMENT:
        pytest.skip(f"{block.where}: marked {FRAGMENT}")
    promise = PROMISES.get((block.doc, block.heading))
    assert promise is not None, (f"{block.where}: no promise in PROMISES for section "
                                 f"{block.heading!r}: say what the block writes or prints")
    done = run_block(block, promise, tmp_path)
    python_warnings = [x for x in done.stderr.splitlines() if re.search(r"\w+Warning\b", x)]
    assert not python_warnings, f"{block.where}: {python_warnings}"
    unexpected = [x for x in done.stderr.splitlines() if x.startswith("warning:")
                  and not any(re.match(p, x) for p in promise.warnings)]
    assert not unexpected, f"{block.where}: warnings it does not expect: {unexpected}"
    promise.check(done)


def test_every_promise_has_its_block():
    """A section renamed or a block removed leaves no promise behind unchecked."""
    shown = {(b.doc, b.heading) for b in python_blocks()}
    assert set(PROMISES) <= shown, sorted(set(PROMISES) - shown)


# --- Shell commands ----------------------------------------------------------------------

@dataclass(frozen=True)
class Command:
    """One ``rocking-contact <command> ...`` of a doc, its words after the command."""

    where: str
    text: str
    command: str
    words: tuple[str, ...]


def words_of(text: str) -> list[str]:
    """The words of a shown command line: ``<case as given>`` one word never checked, the
    brackets of an optional part (``[--out report/]``) left out."""
    text = re.sub(r"<[^>]*>", "PLACEHOLDER", text)
    try:
        words = shlex.split(text)
    except ValueError:  # an unbalanced quote of a command shown in part
        words = text.split()
    words = [w.removeprefix("[") for w in words]  # "[--set", "[CASE...]"; not "=[]"
    return [w if "[" in w else w.removesuffix("]") for w in words if w]


def commands_in(text: str, where: str) -> list[Command]:
    """The rocking-contact commands of one line of shell (several per line: ``;``, a
    ``docker run ... rocking-contact list``, ``mpiexec ... rocking-contact run``)."""
    found = []
    for part in re.split(r";|&&|\|\|?", text):
        words = words_of(part)
        starts = [i for i, w in enumerate(words[:-1]) if w.endswith("rocking-contact")
                  and re.fullmatch(r"[a-z]+", words[i + 1])]
        for i, end in zip(starts, [*starts[1:], len(words)]):
            found.append(Command(where, part.strip(), words[i + 1], tuple(words[i + 2:end])))
    return found


def strip_comment(line: str) -> str:
    return re.sub(r"(^|\s)#.*", "", line)


@cache
def shown_commands() -> tuple[Command, ...]:
    """Every rocking-contact command shown: shell blocks, inline code spans, and the
    option tables under a heading that names a command."""
    found: list[Command] = []
    for block in blocks():
        if block.lang in ("python", "toml"):
            continue
        joined = strip_comment_lines(block.text)
        for offset, line in joined:
            found += commands_in(line, f"{block.doc}:{block.line + offset}")
    for path in DOC_FILES:
        doc = str(path.relative_to(ROOT))
        prose = outside_blocks(path)
        for span in re.finditer(r"`([^`]+)`", prose):
            if "rocking-contact" in span.group(1):
                line = prose.count("\n", 0, span.start()) + 1
                found += commands_in(span.group(1).replace("\n", " "), f"{doc}:{line}")
        found += option_tables(path, doc)
    return tuple(found)


def strip_comment_lines(text: str) -> list[tuple[int, str]]:
    """A block's lines without their comments, a line ending in ``\\`` joined to the next;
    each with its offset from the fence."""
    joined, start, pending = [], 0, ""
    for offset, line in enumerate(text.splitlines(), 1):
        start = start or offset
        line = strip_comment(line).rstrip()
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        joined.append((start, pending + line))
        start, pending = 0, ""
    return joined


def outside_blocks(path: Path) -> str:
    """The doc with its fenced blocks' lines emptied (the line numbers kept)."""
    lines, inside = doc_text(path).splitlines(), False
    for i, line in enumerate(lines):
        fence = FENCE.match(line) if not inside else line.strip() == "```"
        if fence:
            inside, lines[i] = not inside, ""
        elif inside:
            lines[i] = ""
    return "\n".join(lines)


def option_tables(path: Path, doc: str) -> list[Command]:
    """The ``--options`` in the code spans of the table rows of a section whose heading
    names a command (``## `rocking-contact view```)."""
    found, command = [], None
    for number, line in enumerate(outside_blocks(path).splitlines(), 1):
        if line.startswith("#"):
            named = re.search(r"`rocking-contact ([a-z]+)", line)
            command = named.group(1) if named else None
        elif command and line.startswith("|"):
            options = [o for span in re.findall(r"`([^`]+)`", line)
                       for o in re.findall(r"(?<![\w-])--[a-z][\w-]*", span)]
            if options:
                found.append(Command(f"{doc}:{number}", line, command, tuple(options)))
    return found


@cache
def cli_help(*command: str) -> str:
    proc = subprocess.run([str(CLI), *command, "--help"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@cache
def subcommands() -> frozenset[str]:
    """The commands ``rocking-contact --help`` lists (indented under ``COMMAND``)."""
    return frozenset(re.findall(r"^    ([a-z]+)\s{2,}", cli_help(), re.M))


@cache
def options_of(command: str) -> dict[str, int]:
    """A command's options (each spelling) -> how many values follow it, from its
    ``--help`` option lines (``  --out OUT``, ``  --quiet, -q``, ``  --clim LO HI``)."""
    text = cli_help(command)
    section = text[text.index("\noptions:\n"):]
    arity: dict[str, int] = {}
    for line in section.splitlines()[2:]:
        if not line.startswith("  -"):
            continue
        for spelling in re.split(r"\s{2,}", line.strip())[0].split(", "):
            name, *values = spelling.split()
            arity[name] = len(values)
    return arity


def positionals(command: Command) -> list[str]:
    """The words of a command that are neither options nor their values."""
    arity, left, skip = options_of(command.command), [], 0
    for word in command.words:
        if skip:
            skip -= 1
        elif word.startswith("--") and word != "--":
            name, eq, _ = word.partition("=")
            skip = 0 if eq else arity.get(name, 0)
        else:
            left.append(word)
    return left


def sets_of(command: Command) -> list[str]:
    """The ``--set KEY=VALUE`` of a command, those shown as placeholders left out."""
    words, sets = command.words, []
    for i, word in enumerate(words[:-1]):
        if word == "--set" and "=" in words[i + 1]:
            value = words[i + 1].partition("=")[2]
            if "..." not in value and not re.fullmatch(r"[a-zA-Z]", value):
                sets.append(words[i + 1])
    return sets


def command_params() -> list:
    return [pytest.param(c, id=f"{c.where} {c.command}") for c in shown_commands()]


@pytest.mark.parametrize("command", command_params())
def test_the_command_shown_exists_with_its_options_cases_and_settings(command):
    assert command.command in subcommands(), (f"{command.where}: no command "
                                              f"{command.command!r} in {command.text!r}")
    options = options_of(command.command)
    unknown = [w for w in command.words if w.startswith("--") and w != "--"
               and w.partition("=")[0] not in options]
    assert not unknown, f"{command.where}: {command.text!r}: {unknown} not in {sorted(options)}"
    known = {**shipped_cases(), **variant_cases()}
    cases = []
    for word in positionals(command):
        if word.startswith("cases/"):
            assert (ROOT / word).is_file(), f"{command.where}: no file {word}"
            cases.append(word)
        elif re.fullmatch(r"[a-z][a-z0-9_-]*", word):
            allowed = known.keys() | (KINDS.keys() if command.command == "keys" else set())
            assert word in allowed, f"{command.where}: {command.text!r}: no case {word!r}"
            cases.append(word)
    if command.command == "rigid" and not positionals(command):
        cases = re.findall(r"\(default (\w+)\)", cli_help("rigid"))
        assert cases, "rigid --help names no default case"
    sets = sets_of(command)
    if command.command not in ("run", "validate", "rigid"):
        return
    for case in cases if sets else []:
        try:
            rc.load_case(ROOT / case if case.startswith("cases/") else case, sets)
        except rc.CaseError as error:
            pytest.fail(f"{command.where}: {command.text!r}: {error}")


def test_the_docs_show_commands_and_python_blocks():
    """The extraction finds what the docs show (a changed fence or prompt would make every
    test above pass on nothing)."""
    assert len(python_blocks()) >= 3
    shown = {c.command for c in shown_commands()}
    assert {"run", "validate", "rigid", "view", "report", "mesh", "keys", "list"} <= shown
