"""The results of a run and the files they are written to.

Every kind of case produces a :class:`RunResult`; :func:`write` puts it in a directory as

- ``results.json``: ``case``, ``kind``, ``status``, ``parameters`` (fully resolved),
  ``quantities`` (name -> value), ``impacts``, ``collisions``, ``checks``, ``timing``
  (``wall_s``, ``steps``, ...), kind-specific ``extra`` data and the ``stack`` it ran on
  (component -> version, :mod:`rocking_contact.provenance`) and ``warnings`` (sentences
  about the run that no reference check covers, e.g. energy created by the numerics);
- ``history.csv``: a ``time`` column then one column per recorded quantity, named
  ``<COMPONENT>_<NODE>`` in Code_Aster style (``DX_NO2``, ``VX_NO2``, ``FN_NO1``);
- plots of the main time histories (PNG, SVG).

:func:`load_result` reads a directory back into the :class:`RunResult`.

``results.json`` and ``history.csv`` are written first, each through a temporary file and
:func:`os.replace`, so that a run stopped while its plots are drawn (a second Ctrl-C, a
scheduler's kill after its grace period) keeps its results whole; the plots follow.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from rocking_contact import interrupt

RESULTS_FILE = "results.json"
HISTORY_FILE = "history.csv"
#: what a file is written to before it replaces the file of its name (an atomic rename)
PARTIAL_SUFFIX = ".partial"
#: the folder the plots are drawn in before they are moved beside results.json
PLOTS_STAGING = "plots" + PARTIAL_SUFFIX
#: ``status`` of the results.json written as a run starts; a killed run keeps it
STARTED = "started: still running, or stopped before it wrote its results (killed)"


@dataclass(repr=False, eq=False)
class RunResult:
    """Everything a run computed, in memory: what ``results.json`` and ``history.csv``
    hold. SI units throughout (m, s, N, J, rad); times in s from the case's ``time.start``.

    Attributes:
        case: the case name (``case.name`` of the case file).
        kind: ``"discrete"``, ``"rigid"`` or ``"block"``.
        parameters: the fully resolved case file, as nested dicts and lists.
        history: column name -> numpy array over the recorded instants; ``time`` (s)
            first, then Code_Aster-style columns (``DX_NO2`` m, ``VX_NO2`` m/s, ``FN_NO1``
            N; every column and its unit in ``docs/outputs.md``).
        quantities: name -> value (SI) of every computed quantity, the case's
            ``[[quantity]]`` included (``impact.NO1.1.max_force``, ``collision.1.time``;
            a ``[[quantity]]`` whose column is missing is NaN).
        impacts: one dict per impact of a discrete case (``shock``, ``index``, ``start``,
            ``end``, ``t_max`` s, ``max_force`` N, ``impulse`` N s, ``speed`` m/s, ...).
        collisions: one dict per collision of a block (``index``, ``time`` s,
            ``kinetic_energy`` J, ...).
        checks: one dict per ``[[reference]]``: ``quantity``, ``reference``, ``value``,
            ``abs_error``, ``rel_error``, ``tolerance``, ``tolerance_kind``, ``source``,
            ``passed`` (True, False, or None for information only), ``note``.
        timing: ``wall_s`` (s of wall time), ``steps`` and the kind's solver counters.
        extra: kind-specific data (the rigid levels, the FEM energy balance, ...).
        status: ``"completed"``, or what stopped the run (``"failed: ..."``,
            ``"interrupted at t = ..."``, ``"the block overturned at t = ..."``).
        stack: component -> version the run was computed with.
        warnings: sentences about the run that no check covers (also said on stderr).

    Use :meth:`columns` for the rows of ``impacts``, ``collisions`` or ``checks`` as
    arrays; :func:`load_result` reads one back from its results directory. Two results
    are equal only if they are the same object (``==`` is ``is``): compare what you need,
    ``np.array_equal(a.history["DX_NO1"], b.history["DX_NO1"])``.

    """

    case: str
    kind: str
    parameters: dict[str, Any]
    history: dict[str, np.ndarray]
    quantities: dict[str, float] = field(default_factory=dict)
    impacts: list[dict[str, Any]] = field(default_factory=list)
    collisions: list[dict[str, Any]] = field(default_factory=list)
    checks: list[dict[str, Any]] = field(default_factory=list)
    timing: dict[str, Any] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)
    status: str = "completed"
    stack: dict[str, str] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool | None:
        """Whether the run passed its references: True when it completed and every check
        with a pass mark passed; False when it stopped early (failed, interrupted,
        overturned) or a graded check failed or was not reached; None when it completed
        with nothing graded (a case without references, or a run that changes the
        physics they describe: its checks are information only). None is falsy, so
        ``if result.passed:`` holds only for a run that passed something."""
        if self.status != "completed":
            return False
        counts = check_counts(self.checks)
        if not counts.graded:
            return None
        return counts.passed == counts.graded

    def columns(self, rows: str) -> dict[str, np.ndarray]:
        """The rows of ``impacts``, ``collisions`` or ``checks`` as one numpy array per key,
        in row order: ``result.columns("collisions")["time"]`` is every collision's time
        (s). A key whose values are all integers gives an int64 array (``index``), all
        True/False a bool array (``interior``, ``complete``), all numbers a float array;
        a missing value or None makes a numeric key's array float with NaN there, and
        leaves a flag's an object array (``checks``' ``passed`` is None for information
        rows: ``== True`` still selects the passed ones). Other keys (names, notes) give
        object arrays. A run without such rows gives an empty array for each field of
        that row type (:data:`ROW_FIELDS`), none for a kind that has none (a block's
        impacts).

        Raises:
            CaseError: ``rows`` is not one of those three names.

        """
        if rows not in ROW_ENTRIES:
            from rocking_contact.config import CaseError

            raise CaseError("RunResult.columns", "rows", f"got {rows!r}, allowed: "
                            f"{', '.join(ROW_ENTRIES)}")
        table: list[dict[str, Any]] = getattr(self, rows)
        if not table:  # none: the fields all the same, so that ``checks["abs_error"]`` works
            return {key: np.array([], dtype=dtype)
                    for key, dtype in ROW_FIELDS.get((rows, self.kind), {}).items()}
        keys = list(dict.fromkeys(key for row in table for key in row))
        return {key: _column([row.get(key) for row in table]) for key in keys}

    def __repr__(self) -> str:
        """One line: what the run is and how much it holds, not the arrays themselves. The
        checks are counted as the command line's summary line counts them, the collisions
        without the window maxima that are none (:func:`~rocking_contact.post.collisions.
        interior`)."""
        from rocking_contact.post.collisions import interior

        times = self.history.get("time")
        span = (f" over t = {times[0]:g}..{times[-1]:g} s" if times is not None and len(times)
                else "")
        return (f"<RunResult {self.case!r} ({self.kind}): {self.status}; checks "
                f"{check_counts(self.checks)}; history {len(self.history)} columns x "
                f"{0 if times is None else len(times)} rows{span}; {len(self.quantities)} "
                f"quantities, {len(interior(self.collisions))} collisions, "
                f"{len(self.impacts)} impacts, {len(self.warnings)} warnings>")

    def to_json(self) -> dict[str, Any]:
        """The ``results.json`` content."""
        content: dict[str, Any] = _plain({
            "case": self.case,
            "kind": self.kind,
            "status": self.status,
            "parameters": self.parameters,
            "quantities": self.quantities,
            "impacts": self.impacts,
            "collisions": self.collisions,
            "checks": self.checks,
            "timing": self.timing,
            "extra": self.extra,
            "stack": self.stack,
            "warnings": self.warnings,
        })
        return content


class RunStopped(BaseException):
    """A run that ended before ``time.end``; carries what was computed up to there.

    The base of :class:`SolverFailure` (an error, caught by ``except Exception``) and of
    :class:`Interrupted` (a request to stop, a ``KeyboardInterrupt``, which that clause
    lets through): ``except rc.RunStopped`` catches both, with their partial result.

    Attributes:
        partial: the :class:`RunResult` up to the stop (its ``status`` says why, its
            checks compare what was reached), or None when the run stopped before its
            first step.

    """

    def __init__(self, message: str, partial: RunResult | None = None):
        super().__init__(message)
        self.partial = partial

    @property
    def status(self) -> str:
        """The ``status`` of the partial result: the message."""
        return str(self)

    def describe(self) -> str:
        """The one line said to the user (after ``error:``)."""
        return str(self)


class SolverFailure(RunStopped, RuntimeError):
    """A run that could not continue; carries what was computed before the failure.

    The message says where: simulated time (s), step size (s), residual; ``partial``
    (:class:`RunStopped`) holds the result up to the failure, already written.

    """

    @property
    def status(self) -> str:
        """The ``status`` of the partial result: ``failed: ...``."""
        return f"failed: {self}"

    def describe(self) -> str:
        """The one line said to the user (after ``error:``)."""
        return f"solver failed: {self}"


class Interrupted(RunStopped, KeyboardInterrupt):
    """A run stopped on request (Ctrl-C or SIGTERM, :mod:`rocking_contact.interrupt`)
    after the step under way; carries what was computed up to there, already written.

    A ``KeyboardInterrupt``, not an error: ``except Exception`` or ``except
    SolverFailure`` around :func:`rocking_contact.run` in a loop let it through, so that
    Ctrl-C stops the whole script (uncaught, it ends it as a Ctrl-C does), and
    ``except rc.Interrupted as stop: stop.partial`` reaches what the run computed.

    Attributes:
        partial: the :class:`RunResult` up to the stop (``status`` ``interrupted at t =
            ... s``), or None when the run stopped before its first step.
        signal: the number of the signal that asked for the stop (``signal.SIGINT``, 2,
            for Ctrl-C and for a stop asked in code; ``signal.SIGTERM``, 15).

    """

    def __init__(self, message: str, partial: RunResult | None = None,
                 signal: int | None = None):
        super().__init__(message, partial)
        self.signal = interrupt.stop_signal() if signal is None else int(signal)

    @property
    def exit_code(self) -> int:
        """The shell's exit code of a process stopped by :attr:`signal`: 128 + its number
        (130 for Ctrl-C, 143 for SIGTERM), what the command line exits with."""
        return 128 + self.signal


class Overturned(SolverFailure):
    """A block run stopped because the block toppled or slid off its table
    (:mod:`rocking_contact.fem.overturn`);
    carries what was computed up to there. The solver did not fail: the physics left the
    model."""

    @property
    def status(self) -> str:
        """The ``status`` of the partial result: ``the block overturned at t = ... s: ...``
        or ``the block slid off its table at t = ... s: ...``."""
        return str(self)

    def describe(self) -> str:
        """The one line said to the user: what happened, not a solver failure."""
        return str(self)


class CheckCounts(NamedTuple):
    """The checks of a run by outcome: those with a pass mark (``graded``) that
    ``passed``, ``failed`` on a value, or were ``not_reached`` (the run ended before what
    they measure: :func:`~rocking_contact.post.references.not_reached`), and those shown
    for ``information`` (no pass mark)."""

    passed: int
    failed: int
    not_reached: int
    information: int

    @property
    def graded(self) -> int:
        """The checks with a pass mark."""
        return self.passed + self.failed + self.not_reached

    def __str__(self) -> str:
        """``3 passed, 1 failed, 14 not reached, 2 information``, the zero counts left out
        but the passed."""
        parts = [f"{self.passed} passed"] + [
            f"{n} {name.replace('_', ' ')}" for name, n in
            (("failed", self.failed), ("not_reached", self.not_reached),
             ("information", self.information)) if n]
        return ", ".join(parts)


def check_counts(checks: list[dict[str, Any]]) -> CheckCounts:
    """Count a run's checks by outcome (:class:`CheckCounts`): what ``repr`` of a
    :class:`RunResult` and the command line's summary line say."""
    from rocking_contact.post.references import not_reached

    graded = [c for c in checks if c.get("passed") is not None]
    passed = sum(bool(c["passed"]) for c in graded)
    unreached = sum(not c["passed"] and not_reached(c) for c in graded)
    return CheckCounts(passed, len(graded) - passed - unreached, unreached,
                       len(checks) - len(graded))


#: the entries of a :class:`RunResult` that hold one dict per row
ROW_ENTRIES = ("impacts", "collisions", "checks")

_CHECK = {"quantity": object, "reference": float, "value": float, "abs_error": float,
          "rel_error": float, "tolerance": float, "tolerance_kind": object,
          "abs_tolerance": float, "source": object, "passed": object, "note": object}
#: (rows, kind) -> the fields of such a row and the array type an empty table gives each
#: (:meth:`RunResult.columns`): the checks of ``post.references.compare``, the impacts of
#: ``post.impacts.analyse``, the collisions of ``post.collisions`` (block) and of
#: ``analytic.rigid_block.Impact.as_dict`` (rigid). tests/test_api.py holds them to the
#: rows runs make.
ROW_FIELDS: dict[tuple[str, str], dict[str, Any]] = {
    **{("checks", kind): _CHECK for kind in ("discrete", "rigid", "block")},
    ("impacts", "discrete"): {
        "shock": object, "node": object, "index": np.int64,
        **dict.fromkeys(("start", "end", "t_max", "max_force", "duration", "impulse",
                         "speed", "rebound_speed"), float),
        "complete": bool, "resolved": bool},
    ("collisions", "block"): {"index": np.int64, "time": float, "kinetic_energy": float,
                              "interior": bool, "impact": float},
    ("collisions", "rigid"): {
        "index": np.int64, "time": float, "corner": object,
        **dict.fromkeys(("omega_before", "omega_after", "kinetic_energy",
                         "kinetic_energy_after", "vy_before", "percussion_y",
                         "percussion_x", "energy_ratio"), float)},
}


def _column(values: list[Any]) -> np.ndarray:
    """The array of one key of rows: int64 for integers, bool for flags, float for numbers
    (None as NaN, which turns integers to floats), else an object array (names, notes,
    flags with None, kept as given)."""
    given = [v for v in values if v is not None]
    if given and all(isinstance(v, bool | np.bool_) for v in given):
        if len(given) == len(values):
            return np.array(values, dtype=bool)
    elif all(isinstance(v, int | float | np.number) for v in given):
        if len(given) == len(values) and all(isinstance(v, int | np.integer) for v in given):
            return np.array(values, dtype=np.int64)
        return np.array([np.nan if v is None else v for v in values], dtype=float)
    column = np.empty(len(values), dtype=object)
    column[:] = values
    return column


def _plain(obj: Any) -> Any:
    """Convert numpy scalars/arrays and non-finite floats to JSON-ready values."""
    if isinstance(obj, dict):
        return {str(k): _plain(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [_plain(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return _plain(obj.tolist())
    if isinstance(obj, np.generic):
        return _plain(obj.item())
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    return obj


def write_history_csv(history: dict[str, np.ndarray], path: Path) -> None:
    """Write the history columns (``time`` first) as CSV with full precision."""
    names = ["time"] + [k for k in history if k != "time"]
    data = np.column_stack([np.asarray(history[k], dtype=float) for k in names])
    np.savetxt(path, data, delimiter=",", header=",".join(names), comments="", fmt="%.10e")


def read_history_csv(path: Path) -> dict[str, np.ndarray]:
    """Read a ``history.csv`` back into columns."""
    with open(path) as fh:
        names = fh.readline().strip().split(",")
    data = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2)
    return {name: data[:, i] for i, name in enumerate(names)}


def write(result: RunResult, out_dir: Path, *, plots: bool = True) -> Path:
    """Write ``history.csv`` and ``results.json`` into ``out_dir``, then the plots
    (:func:`write_plots`, which lists them in ``results.json``)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    if result.history:
        partial = _partial(out_dir / HISTORY_FILE)
        write_history_csv(result.history, partial)
        os.replace(partial, out_dir / HISTORY_FILE)
    _write_json(result, out_dir, plots=[])
    if plots:
        write_plots(result, out_dir)
    return out_dir


def write_plots(result: RunResult, out_dir: Path) -> list[str]:
    """Draw the plots of a result whose ``results.json`` is written and list them in it
    (``plots``), so that the next run into the same directory removes them (:func:`clear`).

    They are drawn in :data:`PLOTS_STAGING` and moved beside ``results.json`` when all are
    drawn: a drawing cut short (``KeyboardInterrupt``) leaves no plot that ``results.json``
    does not list, and a killed one only that folder, which the next run removes.
    Returns the plots' file names.
    """
    if not result.history:
        return []
    from rocking_contact.post import plots as plotting

    staging = out_dir / PLOTS_STAGING
    shutil.rmtree(staging, ignore_errors=True)
    try:
        drawn = plotting.plot_run(result, staging)
        for path in drawn:
            os.replace(path, out_dir / path.name)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    names = sorted(p.name for p in drawn)
    _write_json(result, out_dir, plots=names)
    return names


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
        """Rewrite the index with every frame so far."""
        partial = _partial(self.path)
        partial.write_text(collection_xml(
            [(t, f"{self.path.stem}{i:06d}.pvtu") for i, t in enumerate(self.times)]),
            encoding="utf-8")
        os.replace(partial, self.path)


def collection_xml(entries: list[tuple[float, str]]) -> str:
    """A VTK collection (``.pvd``) of ``(time (s), dataset file)`` entries."""
    lines = ['<?xml version="1.0"?>', '<VTKFile type="Collection" version="1.0">',
             "  <Collection>"]
    lines += [f'    <DataSet timestep="{t!r}" part="0" file="{name}" />' for t, name in entries]
    lines += ["  </Collection>", "</VTKFile>", ""]
    return "\n".join(lines)


def _partial(path: Path) -> Path:
    """Where ``path`` is written before it replaces the file of its name."""
    return path.with_name(path.name + PARTIAL_SUFFIX)


def _write_json(result: RunResult, out_dir: Path, *, plots: list[str]) -> None:
    """``results.json``, atomically: a reader or a kill never meets half a file."""
    partial = _partial(out_dir / RESULTS_FILE)
    with open(partial, "w", encoding="utf-8") as fh:
        json.dump({**result.to_json(), "plots": plots}, fh, indent=2)
        fh.write("\n")
    os.replace(partial, out_dir / RESULTS_FILE)


#: what a run writes besides its plots: results, history, the field series (VTK: the
#: ``fields.pvd`` index, a ``fieldsNNNNNN.pvtu`` per frame and a ``fields_pR_NNNNNN.vtu`` per
#: rank and frame; XDMF: ``fields.xdmf`` and ``fields.h5``), and the files a killed run may
#: leave half written. Patterns as narrow as those names: a user's ``fields_survey.csv``
#: beside the results stays.
RUN_FILES = (RESULTS_FILE, HISTORY_FILE, "fields.pvd", "fields.xdmf", "fields.h5",
             "fields[0-9]*.pvtu", "fields[0-9]*.vtu", "fields_p[0-9]*_[0-9]*.vtu",
             *(name + PARTIAL_SUFFIX for name in (RESULTS_FILE, HISTORY_FILE, "fields.pvd")))


def clear(out_dir: Path) -> list[Path]:
    """Remove an earlier run's files from ``out_dir`` (the results directory holds one
    run: frames or plots left from a longer run would be read as this one's). Only the
    files a run writes go: :data:`RUN_FILES`, the plots its ``results.json`` lists and the
    folder of plots a killed run was drawing (:data:`PLOTS_STAGING`). Returns what was
    removed."""
    names: list[str] = []
    try:
        with open(out_dir / RESULTS_FILE, encoding="utf-8") as fh:
            listed = json.load(fh).get("plots", [])
        names = [n for n in listed if isinstance(n, str) and Path(n).name == n]
    except (OSError, ValueError, AttributeError):
        pass  # no earlier results.json, or not one a run wrote: its plots are unknown
    gone = [p for pattern in (*RUN_FILES, *names) for p in out_dir.glob(pattern)
            if p.is_file()]
    for path in gone:
        path.unlink()
    if (out_dir / PLOTS_STAGING).is_dir():
        shutil.rmtree(out_dir / PLOTS_STAGING)
        gone.append(out_dir / PLOTS_STAGING)
    return gone


#: entries of results.json that the viewer and the report read as JSON objects / arrays
RESULTS_OBJECTS = ("parameters", "quantities", "timing", "extra", "stack")
RESULTS_ARRAYS = ("checks", "collisions", "impacts", "warnings")


def load(result_dir: str | os.PathLike[str]) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """Read a results directory: the ``results.json`` content and the history columns.

    A ``results.json`` or ``history.csv`` that is not what a run writes (edited, truncated,
    another program's) is a one-line :class:`~rocking_contact.config.CaseError` naming the
    file, where a traceback would come later from whatever reads it.
    """
    from rocking_contact.config import CaseError

    path = Path(result_dir) / RESULTS_FILE
    what = "allowed: the results.json a run writes"
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except OSError as exc:
        raise CaseError(str(path), "", f"cannot read: {exc.strerror}") from None
    except ValueError as exc:  # JSONDecodeError, UnicodeDecodeError
        raise CaseError(str(path), "", f"not valid JSON: {exc} ({what})") from None
    if not isinstance(data, dict):
        raise CaseError(str(path), "", f"a JSON {_json_type(data)}, not an object ({what})")
    if not isinstance(data.get("case"), str):
        got = "missing" if "case" not in data else f"a JSON {_json_type(data['case'])}"
        raise CaseError(str(path), "case", f"{got}, expected the case name ({what})")
    for key, kind, wanted in ([(k, dict, "object") for k in RESULTS_OBJECTS]
                              + [(k, list, "array") for k in RESULTS_ARRAYS]):
        if data.get(key) is not None and not isinstance(data[key], kind):
            raise CaseError(str(path), key, f"a JSON {_json_type(data[key])}, expected an "
                            f"{wanted} ({what})")
    for key in ("checks", "collisions", "impacts"):
        if not all(isinstance(item, dict) for item in data.get(key) or []):
            raise CaseError(str(path), key, f"expected an array of objects ({what})")

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


#: the keys of a check that a run holds as floats: NaN (or inf) where results.json says null
CHECK_NUMBERS = ("value", "abs_error", "rel_error")


def load_result(path: str | os.PathLike[str]) -> RunResult:
    """Read a results directory back into the :class:`RunResult` the run held: what
    :func:`rocking_contact.run` returned (or a stopped run's ``.partial``), from the
    ``results.json`` and ``history.csv`` it wrote.

    ``history`` comes back as numpy arrays (``time`` in s first; the CSV keeps 11
    significant digits), ``impacts``, ``collisions`` and ``checks`` as lists of dicts.
    A number results.json holds as null (a non-finite value: JSON has none) is NaN in
    ``quantities`` and in the checks' ``value``, ``abs_error`` and ``rel_error`` (an
    infinite relative error, of a zero reference, too), None elsewhere. The run's
    ``plots`` are not part of the result: they are files beside it. A killed run's
    directory reads too (``status`` :data:`STARTED`, the history it streamed).

    Args:
        path: the results directory (``out`` of :func:`rocking_contact.run`, ``--out`` of
            ``rocking-contact run``).

    Returns:
        The :class:`RunResult`.

    Raises:
        CaseError: no ``results.json`` there, or one (or a ``history.csv``) that is not
            what a run writes; one line naming the file and the entry.

    """
    from rocking_contact.config import CaseError

    data, history = load(path)
    file = str(Path(path) / RESULTS_FILE)
    for key in ("kind", "status"):
        if not isinstance(data.get(key), str):
            got = "missing" if key not in data else f"a JSON {_json_type(data[key])}"
            raise CaseError(file, key, f"{got}, expected a string "
                            "(allowed: the results.json a run writes)")
    quantities = data.get("quantities") or {}
    wrong = next((k for k, v in quantities.items() if v is not None and
                  (not isinstance(v, int | float) or isinstance(v, bool))), None)
    if wrong is not None:
        raise CaseError(file, f"quantities.{wrong}", f"a JSON {_json_type(quantities[wrong])}"
                        ", expected a number or null (allowed: the results.json a run "
                        "writes)")
    checks = [{**check, **{k: math.nan for k in CHECK_NUMBERS
                           if k in check and check[k] is None}}
              for check in data.get("checks") or []]
    return RunResult(
        case=data["case"], kind=data["kind"], parameters=data.get("parameters") or {},
        history=history,
        quantities={k: math.nan if v is None else v for k, v in quantities.items()},
        impacts=data.get("impacts") or [], collisions=data.get("collisions") or [],
        checks=checks, timing=data.get("timing") or {}, extra=data.get("extra") or {},
        status=data["status"], stack=data.get("stack") or {},
        warnings=data.get("warnings") or [])


def _json_type(value: Any) -> str:
    """The JSON name of a parsed value's type, for messages."""
    names = {dict: "object", list: "array", str: "string", bool: "true/false",
             type(None): "null"}
    return names.get(type(value), "number")
