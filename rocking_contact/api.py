"""The Python API that the command line wraps: load a case, run it, compare, write.

Example::

    import rocking_contact as rc
    case = rc.load_case("sdnd101a", {"time.step": 1e-4})
    result = rc.run(case, out="results/sdnd101a")
    print(rc.format_table(result.case, result.checks))
"""

from __future__ import annotations

import inspect
import sys
import time
from pathlib import Path
from typing import Any

from rocking_contact import interrupt, results
from rocking_contact.config import (
    CASE_FOLDER,
    CaseError,
    as_dict,
    build,
    case_dir,
    file_case,
    kind_runner,
    load_case,
    physics_changes,
    stray_attribute,
    unread_after_loading,
)
from rocking_contact.out_paths import check_dir
from rocking_contact.post.references import (
    compare,
    evaluate_all,
    format_table,
    mark_not_reached,
)
from rocking_contact.progress import Progress
from rocking_contact.provenance import stack_versions
from rocking_contact.results import Interrupted, RunResult, SolverFailure

__all__ = ["load_case", "run", "format_table", "default_out_dir"]


def mpi_rank() -> int:
    """Rank in MPI_COMM_WORLD if a runner has started MPI, else 0."""
    mpi = sys.modules.get("mpi4py.MPI")
    rank: int = mpi.COMM_WORLD.rank if mpi is not None else 0
    return rank


def default_out_dir(case: Any) -> Path:
    """``results/<case name>/`` under the current directory."""
    name: str = case.case.name
    return Path("results") / name


def finish(case: Any, result: RunResult) -> RunResult:
    """Add the case's ``[[quantity]]`` values, the reference checks and the stack the run
    was computed with to a result."""
    result.stack = dict(stack_versions(load_libraries=False))
    names = [q.name for q in case.quantity]
    for name in sorted({n for n in names if names.count(n) > 1 or n in result.quantities}):
        whose = "the run's own" if name in result.quantities else "another [[quantity]]"
        result.warnings.append(f"[[quantity]] {name!r} replaces {whose} of that name: the "
                               "references to it compare with the last one")
    result.quantities.update(evaluate_all(case.quantity, result.history))
    step = getattr(case.time, "step", None)
    result.checks = compare(case.reference, result.quantities, step=step)
    others = [r for r in case.reference if not r.holds_at(step)]
    if others:
        steps = sorted({r.step for r in others if r.step is not None})
        result.warnings.append(
            f"{len(others)} reference(s) hold for a time step of "
            f"{', '.join(f'{s:g}' for s in steps)} s (non-regression values) and the run "
            f"takes {step:g} s: they are shown for information, without a pass mark")
    base = file_case(case)
    times = result.history.get("time")
    if times is not None and len(times):
        end = getattr(getattr(base if base is not None else case, "time", None), "end", None)
        mark_not_reached(result.checks, float(times[-1]), end)
    changed = physics_changes(case, base)
    why = "its references describe the case file's parameters and the run changes"
    source = getattr(case, "references_from", None)
    if not changed and source is not None and source != getattr(case, "source_file", None):
        # References inherited through `extends` describe the file that wrote them.
        changed = physics_changes(case, load_case(source))
        why = f"its references come from {source}, and it changes"
    if changed:
        # The references were set for another physics: shown, not graded.
        keys = ", ".join(changed)
        for check in result.checks:
            if check["passed"] is not None:
                check["passed"] = None
                check["note"] = f"not graded: the run changes {keys}"
        result.warnings.append(
            f"{why} {keys}: the checks are shown for information, without a pass mark")
    return result


def _print_warnings(result: RunResult) -> None:
    """One line on stderr per warning of the run (rank 0), even when quiet."""
    if mpi_rank() == 0:
        for warning in result.warnings:
            print(f"warning: {result.case}: {warning}", file=sys.stderr)


def run(
    case: Any,
    *,
    out: str | Path | None = None,
    quiet: bool = False,
    write: bool = True,
    plots: bool = True,
) -> RunResult:
    """Run a case, compare it with its references and write its results.

    Args:
        case: a schema object from :func:`load_case`, or a case name or file, loaded as
            it stands.
        out: results directory (default ``results/<case>/``); nothing is written if
            ``write`` is False.
        quiet: no progress bar.
        plots: also draw the PNG plots.

    Raises:
        SolverFailure: the run stopped early; what it computed is written to ``out`` first.
        Interrupted: Ctrl-C or SIGTERM (a :class:`SolverFailure`): the run stopped after
            the step under way, its results so far written as for a failure but without
            plots; or, when the signal came while the plots were drawn, the results are
            written (their status as computed) and the plots not.

    """
    if isinstance(case, str | Path):
        case = load_case(case)
    _check_again(case)
    module = kind_runner(case.case.kind)
    progress = Progress(case.time.start, case.time.end, case.case.name,
                        enabled=not quiet and mpi_rank() == 0)
    out_dir = Path(out) if out is not None else default_out_dir(case)
    if write:
        check_dir("--out", out_dir)
        if mpi_rank() == 0:
            results.clear(out_dir)
            results.write(_started(case, module), out_dir, plots=False)
        _barrier()  # no rank writes its fields before the old ones are gone
    t0 = time.perf_counter()
    # A Ctrl-C while the results are written would leave them half written: the request
    # is deferred through the writing too (a second Ctrl-C still aborts at once).
    with interrupt.deferred():
        try:
            # A kind whose run() takes out_dir writes files as it goes (streamed history,
            # fields) into the directory the results go to; None when nothing is written.
            kwargs = ({"out_dir": out_dir if write else None}
                      if "out_dir" in inspect.signature(module.run).parameters else {})
            result: RunResult = module.run(case, progress=progress, **kwargs)
        except CaseError:  # bad input found as the run set up: there is no run to show
            if write and mpi_rank() == 0:
                (out_dir / results.RESULTS_FILE).unlink(missing_ok=True)
            raise
        except SolverFailure as exc:
            progress.close()
            if exc.partial is not None:
                exc.partial.status = exc.status
                exc.partial.timing.setdefault("wall_s", time.perf_counter() - t0)
                finish(case, exc.partial)
                _print_warnings(exc.partial)
                if write and mpi_rank() == 0:
                    _write(exc.partial, out_dir, plots=plots)
            raise
        stopped = interrupt.requested()
        progress.close()
        result.timing.setdefault("wall_s", time.perf_counter() - t0)
        finish(case, result)
        _print_warnings(result)
        if write and mpi_rank() == 0:
            _write(result, out_dir, plots=plots)
    if stopped:  # a kind without step checks (the rigid block) finished anyway: stop here
        raise Interrupted(f"interrupted at the end of the run (t = {case.time.end:g} s)",
                          result)
    return result


def _started(case: Any, module: Any) -> RunResult:
    """What ``results.json`` says while the run goes: a run killed (SIGKILL, out of memory)
    keeps it, so that ``view`` and ``report`` read the history and fields it streamed. A
    kind that streams files names them in ``STREAMED_EXTRA`` (``{"fields": "fields.pvd"}``)."""
    return RunResult(case=case.case.name, kind=case.case.kind, parameters=as_dict(case),
                     history={}, status=results.STARTED,
                     extra=dict(getattr(module, "STREAMED_EXTRA", {})))


def _write(result: RunResult, out_dir: Path, *, plots: bool) -> None:
    """Write the results, then draw the plots unless a stop was asked for: the results are
    on disk within the step under way, and a Ctrl-C or SIGTERM while the plots are drawn
    (seconds) drops them at once (:class:`Interrupted`)."""
    results.write(result, out_dir, plots=False)
    if not plots or not result.history:
        return
    if interrupt.requested():
        print(f"{result.case}: plots not drawn after the interrupt (rocking-contact report "
              f"{out_dir} draws them)", file=sys.stderr)
        return
    try:
        with interrupt.abandoning():
            results.write_plots(result, out_dir)
    except KeyboardInterrupt:
        raise Interrupted("interrupted while the plots were drawn: none was kept",
                          result) from None


def _barrier() -> None:
    """Wait for every rank, if a runner has started MPI."""
    mpi = sys.modules.get("mpi4py.MPI")
    if mpi is not None:
        mpi.COMM_WORLD.Barrier()


def _check_again(case: Any) -> None:
    """Validate the case as loading does: a value changed on the loaded object
    (``case.time.step = -1``) gets the same one-line :class:`CaseError` as in a file."""
    source = getattr(case, "source_file", None) or case.case.name
    folder = CASE_FOLDER.set(case_dir(case))
    try:
        build(type(case), as_dict(case), file=f"{source} (changed after loading)")
    finally:
        CASE_FOLDER.reset(folder)
    unread = unread_after_loading(case)
    if unread is not None:
        raise CaseError(f"{source} (changed after loading)", *unread)
    stray = stray_attribute(case, exempt=("source_file", "loaded_as", "references_from"))
    if stray is not None:
        raise CaseError(f"{source} (changed after loading)", *stray)
