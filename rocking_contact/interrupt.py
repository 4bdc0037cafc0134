"""Ctrl-C (or SIGTERM) during a run: finish the step under way, keep what was computed, stop.

A ``KeyboardInterrupt`` raised at an arbitrary bytecode would land inside a PETSc callback
(residual, Jacobian), where petsc4py turns it into a failed solve: the step driver would
then halve the step until it gives up and report a solver failure. Instead, while
:func:`deferred` is active the first SIGINT only records the request; the step loops ask
:func:`requested` between steps and stop with :class:`~rocking_contact.stops.Interrupted`,
a ``KeyboardInterrupt`` that carries the partial result (and not an error: a script's
``except Exception`` around a run lets it through, and the script stops). A second SIGINT
raises ``KeyboardInterrupt`` at once, for a run that does not reach its next check.

SIGTERM, what ``docker stop``, ``kill`` and batch schedulers send before they kill (SLURM at
its time limit), is taken the same way: the run has the scheduler's grace period to write
its results instead of losing them. :func:`exit_code` gives the shell's code of the signal
that stopped the run (130 for SIGINT, 143 for SIGTERM).

Within :func:`abandoning` (drawing the plots once the results are on disk: work that is
safe to drop; a command outside a run) the first signal raises ``KeyboardInterrupt`` at
once; raised in a library's code it may come out as the library's own error
(:func:`stands_for_a_signal` tells), or be dropped where Python cannot raise it (a weakref
callback): the stop asked for is kept for the command to end with.

Under MPI every rank must stop after the same step: :func:`requested` with a communicator
gathers the request over it (a collective call, so every rank asks at the same point),
and once rank 0 has written the results alone, and again after it drew the plots, every
rank takes the same stop (:func:`agreed`). A signal may reach one rank alone (``kill`` on
its pid): rank 0 then says the stop where the ranks agree on it, as its handler would.
``mpiexec`` forwards a Ctrl-C to every rank, where a ``KeyboardInterrupt`` would land
anywhere: a rank that leaves while another waits in a collective call (the barrier after
the results directory is cleared, the mesh's distribution) would hang both for good. The
command line therefore defers the whole of a collective command under ``mpiexec``
(:func:`deferred` nests), and the run stops after its first step.
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, NamedTuple

_state: dict[str, Any] = {"requested": False, "signal": signal.SIGINT, "abandon": False,
                          "depth": 0, "announced": False, "first": ""}

#: the signals that ask for a stop, and how the message names them
SIGNALS = {signal.SIGINT: "Ctrl-C", signal.SIGTERM: "SIGTERM"}


class Stop(Exception):
    """Raised by a step loop between two steps when a stop was requested.

    Attributes:
        t: simulated time reached (s), the end of the last completed step.

    """

    def __init__(self, t: float):
        super().__init__(f"interrupted at t = {t:.9g} s")
        self.t = t


def request() -> None:
    """Ask the running case to stop after its current step (what the SIGINT handler does)."""
    _state["requested"] = True


def requested(comm: Any = None) -> bool:
    """Whether a stop was asked for; with an MPI communicator, on any of its ranks (a
    collective call). Rank 0 says the stop once when it came from another rank alone
    (``kill`` on that rank's pid): its own handler, which says it, never ran."""
    flag: bool = _state["requested"]
    if comm is not None and comm.size > 1:
        asked = comm.allgather(int(_state["signal"]) if flag else 0)
        first = next((signum for signum in asked if signum), 0)
        if first and not flag:
            _announce(first)
        flag = bool(first)
    return flag


def check(t: float, comm: Any = None) -> None:
    """Raise :class:`Stop` at simulated time ``t`` (s) if a stop was requested."""
    if requested(comm):
        raise Stop(t)


def stop_signal() -> int:
    """The number of the last signal that asked for a stop (SIGINT when the stop was asked
    for in code, or none was: what :class:`~rocking_contact.stops.Interrupted` carries)."""
    return int(_state["signal"])


def exit_code(signum: int | None = None) -> int:
    """The shell's exit code of a process stopped by signal ``signum``, by default the last
    that asked for a stop: 128 + its number (130 for SIGINT, 143 for SIGTERM)."""
    return 128 + (stop_signal() if signum is None else signum)


class RankStop(NamedTuple):
    """What one rank knows of a stop at a point every rank reaches (:func:`agreed`).

    Attributes:
        alone: the message of the stop that rank 0 took while it worked alone (a
            signal while it drew the plots: ``Interrupted`` at once), else None.
        requested: a stop was asked for on this rank (:func:`requested`).
        signal: the number of the signal that asked for it (:func:`stop_signal`).

    """

    alone: str | None
    requested: bool
    signal: int


def common(ranks: Sequence[RankStop]) -> RankStop:
    """The stop every rank takes, from what each knows (in rank order): rank 0's if it
    took one alone (``alone``); else the first asked for on any rank, with its signal
    (``mpiexec`` forwards a signal to every rank, but at its own moment to each); else
    rank 0's, none."""
    if ranks[0].alone is not None:
        return ranks[0]
    return next((r for r in ranks if r.requested), ranks[0])


def agreed(alone: str | None = None) -> RankStop:
    """The stop every rank takes (:func:`common`) where rank 0 has just done work alone
    (writing the results, drawing the plots): a collective call under MPI, so every rank
    asks at the same point. A rank that decided alone would go on to the next case's
    barrier while rank 0, stopped by a signal that came as it wrote, waits in MPI_Finalize:
    ``mpiexec`` would never return.

    Args:
        alone: rank 0's stop taken alone, its message (:class:`RankStop`); None on the
            other ranks.

    """
    here = RankStop(alone, requested(), stop_signal())
    comm = world()
    stop = common(comm.allgather(here) if comm is not None and comm.size > 1 else [here])
    if stop.requested and stop.alone is None and not here.requested:
        _announce(stop.signal, ended=True)  # asked for on another rank alone
    return stop


def _handler(signum: int, frame: Any) -> None:
    if _state["requested"]:
        raise KeyboardInterrupt
    request()
    _state["signal"] = signum
    if _state["abandon"]:
        raise KeyboardInterrupt
    _announce(signum)  # at once: finishing the step and writing the results take seconds


def _announce(signum: int, *, ended: bool = False) -> None:
    """Rank 0 says once that the run stops on signal ``signum``: in its handler, or where
    the ranks agree on a stop asked for on another rank alone (:func:`requested`,
    :func:`agreed`). Once: ``mpiexec`` forwards a signal to every rank at its own moment,
    and rank 0's may come after the others' stop was agreed.

    ``ended``: said where the ranks agree after rank 0 wrote the results (:func:`agreed`):
    the run's steps are over and its results on disk (its plots too, when the signal
    reached another rank as rank 0 drew them), so that nothing is left to stop after or
    to abort; the command ends as interrupted all the same (exit code 130 or 143, as a
    signal after a serial run's last step does), and a loop of runs stops."""
    if rank() != 0 or _state["announced"]:
        return
    _state["announced"] = True
    name = SIGNALS.get(signal.Signals(signum), f"signal {signum}")
    first = f" ({_state['first']})" if _state["first"] and not ended else ""
    said = ("the run had ended and its results are written" if ended else
            f"stopping after the step under way{first} and writing the results so far "
            f"({name} again to abort without them)")
    # one write, its newline in: a second signal raised as print wrote its end ("\n")
    # left the line open, the command's "interrupted" after it on the same line
    print(f"\n{name}: {said}\n", end="", file=sys.stderr, flush=True)


@contextmanager
def before_the_steps(what: str) -> Iterator[None]:
    """Within the block, a stop asked for says ``what`` comes before the step it stops
    after (``compiling numba kernels first, up to half a minute``): work before the first step
    that no check between steps can cut short, whose wait would otherwise read as a run
    that did not hear the signal."""
    previous, _state["first"] = _state["first"], what
    try:
        yield
    finally:
        _state["first"] = previous


def world() -> Any:
    """MPI_COMM_WORLD if a runner has started MPI (``mpi4py.MPI`` imported), else None: this
    module imports nothing heavy (the command line starts with it)."""
    return getattr(sys.modules.get("mpi4py.MPI"), "COMM_WORLD", None)


def rank() -> int:
    """Rank in MPI_COMM_WORLD if a runner has started MPI, else 0."""
    comm = world()
    return int(comm.rank) if comm is not None else 0


@contextmanager
def signals_held_for_python() -> Iterator[None]:
    """Ctrl-C and SIGTERM (:data:`SIGNALS`) held through the block, then given to the
    handlers set from Python before it, for two jobs.

    - Python's handlers are put back: C code started inside (Gmsh's, PETSc's initialisation)
      may replace them without Python knowing (PETSc's crash report and MPI_Abort on
      SIGTERM);
    - the block is not cut short: work that a signal would leave half done (an import of
      VTK's modules, SIGSEGV; the earlier results set aside without the flag that says
      so) ends first, and the signal comes right after it, to the handler in place as
      anywhere else (a stop asked for within :func:`deferred`).

    Held: blocked in this thread, and only noted if another thread takes them (one
    started before the block: numpy's OpenBLAS threads), where the handler in place would
    raise in the middle of the block. Outside the main thread, where Python sets no
    handlers, it does nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    handlers = {signum: handler for signum in SIGNALS
                if callable(handler := signal.getsignal(signum))
                or handler in (signal.SIG_DFL, signal.SIG_IGN)}
    held: list[int] = []
    for signum in handlers:
        signal.signal(signum, lambda number, frame: held.append(number))
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, SIGNALS)
    try:
        yield
    finally:
        for signum, handler in handlers.items():
            signal.signal(signum, handler)
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        for number in held:
            signal.raise_signal(number)


@contextmanager
def deferred() -> Iterator[None]:
    """Within the block, Ctrl-C and SIGTERM ask for a stop instead of raising or killing
    (main thread only).

    Nested in another one, it keeps the stop asked for before it (the command line defers
    a whole command under ``mpiexec``, loading included: the run it wraps stops after its
    first step) and installs the handlers again: C code started in between may have put
    its own in place (PETSc's, as the first block run imports it, aborts on SIGTERM).
    Within :func:`abandoning` (the command line's outside a run) it defers again: a run
    stops after the step under way."""
    outermost = not _state["depth"]
    if outermost:
        _state["requested"], _state["signal"] = False, signal.SIGINT
        _state["announced"] = False
    _state["depth"] += 1
    abandon, _state["abandon"] = _state["abandon"], False
    previous = ({signum: signal.signal(signum, _handler) for signum in SIGNALS}
                if threading.current_thread() is threading.main_thread() else {})
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        _state["depth"] -= 1
        _state["abandon"] = abandon
        if outermost:
            _state["requested"] = _state["announced"] = False


@contextmanager
def abandoning() -> Iterator[None]:
    """Within the block (inside :func:`deferred`), the first Ctrl-C or SIGTERM raises
    ``KeyboardInterrupt`` at once and :func:`requested` is then true: for work that may be
    alone half done, like the plots drawn after the results are written (seconds that a
    scheduler's grace period may not leave). An error that stands for the signal
    (:func:`stands_for_a_signal`) leaves the block as the ``KeyboardInterrupt`` it is.
    Errors that Python drops once a stop is asked for are not printed ("Exception ignored
    in" and a traceback): the ``KeyboardInterrupt`` raised in a weakref callback (the stop
    still asked for), an object it left half built failing in its ``__del__`` (pyvista's
    Renderer)."""
    previous, _state["abandon"] = _state["abandon"], True
    hook = sys.unraisablehook

    def unraisable(info: Any) -> None:
        if not _state["requested"]:
            hook(info)

    sys.unraisablehook = unraisable
    try:
        yield
    except Exception as exc:
        if stands_for_a_signal(exc):
            raise KeyboardInterrupt from exc
        raise
    finally:
        _state["abandon"] = previous
        sys.unraisablehook = hook


def stands_for_a_signal(exc: BaseException) -> bool:
    """Whether ``exc`` is the ``KeyboardInterrupt`` of a Ctrl-C or SIGTERM, or an error
    raised after one asked for a stop: raised at once in a library's code, the interrupt
    may come out as the library's own error (matplotlib's "ImportError: initialization
    failed" as a module starts, "ValueError: Invalid bounding box" as a legend is placed)."""
    return isinstance(exc, KeyboardInterrupt) or (isinstance(exc, Exception)
                                                  and bool(_state["requested"]))
