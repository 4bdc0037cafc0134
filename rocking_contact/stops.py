"""What ends a run before ``time.end``: :class:`RunStopped` and its kinds, a failure
(:class:`SolverFailure`, :class:`Overturned`, :class:`Diverged`) or a stop asked for
(:class:`Interrupted`),
each carrying the result computed up to there (:class:`~rocking_contact.results.RunResult`).
"""

from __future__ import annotations

import errno
import sys
import time
from typing import TYPE_CHECKING, Any

from rocking_contact import interrupt

if TYPE_CHECKING:
    from rocking_contact.results import RunResult

#: the write errors that are the machine's (a full disk or quota, a file system gone
#: read-only or failing), said in one line; any other OSError is a bug's, with its traceback
FULL_DISK = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EIO})

#: MPI tag of a rank's note to the others that it said the error (:func:`say_once`)
SAID_TAG = 0x5A1D
#: seconds rank 1 waits for another rank's note before it says the error itself (rank
#: ``r`` waits ``r`` times as long: ranks meeting the error without rank 0 take turns):
#: ranks that meet a full disk in the same collective write (fields.h5) meet it together
SAID_WAIT = 1.0
#: seconds rank 0 looks for a note before it says the error, and a rank that sent its
#: notes for a lower rank's sent at the same moment: MPICH's first probe after a note
#: comes only takes it in (it returns False, the second True), so that a look of one probe
#: can miss a note sent 0.5 s before
SAID_LOOK = 0.05
#: the notes under way: a note's buffer lives as long as its request
_notes: list[Any] = []


def say_once(line: str) -> None:
    """Say ``line`` on stderr once under ``mpiexec``, whether one rank or every rank met
    the error it says (a full disk in fields.h5, which every rank writes, would otherwise
    be said on every rank). Serially it is a print.

    A rank that finds another's note that it says the error says nothing. Rank 0 looks
    for one during :data:`SAID_LOOK`, rank ``r`` waits up to ``r`` times :data:`SAID_WAIT`
    (rank 0 did not meet the error: it waits for this rank in a collective call); finding
    none, it notes so to every other rank, then says the line unless a lower rank's note
    came meanwhile (within :data:`SAID_LOOK`: both sent theirs at the same moment, and the
    lower one says it). Every rank sends notes, not rank 0 alone: otherwise rank 1 meeting
    the error 1.5 s before rank 0 would say it after its wait, and rank 0 again.

    For an error every rank may meet at the same point of a collective command, which
    then ends every rank (the command line's ``_stop_every_rank``): a note that no rank
    receives is left to that end (a process ending normally with one in MPI's queue may
    be killed as MPI finalises: a command rank 0 runs alone prints instead)."""
    comm = interrupt.world()
    if comm is None or comm.size == 1:
        print(line, file=sys.stderr, flush=True)
        return
    if _noted(comm, comm.size, SAID_WAIT * comm.rank if comm.rank else SAID_LOOK):
        return
    notes = [comm.isend(True, dest=r, tag=SAID_TAG) for r in range(comm.size)
             if r != comm.rank]
    if not _noted(comm, comm.rank, SAID_LOOK):
        print(line, file=sys.stderr, flush=True)
    # a note this small leaves at once (MPI's eager sends): none is left under way as
    # the command ends
    deadline = time.monotonic() + SAID_WAIT
    while not type(notes[0]).testall(notes)[0] and time.monotonic() < deadline:
        time.sleep(0.01)
    _notes.extend(notes)


def _noted(comm: Any, below: int, seconds: float) -> bool:
    """Whether a note of :func:`say_once` from a rank below ``below`` (not this one) is
    there, or comes within ``seconds`` (looked for every 10 ms); the one found is
    received."""
    deadline = time.monotonic() + seconds
    while True:
        for source in range(below):
            if source != comm.rank and comm.iprobe(source=source, tag=SAID_TAG):
                comm.recv(source=source, tag=SAID_TAG)
                return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.01)


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

    @property
    def written(self) -> str:
        """What the command line adds to :meth:`describe` about the results directory:
        a run that stopped without a partial result (one that failed before its first
        step) wrote none, and the results there before are kept; one that stopped before
        its first step (in a block's static preload) wrote its ``results.json`` alone,
        with no rows of history to speak of."""
        if self.partial is None:
            return "(no results were written: the ones there before, if any, are kept)"
        times = self.partial.history.get("time")
        if times is None or not len(times):
            return "(results.json was written, with this status: no step was computed)"
        return "(results so far were written)"


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

    @property
    def exit_code(self) -> int:
        """The exit code of the command line for this stop: 1 (``EXIT_FAILED`` of
        :mod:`rocking_contact.cli`), as for every :class:`SolverFailure` (an
        :class:`Overturned` or :class:`Diverged` block run too); an :class:`Interrupted`
        run's is 128 + its signal's number."""
        from rocking_contact.cli import EXIT_FAILED  # cli imports this module

        return EXIT_FAILED


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
        return interrupt.exit_code(self.signal)


class Overturned(SolverFailure):
    """A block run stopped because the block toppled or slid off its table
    (:mod:`rocking_contact.fem.overturn`; :class:`SlidOff` for a slide);
    carries what was computed up to there. The solver did not fail: the physics left the
    model.

    Only the FEM block (kind ``block``) raises it, as the command line exits 1 for it: the
    model follows a block on its table and cannot go on. The rigid block (kind
    ``rigid``, the rigid twin) follows an overturn to its end: that run completes
    (status ``completed``, exit 0) and says it in ``result.extra["outcome"]``
    (``overturned``)."""

    @property
    def status(self) -> str:
        """The ``status`` of the partial result: ``the block overturned at t = ... s: ...``
        or ``the block slid off its table at t = ... s: ...``."""
        return str(self)

    def describe(self) -> str:
        """The one line said to the user: what happened, not a solver failure."""
        return str(self)


class Diverged(SolverFailure):
    """A block run stopped because energy the physics does not give took the block off its
    table (:func:`rocking_contact.fem.overturn.divergence`): what its steps created (a step
    too long for the contact treatment), or what shock springs held at the release (a gap
    below zero: their store given back): carries what was computed up to there. Its
    ``status`` is ``failed: the run diverged: ...``."""

    def describe(self) -> str:
        """The one line said to the user (after ``error:``): the divergence, its energy and
        what to change."""
        return str(self)


class SlidOff(Overturned):
    """A block run stopped because a corner of the block's base slid past an end of its
    table (``geometry.table_left`` or ``geometry.table_right``, m): an :class:`Overturned`
    (``except rc.Overturned`` catches both) that a study can tell from a toppling. Its
    ``status`` is ``the block slid off its table at t = ... s: ...``."""
