"""The Python API that the command line wraps: load a case, run it, compare, write.

Example::

    import rocking_contact as rc
    case = rc.load_case("sdnd101a", {"time.step": 1e-4})
    result = rc.run(case, out="results/sdnd101a")
    print(rc.format_table(result))

A wrong argument (a number for a case, an override key that is not a string) is a
one-line :class:`CaseError` naming the function and the argument, as bad input in a case
file is.

The public functions come first (:func:`load_case`, :func:`run`, :func:`format_table`,
:func:`rigid_twin`, :func:`mpi_rank`, :func:`default_out_dir`), then how :func:`run` runs a
case, step by step in the order it happens. What the command line adds around a run (the
default directory's warning, the tables it prints) is :mod:`rocking_contact.commands.run`'s
and :mod:`rocking_contact.summary`'s.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import shlex
import signal
import sys
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, cast

from rocking_contact import config, interrupt, results_dir, results_io
from rocking_contact.caches import ensure_form_cache
from rocking_contact.config import (
    KINDS,
    CaseError,
    CaseFile,
    Kind,
    anchor_paths,
    as_dict,
    build,
    file_label,
    kind_schema,
    short_text,
    source_file,
    stray_attribute,
    unread_after_loading,
    unset_name,
)
from rocking_contact.out_paths import make_dir, missing_dirs, remove_made
from rocking_contact.post import references
from rocking_contact.post.grading import grade
from rocking_contact.progress import Progress
from rocking_contact.provenance import ended, load_record, run_record, stack_versions, utc_now
from rocking_contact.results import STARTED, RunResult, aborted
from rocking_contact.stops import Interrupted, RunStopped

if TYPE_CHECKING:  # the kinds' schemas and runners; imported when a case is loaded, run
    from rocking_contact.analytic import rigid_runner as _rigid_runner
    from rocking_contact.analytic.rigid_case import RigidCase
    from rocking_contact.discrete import runner as _discrete_runner
    from rocking_contact.discrete.case import DiscreteCase
    from rocking_contact.fem import runner as _block_runner
    from rocking_contact.fem.case import BlockCase

    # mypy holds each kind's runner (config.KINDS, imported by kind_runner) to the
    # protocol its Kind says; here, above both, so that config imports no runner
    _RUNNERS: tuple[KindRunner, KindRunner, StreamingRunner] = (
        _discrete_runner, _rigid_runner, _block_runner)

__all__ = ["load_case", "run", "format_table", "rigid_twin", "default_out_dir"]

def load_case(case: str | os.PathLike[str],
              overrides: Mapping[str, Any] | Sequence[str] | str | None = None
              ) -> DiscreteCase | RigidCase | BlockCase:
    """Read a case file, apply overrides and validate the result: the case :func:`run`
    takes.

    Args:
        case: a shipped case or variant name (``"sdnd101a"``, ``"sdnv105d_fine"``;
            ``rocking-contact list``) or the path of a TOML case file.
        overrides: values that replace the file's, in the file's SI units (s, m, kg, N,
            Pa, rad): ``{"time.step": 1e-4, "model.shock[0].mu": 0.2}``, or ``--set``
            texts ``["time.step=1e-4"]`` (one such text alone too). The keys are those
            ``rocking-contact keys <case>`` lists.

    Returns:
        The kind's case object (``DiscreteCase``, ``RigidCase`` or ``BlockCase``, each a
        ``CaseFile``), one attribute per section and key (``case.time.step``, s). A value
        changed on it is validated again by :func:`run`, as in a file.

    Raises:
        CaseError: no such case, a key or value the case does not allow, or an argument of
            another type; the message is one line: file, key, what is wrong, what is
            allowed.

    """
    if not isinstance(case, str | os.PathLike):
        raise CaseError("rc.load_case", "case", f"got {_describe(case)}, allowed: a case "
                        "name or the path of a case file")
    given: Mapping[str, Any] | list[str] | str | None
    if overrides is None or isinstance(overrides, str):
        given = overrides
    elif isinstance(overrides, Mapping):
        key = next((k for k in overrides if not isinstance(k, str)), None)
        if key is not None:
            raise CaseError("rc.load_case", "overrides", f"key {_describe(key)}, allowed: "
                            "dotted key texts ('time.step')")
        given = overrides
    elif isinstance(overrides, Sequence) and all(isinstance(o, str) for o in overrides):
        given = list(overrides)
    else:
        raise CaseError("rc.load_case", "overrides", f"got {_describe(overrides)}, allowed: "
                        "a dict {'time.step': 1e-4}, a list of 'key=value' texts or one")
    loaded = config.load_case(case if isinstance(case, str) else Path(case), given)
    # what the run's results.json says it came from, the files hashed as they were read
    loaded.load_info = replace(loaded.load_info, load_record=load_record(
        case, [given] if isinstance(given, str) else given, loaded))
    return cast("DiscreteCase | RigidCase | BlockCase", loaded)


def _describe(value: Any) -> str:
    """A value and its type, short, for messages about arguments (``dict {1: 2}``)."""
    return short_text(value, typed=True)


def run(
    case: CaseFile | str | os.PathLike[str],
    *,
    out: str | os.PathLike[str] | None = None,
    quiet: bool = False,
    write: bool = True,
    plots: bool = True,
) -> RunResult:
    """Run a case, compare it with its references and write its results.

    Each call is independent of the calls before it in the process (a failed or
    interrupted run included): the same case gives the same numbers.

    Args:
        case: a case object from :func:`load_case` (changed or not: it is validated
            again, and not changed by the run), or a case name or file, loaded as it
            stands.
        out: results directory (default ``results/<case name>/`` under the current
            directory); the run replaces the results already there once it computes,
            and a run refused as it sets up (:class:`CaseError`), or stopped before it
            computed, leaves them.
        quiet: no progress bar (on stderr). Warnings are said on stderr even so.
        write: write ``results.json``, ``history.csv`` and the plots into ``out``; False
            writes nothing.
        plots: also draw the PNG and SVG plots (with ``write``).

    Returns:
        The :class:`RunResult`: ``history`` (column -> array, SI units), ``quantities``,
        ``collisions``, ``impacts``, ``checks`` (see :func:`format_table`), ``passed``,
        ``status``, ``warnings``, ``timing``.

    Raises:
        CaseError: bad input (a value changed on ``case`` that loading would refuse, a
            case of another type, an ``out`` that is empty, a file or not writable), said
            in one line before the first step.
        SolverFailure: the run could not go on; ``.partial`` holds what it computed,
            written to ``out`` first.
        Overturned: the block toppled or slid off its table (a :class:`SolverFailure`).
        Diverged: a block run's steps created the energy that took the block off its
            table (a step too long for its contact treatment; a :class:`SolverFailure`).
        Interrupted: Ctrl-C or SIGTERM, a ``KeyboardInterrupt`` (not an ``Exception``:
            a script's ``except Exception`` or ``except SolverFailure`` lets it through
            and stops). The run stopped after the step under way, its results so far
            written as for a failure but without plots; or, when the signal came while the
            plots were drawn, the results are written (their status as computed) and the
            plots not. ``.partial`` holds them, ``.signal`` the signal's number.

    """
    if isinstance(case, str | os.PathLike):
        case = load_case(case)
    if out is not None and not isinstance(out, str | os.PathLike):
        raise CaseError("rc.run", "out", f"got {_describe(out)}, allowed: a directory path")
    prepared = _prepare(case, out, quiet=quiet, write=write, plots=plots)
    # A Ctrl-C from here on asks the run to stop after its step under way: raised as the
    # earlier results are set aside, it would leave them there for the next run to delete,
    # and while the results are written it would leave them half written (a second Ctrl-C
    # still aborts at once: results.json then says so).
    with interrupt.deferred(), _abort_said(prepared):
        try:
            result = _execute(prepared)
        except RunStopped as exc:  # a failure or a stop asked for: what it computed is kept
            if exc.partial is not None:
                exc.partial.status = exc.status
            # a failure stays one unless rank 0 was stopped as it drew the plots
            agreed = _publish(prepared, exc.partial)
            if isinstance(exc, Interrupted) and agreed.requested:
                exc.signal = agreed.signal  # the same exit code on every rank
            raise
        agreed = _publish(prepared, result)
    if agreed.requested:
        # A stop asked for after the last step, while the results were written (seconds
        # for 5e5 rows): the run is whole and on disk, its plots not drawn; it ends as
        # interrupted (exit code 130), not as if unasked.
        raise Interrupted(f"interrupted at the end of the run (t = "
                          f"{prepared.case.time.end:g} s)", result, agreed.signal)
    return result


def format_table(result: RunResult | str | os.PathLike[str],
                 checks: Sequence[Mapping[str, Any]] | None = None) -> str:
    """The comparison table of a run: one line per check with its quantity, reference
    value, computed value (SI units, as the quantity), error (signed, measured as the
    tolerance is: ``rel``, ``abs`` or ``steps``), tolerance, source and pass mark (``ok``,
    ``FAIL``, ``-`` for information only; a band check adds how far inside or outside it is).
    Of a :class:`RunResult` shown with its own checks, the case's ``[[quantity]]`` entries
    that no reference compares follow, for information: their value, source "no
    reference", no pass mark.

    Args:
        result: a :class:`RunResult` (its case name and checks), a results directory
            (read with :func:`~rocking_contact.results.load_result`), or a case name with
            ``checks``.
        checks: the checks to show (``RunResult.checks``, or the ``checks`` of a
            ``results.json``); by default the result's.

    Raises:
        CaseError: a results directory without a readable ``results.json``, ``checks``
            missing for a case name, or not the dicts a run writes.

    """
    rows: Any  # what the caller gave, checked below
    shown: dict[str, float] = {}
    if isinstance(result, str | os.PathLike) and checks is None:
        if not Path(result).is_dir():  # a case name, its checks forgotten, or a typo
            raise CaseError("rc.format_table", "result", f"got {_describe(result)}, no "
                            "such directory, and no checks; allowed: a RunResult, a "
                            "results directory (rc.load_result reads one), or a case name "
                            "and its checks")
        from rocking_contact.results import load_result

        result = load_result(result)
    if isinstance(result, RunResult):
        name, rows = result.case, result.checks if checks is None else checks
        if checks is None:
            shown = references.unreferenced(result.parameters.get("quantity"),
                                            result.quantities, rows)
    elif isinstance(result, str) and checks is not None:
        name, rows = result, checks
    else:
        raise CaseError("rc.format_table", "result", f"got {_describe(result)} and "
                        f"checks {_describe(checks)}, allowed: a RunResult, a results "
                        "directory, or a case name and its checks")
    allowed = "allowed: the checks of a RunResult or of a results.json"
    if not isinstance(rows, Sequence) or isinstance(rows, str):
        raise CaseError("rc.format_table", "checks", f"got {_describe(rows)} ({allowed})")
    for i, check in enumerate(rows):
        missing = ([] if not isinstance(check, Mapping) else
                   [k for k in _TABLE_KEYS if k not in check]
                   + (["tolerance_kind"] if check.get("tolerance") is not None
                      and "tolerance_kind" not in check else []))
        if not isinstance(check, Mapping) or missing:
            got = f"no {', '.join(missing)}" if missing else f"got {_describe(check)}"
            raise CaseError("rc.format_table", f"checks[{i}]", f"{got} ({allowed})")
    try:
        return references.format_table(name, rows, shown)
    except (TypeError, ValueError, KeyError) as exc:  # a value of another type or choice
        raise CaseError("rc.format_table", "checks", f"{type(exc).__name__}: {exc} "
                        f"({allowed})") from None


#: the keys of a check that :func:`format_table` reads (``tolerance_kind`` too when the
#: check has a tolerance)
_TABLE_KEYS = ("quantity", "reference", "value", "rel_error", "tolerance", "source", "passed")


def rigid_twin(block: BlockCase) -> RigidCase:
    """The rigid twin of a block case: the rigid block (kind ``rigid``) with its geometry,
    density, gravity, table motion, friction and span, released at the angle its preload
    gives, what ``rocking-contact rigid <case>`` runs (``docs/rigid.md``). Run it with
    :func:`run`: its collisions (s, J) are those a rigid block makes, its ``changes`` those
    the block case's overrides make in its file, its ``extra["twin_of"]`` the block case's
    name; a twin that overturns completes (``extra["outcome"]``), where the FEM block
    raises :class:`~rocking_contact.stops.Overturned`.

    Args:
        block: a block case (kind ``block``: ``rc.load_case("sdnv105d", {...})``) whose
            ``initial.state`` is ``"preload"`` (its tilt is the release).

    Returns:
        The rigid case, named the block case's name with ``_rigid``.

    Raises:
        CaseError: not a block case, or one released otherwise than from a preload.

    """
    from rocking_contact.analytic.rigid_runner import rigid_twin as twin
    from rocking_contact.fem.case import BlockCase

    if not isinstance(block, BlockCase):
        raise CaseError("rc.rigid_twin", "block", f"got {_describe(block)}, allowed: a block "
                        "case (kind 'block', from rc.load_case)")
    return twin(block)


def mpi_rank() -> int:
    """The process's rank in MPI_COMM_WORLD under ``mpiexec``, 0 without it: a script run
    by every rank prints once with ``if rc.mpi_rank() == 0`` (:func:`run` is collective,
    its progress, warnings and files are rank 0's). Importing this module has started MPI
    (the wheel's ``dolfinx_solver``); the command line imports it from here."""
    return interrupt.rank()


def default_out_dir(case: Any) -> Path:
    """``results/<case name>/`` under the current directory."""
    name: str = case.case.name
    return Path("results") / name


# How :func:`run` runs a case, in the order it happens: :func:`_prepare` (the case checked
# again, its runner, progress bar and provenance record), :func:`_execute` (the kind's
# runner, in the results directory it takes), :func:`_publish` (what every kind's result
# gets: :func:`_record_and_grade`, then :func:`_write_and_draw`).


@dataclass(frozen=True)
class _Run:
    """A run set up by :func:`_prepare`, what :func:`_execute` and :func:`_publish` take."""

    #: the case checked again and rebuilt (:func:`_check_again`), what the runner reads
    case: Any
    kind: Kind
    runner: KindRunner
    progress: Progress
    #: the results directory (written only with ``write``)
    out_dir: Path
    write: bool
    plots: bool
    #: results.json ``provenance`` as the run starts (:func:`~rocking_contact.provenance.
    #: run_record`)
    provenance: dict[str, Any]
    #: the directories made for ``out_dir`` (:func:`~rocking_contact.out_paths.
    #: missing_dirs`), removed again if the run leaves it as it was (:func:`_leave`)
    made: list[Path]


def _prepare(case: CaseFile, out: str | os.PathLike[str] | None, *, quiet: bool,
             write: bool, plots: bool) -> _Run:
    """Check the case again, find its runner, start its progress bar and its provenance
    record: all but the results directory, which :func:`_execute` takes."""
    started = utc_now()
    checked: Any = _check_again(case)
    runner = kind_runner(checked.case.kind)
    if isinstance(out, str) and not out:  # Path("") is the current directory
        raise CaseError("rc.run", "out", "empty (allowed: a directory path, \".\" for the "
                        "current one, or None for results/<case name>/)")
    progress = Progress(checked.time.start, checked.time.end, checked.case.name,
                        enabled=not quiet and mpi_rank() == 0)
    out_dir = Path(out) if out is not None else default_out_dir(checked)
    world = interrupt.world()
    provenance = run_record(checked, out_dir if write else None, started=started,
                            ranks=1 if world is None else world.Get_size(),
                            changed_after_loading=_changed_after_loading(case))
    made = missing_dirs(out_dir) if write else []
    return _Run(checked, KINDS[checked.case.kind], runner, progress, out_dir, write,
                plots, provenance, made)


def _check_again(case: Any) -> CaseFile:
    """Validate the case as loading does: a value changed on the loaded object
    (``case.time.step = -1``) gets the same one-line :class:`CaseError` as in a file.

    Returns the case rebuilt from its values, what the run reads: a section set as a dict
    (``case.time = {...}``) becomes the table it stands for, and the run leaves the
    caller's object as it was."""
    if not isinstance(case, CaseFile):
        raise CaseError("rc.run", "case", f"got {_describe(case)}, allowed: a case from "
                        "rc.load_case, a case name or the path of a case file")
    file = f"{file_label(case)} (changed after loading)"
    kind: Any = getattr(case.case, "kind", None)
    if kind_schema(kind, file) is not type(case):  # the other kinds' sections are not there
        loaded = next((k for k in KINDS if kind_schema(k) is type(case)), None)
        raise CaseError(file, "case.kind", f"got {kind!r}, allowed: {loaded!r}, the kind of "
                        f"the {type(case).__name__} it was loaded as (load a case file of "
                        f"kind {kind!r})")
    try:
        values = as_dict(case)
    except AttributeError as exc:  # `del case.time`: dataclasses.asdict meets no value
        raise CaseError(file, "", f"a setting was deleted ({exc}), allowed: changed values "
                        "(or load the case again)") from None
    source = source_file(case)
    if source is not None:  # `case.case.name = None`, as --set case.name=: its file's name
        unset_name(values, source)
    # A table set as a dict (``case.loading.table_acceleration_x = {"path": "ux.csv",
    # ...}``) is typed in Python, as one set as an attribute (``....path = "ux.csv"``,
    # made absolute by TimeFunction) or given by --set or overrides: its relative path
    # starts at the current directory (docs/case-files.md). The file's own paths are
    # absolute since loading.
    checked = build(type(case), anchor_paths(values, Path.cwd()), file=file)
    unread = unread_after_loading(case)
    if unread is not None:
        raise CaseError(file, *unread)
    stray = stray_attribute(case)
    if stray is not None:
        raise CaseError(file, *stray)
    checked.load_info = case.load_info
    return checked


def _changed_after_loading(case: CaseFile) -> bool:
    """Whether a setting of a loaded case was changed in Python (``case.time.end = 0.5``):
    its file and overrides then no longer say what runs. False for a case built in code
    (it has no loading to differ from)."""
    loaded = case.load_info.loaded_as
    return loaded is not None and as_dict(case) != loaded[0]


def kind_runner(kind: str) -> KindRunner:
    """The module that runs a case kind of :data:`~rocking_contact.config.KINDS` (``run(case,
    progress=...)``; with ``out_dir`` too if the kind
    :attr:`~rocking_contact.config.Kind.streams`), imported now."""
    return cast(KindRunner, importlib.import_module(KINDS[kind].runner))


class KindRunner(Protocol):
    """The module that runs a kind's cases (:attr:`~rocking_contact.config.Kind.runner`)."""

    def run(self, case: Any, *, progress: Progress | None = None) -> RunResult:
        """Run ``case``; raises a :class:`~rocking_contact.stops.RunStopped` with what it
        computed (``partial``) when it stops early."""


class StreamingRunner(Protocol):
    """The runner of a kind that :attr:`~rocking_contact.config.Kind.streams`."""

    #: the ``extra`` entries that name the files it streams (``{"fields": "fields.pvd"}``),
    #: in the ``results.json`` written as the run starts
    STREAMED_EXTRA: Mapping[str, str]

    def run(self, case: Any, *, progress: Progress | None = None,
            out_dir: Path | None = None) -> RunResult:
        """:meth:`KindRunner.run`, writing as it goes into ``out_dir`` (None: nothing)."""


def _execute(run: _Run) -> RunResult:
    """The kind's runner on the case, its progress bar closed as it ends (stopped too:
    the :class:`RunStopped` goes on).

    With ``write``, the run first takes its directory: makes it, sets the results already
    there aside (:func:`~rocking_contact.results_dir.set_aside`) and writes a
    ``results.json`` that says it has started (:func:`_started`), on every rank before any
    writes into it. A run that computed (its runner returned, or stopped with what it
    computed: a failure, a stop asked for) replaces those results: they are deleted
    (:func:`~rocking_contact.results_dir.discard`). One that did not, they are put back
    (:func:`~rocking_contact.results_dir.restore`), its ``results.json`` and the directories
    made for it removed: bad input the runner found as it set up (the runner writes
    nothing before its checks), anything that stopped it before its runner started (a
    second Ctrl-C at the barrier, a full disk for that ``results.json``), a failure that
    left no partial result (a :class:`RunStopped` without ``partial``: before its first
    step; a rigid integration that fails again as its levels are redone up to where it
    failed, :mod:`~rocking_contact.analytic.rigid_runner`), or an error in its runner
    that left nothing computed in the directory
    (:func:`~rocking_contact.results_dir.only_started`)."""
    aside = ran = computed = False
    try:
        if run.write:
            make_dir("rc.run", run.out_dir, key="out")
            if mpi_rank() == 0:
                # a signal as they move comes once the flag says they moved: a second
                # Ctrl-C between the two left them in the hidden folder, the directory
                # without results until the next run put them back
                with interrupt.signals_held_for_python():
                    results_dir.set_aside(run.out_dir)
                    aside = True
                results_io.write(_started(run), run.out_dir)
            _barrier()  # no rank writes its fields before the old ones are gone
        ran = True
        if run.kind.streams:  # it writes its files as it goes into the results' directory
            streaming = cast(StreamingRunner, run.runner)
            result = streaming.run(run.case, progress=run.progress,
                                   out_dir=run.out_dir if run.write else None)
        else:
            result = run.runner.run(run.case, progress=run.progress)
        computed = True
    except CaseError:
        ran = False  # refused: there is no run
        raise
    except RunStopped as exc:
        computed = exc.partial is not None  # none kept: restored unless it streamed rows
        run.progress.close()
        raise
    finally:
        # rank 0 alone, with no collective call: on an error the others may have left
        if run.write and mpi_rank() == 0:
            _leave(run, aside=aside, kept=computed or (
                ran and not results_dir.only_started(run.out_dir)))
    run.progress.close()
    return result


def _started(run: _Run) -> RunResult:
    """What ``results.json`` says while the run goes: a run killed (SIGKILL, out of memory)
    keeps it, so that ``view`` and ``report`` read the history and fields it streamed, and
    where it came from (``provenance``, not ended). A kind that streams files names them
    in its runner's ``STREAMED_EXTRA`` (``{"fields": "fields.pvd"}``)."""
    case = run.case
    streamed = cast(StreamingRunner, run.runner).STREAMED_EXTRA if run.kind.streams else {}
    return RunResult(case=case.case.name, kind=case.case.kind, parameters=as_dict(case),
                     history={}, status=STARTED, provenance=run.provenance,
                     extra=dict(streamed))


@contextmanager
def _abort_said(run: _Run) -> Iterator[None]:
    """A second Ctrl-C or SIGTERM within the block (a ``KeyboardInterrupt`` raised at once,
    no :class:`Interrupted`: the first asked the run to stop after its step) aborts the
    run: rank 0's ``results.json``, if it still is the one this run started with
    (:func:`_started`; not the results written whole, nor earlier ones put back), says so
    (:func:`~rocking_contact.results.aborted`, where the history it streamed ends), with
    the stack it ran on and when it ended; it said ``started: ... (killed)``, and
    ``compare`` "not ended"."""
    try:
        yield
    except KeyboardInterrupt as exc:
        if not isinstance(exc, Interrupted) and run.write and mpi_rank() == 0:
            _say_aborted(run)
        raise


def _say_aborted(run: _Run) -> None:
    """Rank 0 rewrites the ``results.json`` the run started with as aborted
    (:func:`_abort_said`); another, or none, is left as it is, and so is that one on a
    full disk."""
    try:
        with open(run.out_dir / results_io.RESULTS_FILE, encoding="utf-8") as fh:
            written = json.load(fh)
    except (OSError, ValueError):
        return
    if not isinstance(written, dict) or written.get("status") != STARTED:
        return
    provenance = written.get("provenance")
    if not isinstance(provenance, dict) or provenance.get("started") != run.provenance.get(
            "started"):
        return
    record = _started(run)
    name = interrupt.SIGNALS.get(signal.Signals(interrupt.stop_signal()), "the signal")
    record.status = aborted(results_io.last_time(run.out_dir / results_io.HISTORY_FILE), name)
    record.stack = dict(stack_versions(load_libraries=False))
    record.provenance = ended(run.provenance, record)  # it ended: aborted, not killed
    # a third signal waits for the milliseconds it takes: results.json is replaced whole
    with interrupt.signals_held_for_python(), contextlib.suppress(OSError):
        results_io.write(record, run.out_dir, history=False)


def _leave(run: _Run, *, aside: bool, kept: bool) -> None:
    """Rank 0 leaves the results directory as the run ended: holding what it computed,
    the earlier results deleted (``kept``); or as it was before the run, the results set
    ``aside`` put back and the directories made for it removed."""
    if kept:
        results_dir.discard(run.out_dir)
        return
    if aside:
        results_dir.restore(run.out_dir)
    remove_made(run.made)


def _publish(run: _Run, result: RunResult | None) -> interrupt.RankStop:
    """What follows the runner, for every kind: what the run computed (None: it stopped
    before its first step) gets its record and grading (:func:`_record_and_grade`), then
    is written and drawn (:func:`_write_and_draw`). Returns the stop every rank agreed
    on."""
    if result is not None:
        _record_and_grade(run.case, result, run.provenance)
    return _write_and_draw(result, run.out_dir, write=run.write, plots=run.plots,
                           streamed=run.kind.streams)


def _record_and_grade(case: Any, result: RunResult, provenance: dict[str, Any]) -> None:
    """Complete what a run computed (completed or stopped), before it is written: the
    stack it ran on, its ``provenance`` (the record it started with, ended now), its
    grading against the case's references (:func:`~rocking_contact.post.grading.grade`);
    its warnings are said. Its ``timing.wall_s`` is the runner's own (every kind's
    runner sets it, a stopped run's too: :class:`~rocking_contact.results.RunResult`)."""
    # the import hook's call made the change, if any; this one returns what it was
    if result.kind == "block" and (note := ensure_form_cache()) is not None:
        result.warnings.append(note)
    result.stack = dict(stack_versions(load_libraries=False))
    result.provenance = ended(provenance, result)  # an interrupted run's rerun_note
    grade(case, result)
    _print_warnings(result)


def _print_warnings(result: RunResult) -> None:
    """One line on stderr per warning of the run (rank 0), even when quiet."""
    if mpi_rank() == 0:
        for warning in result.warnings:
            print(f"warning: {result.case}: {warning}", file=sys.stderr)


def _write_and_draw(result: RunResult | None, out_dir: Path, *, write: bool, plots: bool,
                    streamed: bool) -> interrupt.RankStop:
    """Rank 0 writes the results (with ``write``; the history too unless the kind
    ``streamed`` it there, closed whole before its runner returned) and draws the plots
    (:func:`_draw`) unless a stop was asked for on any rank, then every rank takes the same
    stop (:func:`interrupt.agreed`, collective calls, before the plots and after them): the
    :class:`Interrupted` of a signal that stopped rank 0 as it drew the plots is raised on
    every rank. Returns the stop agreed on otherwise: whether one was asked for on any
    rank, and its signal."""
    ours = result if write and mpi_rank() == 0 else None  # None: it stopped before a step
    if ours is not None:
        results_io.write(ours, out_dir, history=not streamed)
    # a stop asked for on another rank alone (kill on its pid) stops the run as well:
    # rank 0, whose own handler does not run, draws no plots either
    stopped = interrupt.agreed().requested
    alone = _draw(ours, out_dir, stopped=stopped) if ours is not None and plots else None
    agreed = interrupt.agreed(None if alone is None else str(alone))
    if agreed.alone is not None:
        raise alone or Interrupted(agreed.alone, result, agreed.signal) from None
    return agreed


def _draw(result: RunResult, out_dir: Path, *, stopped: bool) -> Interrupted | None:
    """Draw the plots of the results just written unless a stop was asked for
    (``stopped``, on any rank): the results are on disk within the step under way, and a
    Ctrl-C or SIGTERM while the plots are drawn (seconds) drops them at once. Returns the
    :class:`Interrupted` of that stop, None if none came."""
    if not result.history:
        return None
    if stopped:
        print(f"{result.case}: plots not drawn after the interrupt ({plots_command(out_dir)} "
              f"draws them, into {out_dir / PLOTS_REPORT}/figures/{result.case}/)",
              file=sys.stderr)
        return None
    try:
        with interrupt.abandoning():
            results_io.write_plots(result, out_dir)
    except KeyboardInterrupt:
        return Interrupted("interrupted while the plots were drawn: none was kept", result)
    return None


#: the report an interrupted run's plots are drawn in, in its results directory
PLOTS_REPORT = "report"


def plots_command(out_dir: Path) -> str:
    """The command line that draws the plots of the run in ``out_dir`` that a Ctrl-C or
    SIGTERM left undrawn: a report of that run alone, in its own results directory. The
    default ``report/`` holds other runs, and its figures of a case of the same name would
    be replaced by this run's."""
    return (f"rocking-contact report {shlex.quote(str(out_dir))} --out "
            f"{shlex.quote(str(out_dir / PLOTS_REPORT))}")


def _barrier() -> None:
    """Wait for every rank, if a runner has started MPI."""
    world = interrupt.world()
    if world is not None:
        world.Barrier()
