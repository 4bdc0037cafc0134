"""The results of a run: :class:`RunResult`, what every kind of case computes, its checks
counted (:class:`CheckCounts`), and :func:`load_result`, a results directory read back.

The files they are written to (a block run's field index ``fields.pvd`` too:
:class:`~rocking_contact.results_io.FieldIndex`) are :mod:`rocking_contact.results_io`'s
(those a run sets aside for the next, :data:`~rocking_contact.results_dir.RUN_FILES`,
:mod:`rocking_contact.results_dir`'s),
what ends a run early (:class:`~rocking_contact.stops.RunStopped`,
:class:`~rocking_contact.stops.SolverFailure`, :class:`~rocking_contact.stops.Interrupted`,
:class:`~rocking_contact.stops.Overturned`) :mod:`rocking_contact.stops`'; import them from
those modules.
"""

from __future__ import annotations

import enum
import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from rocking_contact.results_io import RESULTS_FILE, json_type, load

__all__ = [
    "STARTED", "ABORTED", "aborted", "RunResult", "CheckCounts", "check_counts", "Verdict",
    "classify", "stopped", "wrote_no_results", "ROW_ENTRIES", "ROW_FIELDS", "CHECK_NUMBERS",
    "load_result",
]

#: ``status`` of the results.json written as a run starts; a killed run keeps it
STARTED = "started: still running, or stopped before it wrote its results (killed)"
#: the first word of the ``status`` of a run aborted before it wrote its results
#: (:func:`aborted`)
ABORTED = "aborted"


def aborted(t: float | None, signal_name: str) -> str:
    """The ``status`` that replaces :data:`STARTED` when a second Ctrl-C or SIGTERM
    (``signal_name``, again: the first asked the run to stop after its step and write its
    results) aborted the run at once, before it wrote its results: nothing was graded, and
    what it streamed stays, its history up to ``t`` (s, the last row written; None: no
    row)."""
    where = f" at t = {t:.6g} s" if t is not None else ""
    kept = "; the history and fields streamed so far are kept" if t is not None else ""
    return (f"{ABORTED}{where}: {signal_name} again before the run wrote its results "
            f"(nothing graded{kept})")


@dataclass(repr=False, eq=False)
class RunResult:
    """Everything a run computed, in memory: what ``results.json`` and ``history.csv``
    hold. SI units throughout (m, s, N, J, rad); times are the case's own, in s (absolute:
    a run with ``time.start = 0.1`` has ``history["time"][0] == 0.1``).

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
        collisions: a block's kinetic-energy maximum in each collision window, as
            ``results.json`` holds them: ``index``, ``time`` s, ``kinetic_energy`` J,
            ``impact`` and the flag ``interior``; only those ``interior`` to their window
            are collisions (a maximum on the window's bound, such as the run's last
            instant, or the previous collision again, is none: ``docs/outputs.md``), and
            :meth:`columns` gives those alone. A rigid run's are its impacts (no flag:
            all collisions).
        checks: one dict per ``[[reference]]``: ``quantity``, ``reference``, ``value``,
            ``abs_error``, ``rel_error``, ``tolerance``, ``tolerance_kind``, ``source``,
            ``passed`` (True, False, or None for information only), ``note``.
        timing: ``wall_s`` (s: wall time of the kind's runner, for a completed and a
            stopped run alike; a block's from its meshing through its preload, steps and
            post-processing, a discrete run's without ``compile_s``; not the loading of the
            case, its grading nor the writing of the results), ``steps`` and the kind's
            solver counters; a FEM run's ``setup_s`` (s, within ``wall_s``: from its start
            to the release: mesh, spaces, forms, preload), a discrete run's ``compile_s``
            (s compiling or loading its numba kernels, not in ``wall_s``); every key in
            ``docs/outputs.md``.
        extra: kind-specific data (the rigid levels, the FEM energy balance, ...).
        status: ``"completed"``, or what stopped the run: ``"failed: ..."`` (a solver
            failure, or ``"failed: the run diverged: ..."``, steps that created the energy
            that took the block off its table), ``"interrupted at t = ..."`` (Ctrl-C,
            SIGTERM), ``"the block overturned at t = ..."``, ``"the block slid off its
            table at t = ..."``; or :data:`STARTED` (``"started: ..."``), read back by
            :func:`load_result` from a run still under way or killed, or :func:`aborted`'s
            (``"aborted at t = ..."``) from one a second Ctrl-C or SIGTERM aborted.
        stack: component -> version the run was computed with.
        provenance: where the run came from and how to run it again: UTC ``started`` and
            ``ended``, ``argv``, ``cwd``, the ``case`` as given, its ``case_file``, the
            ``overrides`` in order, the ``files`` read with their SHA-256, the package
            ``version`` and git ``checkout``, ``mpi_ranks`` and the ``rerun`` command
            line (:func:`~rocking_contact.provenance.run_record`; ``docs/outputs.md``).
            Empty for results written before it was recorded.
        warnings: sentences about the run that no check covers (also said on stderr).

    Use :meth:`columns` for the rows of ``impacts``, ``collisions`` (the interior ones)
    or ``checks`` as arrays; :func:`load_result` reads one back from its results
    directory. Two results are equal only if they are the same object (``==`` is ``is``):
    compare what you need, ``np.array_equal(a.history["DX_NO1"], b.history["DX_NO1"])``.

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
    provenance: dict[str, Any] = field(default_factory=dict)

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

    @property
    def changes(self) -> list[str]:
        """The dotted keys of the physics this run changes from its case file
        (``extra["changes"]``: ``["contact.mu"]`` for ``sdnv105d`` with ``contact.mu =
        0.3``; empty for the file as written, or for a change of numerics alone such as
        ``time.step``). A run that changes some is graded on nothing: its checks are
        information only. For the rigid twin of a block case (``rocking-contact rigid``),
        those the block case's overrides change in its file. Their values are in
        ``parameters``; a study reads ``changes`` to label its runs."""
        return list(self.extra.get("changes") or [])

    def columns(self, rows: str) -> dict[str, np.ndarray]:
        """The rows of ``impacts``, ``collisions`` or ``checks`` as one numpy array per key,
        in row order: ``result.columns("collisions")["time"]`` is every collision's time
        (s). The collisions are the window maxima ``interior`` to their window, those
        ``repr``, the checks, the plots and the report count; the list
        ``result.collisions`` keeps every maximum with its flag (those that are none:
        ``[c for c in result.collisions if not c.get("interior", True)]``).

        A key whose values are all integers gives an int64 array (``index``), all
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
        from rocking_contact.post.collisions import interior

        table: list[dict[str, Any]] = getattr(self, rows)
        if rows == "collisions":  # the window maxima that are collisions
            table = interior(table)
        if not table:  # none: the fields all the same, so that ``checks["abs_error"]`` works
            return {key: np.array([], dtype=dtype)
                    for key, dtype in ROW_FIELDS.get((rows, self.kind), {}).items()}
        keys = list(dict.fromkeys(key for row in table for key in row))
        return {key: _column([row.get(key) for row in table]) for key in keys}

    def __repr__(self) -> str:
        """One line: what the run is and how much it holds, not the arrays themselves. The
        checks are counted as the command line's summary line counts them, the rows of the
        kind's own (:data:`ROW_FIELDS`: a discrete run's impacts, a block's and a rigid
        run's collisions), a block's collisions without the window maxima that are none
        (:func:`~rocking_contact.post.collisions.interior`). A block's impacts are its
        collisions' ``impact`` (which of its contact changes the collision is): it has no
        ``impacts`` rows, and counting those would say '1 collisions, 0 impacts' of a
        collision marked impact 1."""
        from rocking_contact.post.collisions import interior

        times = self.history.get("time")
        span = (f" over t = {times[0]:g}..{times[-1]:g} s" if times is not None and len(times)
                else "")
        rows = {"impacts": self.impacts, "collisions": interior(self.collisions)}
        held = [counted(len(found), name[:-1]) for name, found in rows.items()
                if (name, self.kind) in ROW_FIELDS]
        return (f"<RunResult {self.case!r} ({self.kind}): {self.status}; checks "
                f"{check_counts(self.checks)}; history "
                f"{counted(len(self.history), 'column')} x "
                f"{counted(0 if times is None else len(times), 'row')}{span}; "
                + ", ".join([counted(len(self.quantities), "quantity", "quantities"), *held,
                             counted(len(self.warnings), "warning")]) + ">")

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
            "provenance": self.provenance,
        })
        return content


def counted(n: int, word: str, words: str | None = None) -> str:
    """``1 collision``, ``0 collisions``: ``n`` and the noun, plural (``words``, else
    ``word`` + s) unless ``n`` is 1."""
    return f"{n} {word if n == 1 else words or word + 's'}"


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


def check_counts(checks: Sequence[Mapping[str, Any]]) -> CheckCounts:
    """Count a run's checks by outcome (:class:`CheckCounts`): what ``repr`` of a
    :class:`RunResult`, the command line's summary line and the report say."""
    from rocking_contact.post.references import not_reached

    graded = [c for c in checks if c.get("passed") is not None]
    passed = sum(bool(c["passed"]) for c in graded)
    unreached = sum(not c["passed"] and not_reached(c) for c in graded)
    return CheckCounts(passed, len(graded) - passed - unreached, unreached,
                       len(checks) - len(graded))


class Verdict(enum.Enum):
    """What a run's results say of its validation (:func:`classify`), in the order it is
    decided; ``validate`` and the report each say it in their own words."""

    #: stopped by Ctrl-C or SIGTERM (aborted by a second one too): the user's stop, no
    #: failure of the run's
    INTERRUPTED = enum.auto()
    #: :data:`STARTED`: killed, or still running; nothing graded yet
    UNFINISHED = enum.auto()
    #: stopped by a solver failure, a divergence, an overturn or a slide off the table
    RUN_FAILED = enum.auto()
    #: completed, and a graded check failed on its value
    FAIL = enum.auto()
    #: completed, no check failed, but some were not reached (a shortened ``time.end``)
    INCOMPLETE = enum.auto()
    #: completed, and every graded check passed
    PASS = enum.auto()
    #: completed with no check graded (no reference, or none that applies here)
    NOT_GRADED = enum.auto()


def classify(status: str, checks: Sequence[Mapping[str, Any]]) -> Verdict:
    """The :class:`Verdict` of a run from its ``status`` and ``checks`` (a
    :class:`RunResult`'s, or a ``results.json``'s): how it ended first, then its checks
    counted as :func:`check_counts` counts them."""
    if status.startswith(("interrupted", ABORTED)):
        return Verdict.INTERRUPTED
    if status == STARTED:
        return Verdict.UNFINISHED
    if status != "completed":
        return Verdict.RUN_FAILED
    counts = check_counts(checks)
    if counts.failed:
        return Verdict.FAIL
    if counts.not_reached:
        return Verdict.INCOMPLETE
    return Verdict.PASS if counts.passed else Verdict.NOT_GRADED


def stopped(status: str) -> bool:
    """Whether a run of this ``status`` stopped before its end (interrupted, failed,
    overturned, slid off its table), which a longer ``time.end`` would not have changed;
    not one that completed, even short of its case file's end, nor one not ended."""
    return classify(status, ()) in (Verdict.INTERRUPTED, Verdict.RUN_FAILED)


def wrote_no_results(status: str) -> bool:
    """Whether a run of this ``status`` never wrote its results, so graded nothing: killed
    or still running (:data:`STARTED`), or aborted by a second Ctrl-C or SIGTERM
    (:func:`aborted`)."""
    return status == STARTED or status.startswith(ABORTED)


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
    if isinstance(obj, os.PathLike):  # an override given as a Path
        return os.fspath(obj)
    return obj


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
            got = "missing" if key not in data else f"a JSON {json_type(data[key])}"
            raise CaseError(file, key, f"{got}, expected a string "
                            "(allowed: the results.json a run writes)")
    quantities = data.get("quantities") or {}
    wrong = next((k for k, v in quantities.items() if v is not None and
                  (not isinstance(v, int | float) or isinstance(v, bool))), None)
    if wrong is not None:
        raise CaseError(file, f"quantities.{wrong}", f"a JSON {json_type(quantities[wrong])}"
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
        warnings=data.get("warnings") or [], provenance=data.get("provenance") or {})
