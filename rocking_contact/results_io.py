"""The files a run's results are written to, and read back from.

:func:`write` puts a :class:`~rocking_contact.results.RunResult` in a directory as

- ``results.json``: ``case``, ``kind``, ``status``, ``parameters`` (fully resolved),
  ``quantities`` (name -> value), ``impacts``, ``collisions``, ``checks``, ``timing``
  (``wall_s``, ``steps``, ...), kind-specific ``extra`` data and the ``stack`` it ran on
  (component -> version, :mod:`rocking_contact.provenance`), ``warnings`` (sentences
  about the run that no reference check covers, e.g. energy created by the numerics) and
  its ``provenance`` (dates, command line, input files and their SHA-256, checkout, the
  ``rerun`` command line);
- ``history.csv``: a ``time`` column then one column per recorded quantity, named
  ``<COMPONENT>_<NODE>`` in Code_Aster style (``DX_NO2``, ``VX_NO2``, ``FN_NO1``);
- plots of the main time histories (PNG, SVG), listed in ``results.json``'s ``plots`` in
  the order a reader takes them (:mod:`rocking_contact.viz.plot_order`).

A block run streams its history as it goes (:class:`History`, in ``history.csv``'s format)
and its field frames; :class:`FieldIndex` keeps the frames' index ``fields.pvd`` current as
they are written (:func:`collection_xml`).

:func:`load` reads a directory back as JSON content and columns
(:func:`~rocking_contact.results.load_result`, as the :class:`RunResult`). An earlier run's
files in the directory a new run writes to are :mod:`rocking_contact.results_dir`'s
(set aside, restored, discarded).

``results.json`` and ``history.csv`` are written first, each through a temporary file and
:func:`os.replace`, so that a run stopped while its plots are drawn (a second Ctrl-C, a
scheduler's kill after its grace period) keeps its results whole; the plots follow. A block
run's ``history.csv`` is not written by :func:`write`: the run streamed it (:class:`History`)
and closed it whole before it returned (:func:`write`'s ``history``).
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import numpy as np

if TYPE_CHECKING:
    from rocking_contact.results import RunResult


RESULTS_FILE = "results.json"
HISTORY_FILE = "history.csv"
#: what a file is written to before it replaces the file of its name (an atomic rename)
PARTIAL_SUFFIX = ".partial"
#: the folder the plots are drawn in before they are moved beside results.json
PLOTS_STAGING = "plots" + PARTIAL_SUFFIX
#: how ``history.csv`` writes a value (printf style): eleven significant digits. A block
#: run streams its history row by row (:class:`History`); :func:`write_history_csv` writes
#: the others' at their end, and a block run's result written again (``rc.run(write=False)``,
#: then :func:`write`): both use this format and :func:`history_names`, so that a history
#: has one text however it was written
HISTORY_FORMAT = "%.10e"


def history_names(keys: Iterable[str]) -> list[str]:
    """The columns of ``history.csv`` in their order: ``time``, then the other ``keys`` as
    they come."""
    return ["time"] + [k for k in keys if k != "time"]


def write_history_csv(history: dict[str, np.ndarray], path: Path) -> None:
    """Write the history columns (``time`` first) as CSV with full precision."""
    names = history_names(history)
    data = np.column_stack([np.asarray(history[k], dtype=float) for k in names])
    np.savetxt(path, data, delimiter=",", header=",".join(names), comments="",
               fmt=HISTORY_FORMAT)


def read_history_csv(path: Path) -> dict[str, np.ndarray]:
    """Read a ``history.csv`` back into columns."""
    with open(path) as fh:
        names = fh.readline().strip().split(",")
    data = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2)
    return {name: data[:, i] for i, name in enumerate(names)}


#: bytes read from the end of a history for its last row (:func:`last_time`): a row of a
#: block run's 46 columns takes about 800
HISTORY_TAIL = 1 << 16


def last_time(path: Path) -> float | None:
    """The ``time`` (s) of the last whole row of the ``history.csv`` at ``path``, read from
    its end (a streamed one may hold 5e5 rows, its last one cut short by a kill); None
    without the file or a row."""
    try:
        with open(path, "rb") as fh:
            fh.seek(max(0, fh.seek(0, os.SEEK_END) - HISTORY_TAIL))
            whole = fh.read().split(b"\n")[:-1]  # after the last newline: a row not ended
    except OSError:
        return None
    try:
        return float(whole[-1].split(b",")[0]) if whole else None
    except ValueError:  # the header: no row
        return None


class History:
    """A time history that grows row by row and is streamed to ``history.csv`` as it grows
    (a block run's).

    The columns are fixed by the first row (``time`` first) and written in
    :data:`HISTORY_FORMAT`, the format :func:`write_history_csv` writes a whole history in.
    Every rank keeps the rows (their values are global, computed with collective
    reductions); only the one made with ``write=True`` (rank 0) writes the file, flushing
    every :attr:`FLUSH_EVERY` rows, so that a run that stops (failure, kill) leaves its history
    on disk. The file closed (:meth:`close`) is the run's ``history.csv``: the run's results
    are written beside it, not it again (:func:`write`'s ``history``).

    Args:
        path: the CSV file (None: memory only).
        write: True on the rank that writes (rank 0).

    """

    #: rows between flushes of the file
    FLUSH_EVERY = 50

    def __init__(self, path: Path | None = None, *, write: bool = True):
        self.path = path if write else None
        self.names: list[str] = []
        self.rows: list[list[float]] = []
        self._fh: TextIO | None = None
        self._row_format = ""  # a CSV line of the columns (printf style: one call a row)
        self._name_set: frozenset[str] = frozenset()

    def append(self, row: dict[str, float]) -> None:
        """Add a row; the first row fixes the columns (``time`` first)."""
        if not self.names:
            self.names = history_names(row)
            self._row_format = ",".join([HISTORY_FORMAT] * len(self.names)) + "\n"
            self._name_set = frozenset(self.names)
            if self.path is not None:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._fh = open(self.path, "w")
                self._fh.write(",".join(self.names) + "\n")
        if row.keys() != self._name_set:
            missing = self._name_set - row.keys()
            raise KeyError(f"history row columns differ from the first row: {sorted(missing)}")
        values = [float(row[k]) for k in self.names]
        self.rows.append(values)
        if self._fh is not None:
            with self._named():
                self._fh.write(self._row_format % tuple(values))
                if len(self.rows) % self.FLUSH_EVERY == 0:
                    self._fh.flush()

    def columns(self) -> dict[str, np.ndarray]:
        """The history as ``name -> array``."""
        data = np.array(self.rows, dtype=float).reshape(len(self.rows), len(self.names))
        return {name: data[:, i] for i, name in enumerate(self.names)}

    def close(self) -> None:
        """Flush and close the stream."""
        if self._fh is not None:
            fh, self._fh = self._fh, None
            with self._named():
                fh.close()

    @contextmanager
    def _named(self) -> Iterator[None]:
        """A write error of the stream names its file: a full disk is said as 'cannot write
        .../history.csv', where the flush's error had no name."""
        try:
            yield
        except OSError as exc:
            if exc.filename is None:
                exc.filename = str(self.path)
            raise


def write(result: RunResult, out_dir: Path, *, history: bool = True) -> Path:
    """Write ``history.csv`` and ``results.json`` into ``out_dir``, its ``plots`` empty: the
    plots are :func:`write_plots`'s, drawn after it (a run's: ``rocking_contact.api._draw``,
    which a Ctrl-C may cut short), which lists them there.

    Args:
        history: False: ``history.csv`` is there already, the run's own stream of the
            result's rows, closed before the run returned (a block run's, :class:`History`;
            one whose closing failed raised instead, its ``results.json`` left saying it
            started): it is not written again.

    """
    out_dir.mkdir(parents=True, exist_ok=True)
    if history and result.history:
        partial = partial_path(out_dir / HISTORY_FILE)
        write_history_csv(result.history, partial)
        os.replace(partial, out_dir / HISTORY_FILE)
    _write_json(result, out_dir, plots=[])
    return out_dir


def write_plots(result: RunResult, out_dir: Path) -> list[str]:
    """Draw the plots of a result whose ``results.json`` is written and list them in it
    (``plots``), so that the next run into the same directory takes them
    (:func:`~rocking_contact.results_dir.set_aside`).

    They are drawn in :data:`PLOTS_STAGING` and moved beside ``results.json`` when all are
    drawn: a drawing cut short (``KeyboardInterrupt``) leaves no plot that ``results.json``
    does not list, and a killed one only that folder, which the next run removes.
    Returns the plots' file names.
    """
    if not result.history:
        return []
    from rocking_contact.viz import history_plots
    from rocking_contact.viz.plot_order import ordered_plots

    staging = out_dir / PLOTS_STAGING
    shutil.rmtree(staging, ignore_errors=True)
    try:
        drawn = history_plots.plot_results(result, staging)
        for path in drawn:
            os.replace(path, out_dir / path.name)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    names = ordered_plots(p.name for p in drawn)
    _write_json(result, out_dir, plots=names)
    return names


def partial_path(path: Path) -> Path:
    """Where ``path`` is written before it replaces the file of its name."""
    return path.with_name(path.name + PARTIAL_SUFFIX)


def _write_json(result: RunResult, out_dir: Path, *, plots: list[str]) -> None:
    """``results.json``, atomically: a reader or a kill never meets half a file."""
    partial = partial_path(out_dir / RESULTS_FILE)
    with open(partial, "w", encoding="utf-8") as fh:
        json.dump({**result.to_json(), "plots": plots}, fh, indent=2)
        fh.write("\n")
    os.replace(partial, out_dir / RESULTS_FILE)


class FieldIndex:
    """The VTK collection ``fields.pvd`` of the frames that DOLFINx's ``VTKFile`` of that
    name writes (``<stem>NNNNNN.pvtu`` in order), kept current while the run goes: DOLFINx
    writes it only when the file is closed, which a killed run never does.

    Rewritten atomically after a frame, at most once per ``interval`` (s of wall time): a
    rewrite takes 0.3 ms, plus 1 ms per thousand frames, and a frame every step would
    make it grow with the square of the steps. A kill loses the last ``interval`` of
    frames from the index, not their files.
    """

    def __init__(self, path: Path, interval: float = 1.0):
        self.path, self.interval = path, interval
        self.times: list[float] = []
        self._due = 0.0

    def add(self, t: float) -> None:
        """A frame at ``t`` (s) was written; rewrite the index if it is due."""
        self.times.append(float(t))
        now = time.monotonic()
        if now >= self._due:
            self._due = now + self.interval
            self.write()

    def write(self) -> None:
        """Rewrite the index with every frame so far.

        Raises:
            OSError: it could not be written (a full disk), naming ``fields.pvd`` (the
                flush's error names no file); the index already there stays, the partial
                one goes.

        """
        partial = partial_path(self.path)
        try:
            partial.write_text(collection_xml(
                [(t, f"{self.path.stem}{i:06d}.pvtu") for i, t in enumerate(self.times)]),
                encoding="utf-8")
        except OSError as exc:
            partial.unlink(missing_ok=True)
            if exc.filename is None:
                exc.filename = str(self.path)
            raise
        os.replace(partial, self.path)


def collection_xml(entries: list[tuple[float, str]]) -> str:
    """A VTK collection (``.pvd``) of ``(time (s), dataset file)`` entries."""
    lines = ['<?xml version="1.0"?>', '<VTKFile type="Collection" version="1.0">',
             "  <Collection>"]
    lines += [f'    <DataSet timestep="{t!r}" part="0" file="{name}" />' for t, name in entries]
    lines += ["  </Collection>", "</VTKFile>", ""]
    return "\n".join(lines)


#: entries of results.json that the viewer and the report read as JSON objects / arrays
RESULTS_OBJECTS = ("parameters", "quantities", "timing", "extra", "stack", "provenance")
RESULTS_ARRAYS = ("checks", "collisions", "impacts", "warnings")


#: what a results directory is, as the errors of :func:`read_results` say it
RESULTS_DIRECTORY = ("allowed: a results directory written by run, validate, rigid, sweep "
                     "or rc.run")


def read_results(result_dir: str | os.PathLike[str]) -> dict[str, Any]:
    """The ``results.json`` content of a results directory: a JSON object with its case
    name, whose entries that are tables and arrays (:data:`RESULTS_OBJECTS`,
    :data:`RESULTS_ARRAYS`) are so. The reader of :func:`load` (the viewer, the report,
    :func:`~rocking_contact.results.load_result`) and of ``rocking-contact compare``.

    Raises:
        CaseError: no such directory, no ``results.json`` in it, or one that is not what a
            run writes: one line naming the directory or the file.

    """
    from rocking_contact.config import CaseError

    folder = Path(result_dir)
    if not folder.is_dir():
        what = "a file, not a directory" if folder.exists() else "no such directory"
        raise CaseError(str(result_dir), "", f"{what} ({RESULTS_DIRECTORY})")
    path = folder / RESULTS_FILE
    what = "allowed: the results.json a run writes"
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except FileNotFoundError:
        raise CaseError(str(result_dir), "", f"no {RESULTS_FILE} in it: not a results "
                        f"directory ({RESULTS_DIRECTORY})") from None
    except OSError as exc:
        raise CaseError(str(path), "", f"cannot read: {exc.strerror}") from None
    except ValueError as exc:  # JSONDecodeError, UnicodeDecodeError
        raise CaseError(str(path), "", f"not valid JSON: {exc} ({what})") from None
    if not isinstance(data, dict):
        raise CaseError(str(path), "", f"a JSON {json_type(data)}, not an object ({what})")
    if not isinstance(data.get("case"), str):
        got = "missing" if "case" not in data else f"a JSON {json_type(data['case'])}"
        raise CaseError(str(path), "case", f"{got}, expected the case name ({what})")
    for key, kind, wanted in ([(k, dict, "object") for k in RESULTS_OBJECTS]
                              + [(k, list, "array") for k in RESULTS_ARRAYS]):
        if data.get(key) is not None and not isinstance(data[key], kind):
            raise CaseError(str(path), key, f"a JSON {json_type(data[key])}, expected an "
                            f"{wanted} ({what})")
    for key in ("checks", "collisions", "impacts"):
        if not all(isinstance(item, dict) for item in data.get(key) or []):
            raise CaseError(str(path), key, f"expected an array of objects ({what})")
    return data


def load(result_dir: str | os.PathLike[str]) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """Read a results directory: the ``results.json`` content (:func:`read_results`) and
    the history columns (empty without a ``history.csv``).

    A ``results.json`` or ``history.csv`` that is not what a run writes (edited, truncated,
    another program's) is a one-line :class:`~rocking_contact.config.CaseError` naming the
    file, where a traceback would come later from whatever reads it.
    """
    from rocking_contact.config import CaseError

    data = read_results(result_dir)
    path = Path(result_dir) / HISTORY_FILE
    if not path.exists():
        return data, {}
    what = "allowed: the history.csv a run writes, a header time,... then rows of numbers"
    try:
        with open(path, encoding="utf-8") as fh:
            header, first_row = fh.readline().strip(), fh.readline().strip()
    except (OSError, ValueError) as exc:  # ValueError: not UTF-8
        raise CaseError(str(path), "", f"cannot read: {getattr(exc, 'strerror', exc)}"
                        ) from None
    if header.split(",")[0] != "time":
        raise CaseError(str(path), "", f"header {header[:40]!r} does not start with time "
                        f"({what})")
    if not first_row:  # numpy would only warn, and every reader fail on empty columns
        raise CaseError(str(path), "", f"no rows after the header ({what})")
    try:
        history = read_history_csv(path)
    except OSError as exc:
        raise CaseError(str(path), "", f"cannot read: {exc.strerror}") from None
    except ValueError as exc:  # a value that is not a number, rows of unequal lengths
        reason = str(exc).split(";")[0]  # not numpy's advice on its own options
        raise CaseError(str(path), "", f"not a table of numbers: {reason} ({what})") from None
    except IndexError:  # rows shorter than the header
        raise CaseError(str(path), "", f"fewer values per row than header columns ({what})"
                        ) from None
    return data, history


def json_type(value: Any) -> str:
    """The JSON name of a parsed value's type, for messages."""
    names = {dict: "object", list: "array", str: "string", bool: "true/false",
             type(None): "null"}
    return names.get(type(value), "number")
