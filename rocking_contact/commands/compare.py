"""``rocking-contact compare``: one table of several runs, read from their ``results.json``.

A row per results directory: the run's directory, its case, the keys it changed from its
case file and their values (``provenance.overrides`` and ``extra.changes``, the values as
``parameters`` holds them), its status (a rigid run's outcome too), its collisions (block
and rigid kinds: ``t<k>`` s and ``E<k>`` J, the kinetic energy before impact ``k``, and
``landing<k>`` s where the run recorded one) or impacts (discrete: ``<shock> t<k>`` s, the
start of impact ``k``, and ``<shock> F<k>`` N, its largest normal force), then the
quantities asked for with ``--quantity``. A column equal in every row is said once above
the table. Nothing is run again.

From Python, :func:`study` returns the :class:`Study` that the command prints
(``.text()``) and writes (``.write_csv(path)``); ``.rows()`` gives one dict per run.

This module is imported to build the command line: keep its imports light.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import math
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from rocking_contact.options import file_argument, given_text, number_argument

#: collisions (or impacts per shock) shown by default; every one with ``--collisions 0``
SHOWN = 5
#: widest cell of a changed value in the text table (a table acceleration of 151 samples
#: is one value); the CSV keeps it whole
WIDEST_VALUE = 24

#: units of a quantity by the last part of its dotted name (the fields of collisions and
#: impacts, the energy and penetration figures); another quantity has none in its header
QUANTITY_UNITS = {
    "time": "s", "start": "s", "end": "s", "t_max": "s", "duration": "s", "landing": "s",
    "time_error": "", "energy_error": "", "energy_ratio": "", "restitution": "",
    "kinetic_energy": "J", "kinetic_energy_after": "J", "final": "J", "max_abs": "J",
    "max": "", "max_force": "N", "max_abs_force": "N", "mean_max_force": "N",
    "std_max_force": "N", "impulse": "N.s", "percussion_x": "N.s", "percussion_y": "N.s",
    "speed": "m/s", "rebound_speed": "m/s", "vy_before": "m/s", "omega_before": "rad/s",
    "omega_after": "rad/s"}
#: quantities whose unit the table above would miss (``max`` is a length here)
NAMED_UNITS = {"penetration.max": "m", "energy.rise.max": "J", "energy.regain.max": "J"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``rocking-contact compare``."""
    parser.add_argument("dirs", nargs="+", metavar="DIR", type=given_text,
                        help="results directories (each holding the results.json of a run, "
                             "rigid run, sweep run or rc.run), or folders of them (a "
                             "sweep's --out, results/): their runs in sorted order; a "
                             "sweep's sweep.csv among them is skipped (compare DIR/*)")
    parser.add_argument("--csv", type=file_argument, metavar="FILE",
                        help="also write the table as CSV, every column in every row, "
                             "units in the header; a name without a suffix gets .csv, any "
                             "other suffix is refused")
    parser.add_argument("--quantity", action="append", default=[], metavar="NAME",
                        help="add a column: a key of results.json's quantities or a "
                             "check's quantity (repeatable), e.g. penetration.max")
    add_collisions_option(parser)


def add_collisions_option(parser: argparse.ArgumentParser) -> None:
    """``--collisions N``, how many collisions the table shows (``compare``, ``sweep``)."""
    parser.add_argument("--collisions", default=SHOWN, metavar="N",
                        type=number_argument(int, "an integer >= 0, the first N collisions "
                                             "shown (0: all)", lambda n: n >= 0),
                        help=f"collisions (discrete: impacts per shock) shown in the table, "
                             f"the first N (default {SHOWN}; 0: all)")


def main(args: argparse.Namespace) -> int:
    """Print the table of the runs (and write its CSV); returns the exit code."""
    from rocking_contact.config import CaseError
    from rocking_contact.out_paths import check_file
    from rocking_contact.stops import FULL_DISK

    csv_path = None if args.csv is None else check_file("--csv", args.csv, "a .csv",
                                                        (".csv",), create=False)
    table = study(args.dirs, args.quantity, shown=args.collisions)
    if csv_path is not None:  # before the table: a file the system refuses is one line
        check_file("--csv", csv_path, "a .csv", (".csv",))  # its directory made now
        try:
            table.write_csv(csv_path)
        except OSError as exc:
            if exc.errno in FULL_DISK:  # the disk, not the path: as a run says it
                raise
            raise CaseError("--csv", "", f"cannot write {csv_path}: {exc.strerror}") from None
    print(table.text())
    if csv_path is not None:
        print(f"written: {csv_path}")
    return 0


@dataclasses.dataclass(frozen=True)
class Run:
    """One results directory as the table reads it."""

    #: the directory as given
    path: str
    #: its ``results.json``
    data: Mapping[str, Any]


@dataclasses.dataclass
class Column:
    """A column of the table: its title, unit ("" for none) and one cell per run (a
    number, a text, or None where the run has no value)."""

    title: str
    unit: str
    cells: list[Any]
    #: widest cell in the text table, longer ones cut (None: whole); the CSV keeps them
    widest: int | None = None

    @property
    def header(self) -> str:
        """The title with its unit, as the CSV's header says it: ``t1 (s)``."""
        return f"{self.title} ({self.unit})" if self.unit else self.title


@dataclasses.dataclass
class Study:
    """The table of several runs (:func:`study`)."""

    columns: list[Column]
    #: lines said under the table (what the columns mean, collisions left out)
    notes: list[str] = dataclasses.field(default_factory=list)

    def rows(self) -> list[dict[str, Any]]:
        """One dict per run, header (with unit) -> value: numbers as numbers (SI units),
        None where the run has no value."""
        count = len(self.columns[0].cells) if self.columns else 0
        return [{c.header: c.cells[i] for c in self.columns} for i in range(count)]

    def text(self) -> str:
        """The table as ``compare`` prints it: the columns equal in every row (of two runs
        or more) first, one ``title = value unit`` line each, then the others, aligned,
        units in a second header line, then the notes."""
        from rocking_contact.post.references import text_table

        count = len(self.columns[0].cells) if self.columns else 0
        same = [c for c in self.columns[1:]
                if count > 1 and len({repr(v) for v in c.cells}) == 1]
        shown = [c for c in self.columns if c not in same]
        lines = [f"{c.title} = {_cell(c.cells[0])}"
                 f"{' ' + c.unit if c.unit and _cell(c.cells[0]) not in ('[]', '-') else ''}"
                 for c in same]
        grid = [[c.title for c in shown], [f"({c.unit})" if c.unit else "" for c in shown]]
        grid += [[_cell(c.cells[i], c.widest) for c in shown] for i in range(count)]
        if not any(grid[1]):
            del grid[1]
        if lines:
            lines.append("")
        # numbers (and a missing one's "-") right-aligned, but in the first column
        lines += text_table(grid, right=lambda j, cell: j > 0 and (is_number(cell)
                                                                  or cell == "-"))
        return "\n".join(lines + self.notes)

    def write_csv(self, path: str | os.PathLike[str]) -> None:
        """The table as CSV: a header row (``title (unit)``), a row per run with every
        column, numbers in full (``repr``), an empty cell where the run has no value."""
        with open(path, "w", newline="", encoding="utf-8") as fh:
            writer = csv.writer(fh)
            writer.writerow([c.header for c in self.columns])
            for i in range(len(self.columns[0].cells) if self.columns else 0):
                writer.writerow(["" if v is None else repr(v) if isinstance(v, float) else v
                                 for v in (c.cells[i] for c in self.columns)])


def is_number(text: str) -> bool:
    """Whether a table's cell text reads as a number (``1e+06``, ``nan``, ``-3``): the
    text tables right-align it (``compare``'s, the report's)."""
    try:
        float(text)
    except ValueError:
        return False
    return True


def _cell(value: Any, widest: int | None = None) -> str:
    """A cell's text: numbers to 6 significant digits, '-' for none, a text longer than
    ``widest`` cut."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int | float):
        return "nan" if isinstance(value, float) and math.isnan(value) else f"{value:.6g}"
    text = str(value)
    return text if widest is None or len(text) <= widest else text[:widest - 3] + "..."


def read_run(path: str | os.PathLike[str]) -> Run:
    """A results directory's ``results.json`` (:func:`~rocking_contact.results_io.
    read_results`), with its status.

    Raises:
        CaseError: no such directory, no ``results.json`` in it, or one that is not what a
            run writes (one line naming the directory or the file).

    """
    from rocking_contact.config import CaseError
    from rocking_contact.results_io import (
        RESULTS_DIRECTORY,
        RESULTS_FILE,
        json_type,
        read_results,
    )

    data = read_results(path)
    if not isinstance(data.get("status"), str):
        got = "missing" if "status" not in data else f"a JSON {json_type(data['status'])}"
        raise CaseError(str(Path(path) / RESULTS_FILE), "status", f"{got}, expected a "
                        f"string ({RESULTS_DIRECTORY})")
    return Run(str(path), data)


def results_dirs(dirs: Iterable[str | os.PathLike[str]]
                 ) -> tuple[list[str | os.PathLike[str]], list[str]]:
    """The results directories that ``dirs`` name, in their order, and a line per folder
    whose runs were taken without some of its folders.

    A directory with a ``results.json`` is one; a folder without one whose folders hold
    some (a sweep's ``--out``, ``results/``) stands for those, sorted by name, the others
    named in a line; a sweep's own table (:data:`~rocking_contact.commands.sweep.
    TABLE_FILE` in such a folder: ``compare DIR/*``) is skipped. Anything else is left to
    :func:`read_run` to refuse.

    Raises:
        CaseError: a folder without ``results.json`` in it or in any of its folders; a
            sweep's table alone.

    """
    from rocking_contact.commands.sweep import TABLE_FILE
    from rocking_contact.config import CaseError
    from rocking_contact.results_io import RESULTS_DIRECTORY, RESULTS_FILE

    found: list[str | os.PathLike[str]] = []
    said: list[str] = []
    tables: list[Path] = []
    for given in dirs:
        path = Path(given)
        if path.name == TABLE_FILE and path.is_file() and _runs_in(path.parent):
            tables.append(path)
            continue
        if not path.is_dir() or (path / RESULTS_FILE).exists():
            found.append(given)
            continue
        runs = _runs_in(path)
        if not runs:
            raise CaseError(str(given), "", f"no {RESULTS_FILE} in it, nor in its folders "
                            f"({RESULTS_DIRECTORY}, or a folder of them such as a sweep's)")
        found += [str(path / name) for name in runs]
        others = sorted(p.name for p in path.iterdir() if p.is_dir() and p.name not in runs)
        if others:
            said.append(f"{given}: its folders without {RESULTS_FILE} left out: "
                        f"{', '.join(others)}")
    if tables and not found:  # `compare DIR/sweep.csv`: the table alone, skipped
        raise CaseError(str(tables[0]), "", "a sweep's table, which compare skips (allowed: "
                        f"its folder {tables[0].parent}, for the sweep's runs; its runs' "
                        "results directories)")
    return found, said


def _runs_in(folder: Path) -> list[str]:
    """The names of the folders of ``folder`` that hold a ``results.json``, sorted; none
    if ``folder`` holds one itself (a run's directory, not a folder of runs)."""
    from rocking_contact.results_io import RESULTS_FILE

    if (folder / RESULTS_FILE).exists():
        return []
    return sorted(p.name for p in folder.iterdir() if (p / RESULTS_FILE).is_file())


def study(dirs: Iterable[str | os.PathLike[str]], quantities: Sequence[str] = (), *,
          shown: int = SHOWN) -> Study:
    """The table of the runs in ``dirs`` (results directories, read, not run again).

    Args:
        dirs: results directories, one row each, in this order; a folder of them (a
            sweep's, ``results/``) for its runs, sorted by name (:func:`results_dirs`).
        quantities: keys of the runs' ``quantities`` (or a check's ``quantity``), a
            column each.
        shown: collisions (discrete: impacts per shock) shown, the first ``shown``; 0: all.

    Raises:
        CaseError: a directory that holds no results, a quantity no run has (the closest
            names offered).

    """
    paths, left_out = results_dirs(dirs)
    runs = [read_run(d) for d in paths]
    if not runs:
        from rocking_contact.config import CaseError

        raise CaseError("compare", "", "no results directory given (allowed: one or more)")
    columns = [Column("run", "", [r.path for r in runs]),
               Column("case", "", [r.data["case"] for r in runs]),
               Column("kind", "", [r.data.get("kind") for r in runs])]
    columns += _changed(runs)
    columns.append(Column("status", "", [short_status(str(r.data["status"])) for r in runs]))
    outcomes = [outcome(r.data.get("extra")) for r in runs]
    if any(o is not None for o in outcomes):
        columns.append(Column("outcome", "", outcomes))
    notes: list[str] = []
    columns += _collisions(runs, shown, notes)
    columns += _impacts(runs, shown, notes)
    columns += [_quantity(runs, name) for name in dict.fromkeys(quantities)]
    return Study(columns, notes + left_out)


def short_status(status: str) -> str:
    """A run's ``status`` in a few words: ``completed``, ``failed at t = 0.0123 s``,
    ``overturned at t = 0.31 s``, ``slid off its table at t = ...``, ``interrupted at t =
    ...``, ``aborted at t = ...`` (a second Ctrl-C or SIGTERM); ``not ended`` for a run
    under way or killed (``started: ...``)."""
    text = status.removeprefix("the block ")
    head = text.split(":", 1)[0].strip()
    if head == "started":
        return "not ended (under way, or killed)"
    if head == "failed":
        where = re.search(r"\bat t = (\S+) s\b", text)
        return f"failed at t = {where.group(1)} s" if where else "failed"
    return head


def outcome(extra: Any) -> str | None:
    """A rigid run's outcome (``rest``, ``rocking``, ``overturned``, ...), with the instant
    of the event that ended it (``overturned at t = 1.30214 s``); None for other kinds."""
    if not isinstance(extra, Mapping) or not isinstance(extra.get("outcome"), str):
        return None
    outcome: str = extra["outcome"]
    events = [e for e in extra.get("events") or [] if isinstance(e, Mapping)]
    last = next((e for e in reversed(events) if str(e.get("kind", ""))[:4] == outcome[:4]),
                None)
    if last is not None and isinstance(last.get("time"), int | float) and outcome != "rest":
        return f"{outcome} at t = {last['time']:.6g} s"
    return outcome


def _changed(runs: Sequence[Run]) -> list[Column]:
    """A column per key that a run changed from its case file: its ``--set`` (or
    ``rc.load_case`` overrides, ``provenance.overrides``) and its ``extra.changes``, each
    run's value read from its ``parameters`` (the value it ran with: another run's file
    value where it did not change the key). A key the run did not read (``extra.unread``)
    shows the value it was given, if any: the ``preload.tilt`` of a block case whose rigid
    twin ran at the angle it gives, whose ``parameters`` keep its levels' file's tilt."""
    from rocking_contact.config.overrides import dig, key_path, parse_override
    from rocking_contact.viz.changes import unread_recorded

    keys: dict[str, None] = {}
    given: list[dict[str, Any]] = []
    for run in runs:
        overrides = (run.data.get("provenance") or {}).get("overrides") or []
        own: dict[str, Any] = {}
        if isinstance(overrides, Mapping):
            own = {".".join(key_path(str(k))): v for k, v in overrides.items()}
        elif isinstance(overrides, list):
            for text in overrides:
                try:
                    path, value = parse_override(str(text))
                except ValueError:  # CaseError: not key=value, nothing to show
                    continue
                own[".".join(path)] = value
        extra = run.data.get("extra") or {}
        changes = extra.get("changes") if isinstance(extra, Mapping) else None
        for key in [*own, *(changes if isinstance(changes, list) else [])]:
            keys.setdefault(".".join(key_path(str(key))), None)
        given.append(own)
    columns = []
    for key in keys:
        cells = []
        for run, own in zip(runs, given, strict=True):
            value = dig(run.data.get("parameters") or {}, key)
            if value is dataclasses.MISSING or key in unread_recorded(run.data):
                value = own.get(key)
            cells.append(_plain_value(value))
        columns.append(Column(key, _key_unit(runs, key), cells, WIDEST_VALUE))
    return columns


def _plain_value(value: Any) -> Any:
    """A parameter as a cell: a number or text as it is, a list or table in TOML."""
    if value is None or isinstance(value, int | float | str):
        return value
    from rocking_contact.config import toml_text

    return toml_text(value)


def _key_unit(runs: Sequence[Run], key: str) -> str:
    """The unit of a case-file key, from the schema of the first run's kind that has it
    ("" if none: runs of several kinds share a table)."""
    from rocking_contact.report.parameters import kind_units

    plain = re.sub(r"\.\d+(?=\.|$)", "", key)
    kinds = dict.fromkeys(str(r.data.get("kind", "")) for r in runs)
    return next((u for k in kinds if k and (u := kind_units(k).get(plain))), "")


def _interior(run: Run) -> list[Mapping[str, Any]]:
    """A run's collisions: those a window's bound did not make (``interior``)."""
    from rocking_contact.post.collisions import interior

    return interior([c for c in run.data.get("collisions") or [] if isinstance(c, Mapping)])


def _collisions(runs: Sequence[Run], shown: int, notes: list[str]) -> list[Column]:
    """``t<k>`` (s), ``E<k>`` (J) and, where a run recorded it, ``landing<k>`` (s) for
    k = 1 .. the most any run has (at most ``shown``, 0: all)."""
    lists = [_interior(r) for r in runs]
    most = max(len(c) for c in lists)
    if not most:
        return []
    count = most if not shown else min(shown, most)
    # a discrete run has impacts on its shocks, no collisions: no count, not 0
    columns = [Column("collisions", "", [None if r.data.get("kind") == "discrete" else len(c)
                                         for r, c in zip(runs, lists, strict=True)])]
    for k in range(count):
        def at(field: str, k: int = k) -> list[Any]:
            return [c[k].get(field) if k < len(c) else None for c in lists]
        columns.append(Column(f"t{k + 1}", "s", at("time")))
        columns.append(Column(f"E{k + 1}", "J", at("kinetic_energy")))
        landings = at("landing")
        if any(v is not None for v in landings):
            columns.append(Column(f"landing{k + 1}", "s", landings))
    notes.append("tk, Ek: collision k's instant (s) and the block's kinetic energy before it "
                 "(J); landingk: the instant of the landing it follows (s)"
                 if any(c.title.startswith("landing") for c in columns) else
                 "tk, Ek: collision k's instant (s) and the block's kinetic energy before it (J)")
    if count < most:
        notes.append(f"collisions 1 to {count} shown of up to {most} (--collisions 0: all)")
    return columns


def _impacts(runs: Sequence[Run], shown: int, notes: list[str]) -> list[Column]:
    """Per shock, ``<shock> t<k>`` (s, the start of impact k) and ``<shock> F<k>`` (N, its
    largest normal force; none for an unresolved impact) for k = 1 .. the most any run
    has (at most ``shown``, 0: all)."""
    per_run: list[dict[str, list[Mapping[str, Any]]]] = []
    for run in runs:
        shocks: dict[str, list[Mapping[str, Any]]] = {}
        for impact in run.data.get("impacts") or []:
            if isinstance(impact, Mapping):
                shocks.setdefault(str(impact.get("shock", "?")), []).append(impact)
        per_run.append(shocks)
    names = list(dict.fromkeys(s for shocks in per_run for s in shocks))
    columns: list[Column] = []
    cut = []
    for shock in names:
        lists = [shocks.get(shock, []) for shocks in per_run]
        most = max(len(i) for i in lists)
        count = most if not shown else min(shown, most)
        if count < most:
            cut.append(f"{shock}: impacts 1 to {count} shown of up to {most}")
        # a run without this shock (a block's, another model's) has no count, not 0
        columns.append(Column(f"{shock} impacts", "", [
            len(i) if i or shock in _shocks(r) else None for r, i in zip(runs, lists,
                                                                         strict=True)]))
        for k in range(count):
            columns.append(Column(f"{shock} t{k + 1}", "s",
                                  [i[k].get("start") if k < len(i) else None for i in lists]))
            columns.append(Column(f"{shock} F{k + 1}", "N", [
                i[k].get("max_force") if k < len(i) else None for i in lists]))
    if columns:
        notes.append("<shock> tk, Fk: the start of impact k on the shock (s) and its largest "
                     "normal force (N)")
    if cut:
        notes.append("; ".join(cut) + " (--collisions 0: all)")
    return columns


def _shocks(run: Run) -> list[str]:
    """The names of a discrete run's shocks (``parameters.model.shock``); none for
    another kind."""
    model = (run.data.get("parameters") or {}).get("model")
    shocks = model.get("shock") if isinstance(model, Mapping) else None
    return [str(s.get("name")) for s in shocks or [] if isinstance(s, Mapping)]


def _quantity(runs: Sequence[Run], name: str) -> Column:
    """The column of ``--quantity name``: each run's ``quantities[name]``, else the value
    of its check of that quantity.

    Raises:
        CaseError: no run has it (the closest names offered).

    """
    cells: list[Any] = []
    known: dict[str, None] = {}
    for run in runs:
        quantities = run.data.get("quantities") or {}
        checks = {str(c.get("quantity")): c.get("value")
                  for c in run.data.get("checks") or [] if isinstance(c, Mapping)}
        known.update(dict.fromkeys([*quantities, *checks]))
        cells.append(quantities[name] if name in quantities else checks.get(name))
    if name not in known:
        from rocking_contact.config import CaseError
        from rocking_contact.config.names import close_hint

        listed = sorted(known)
        shown = ", ".join(listed[:8]) + (f", ... ({len(listed)} in all)"
                                         if len(listed) > 8 else "")
        raise CaseError("--quantity", name, f"no run has it (allowed: a key of results.json's "
                        f"quantities or a check's quantity: {shown or 'none'}"
                        f"{close_hint(name, listed)})")
    return Column(name, quantity_unit(name), cells)


def quantity_unit(name: str) -> str:
    """A quantity's unit from its name (:data:`QUANTITY_UNITS`, :data:`NAMED_UNITS`;
    ``DX_NO2(0.1)``, a history column at an instant, its column's); "" if unknown."""
    if name in NAMED_UNITS:
        return NAMED_UNITS[name]
    column = re.fullmatch(r"(\w+)\(.*\)", name)
    if column:
        from rocking_contact.viz.channels import Channel

        return Channel.parse(column.group(1)).unit
    return QUANTITY_UNITS.get(name.rsplit(".", 1)[-1], "")
