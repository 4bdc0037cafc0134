"""What a block run writes as it goes: history rows, field frames and their index, progress.

:class:`RunOutput` is the step driver's observer that :func:`rocking_contact.fem.runner.simulate`
adds; the history it streams is the one the run's result takes at its end.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from functools import partial
from pathlib import Path

import numpy as np

from rocking_contact.fem.body import ElasticBody
from rocking_contact.fem.case import BlockCase
from rocking_contact.fem.energy_balance import EnergyBalance
from rocking_contact.fem.fields import VTK_FILE, FieldWriter
from rocking_contact.fem.probes import Recorder
from rocking_contact.progress import Progress
from rocking_contact.results_io import HISTORY_FILE, FieldIndex, History, history_names
from rocking_contact.solvers.driver import StepInfo
from rocking_contact.solvers.step import StepProblem


class RunOutput:
    """History rows every N steps, fields every M steps, progress; the last state always.

    An observer of the step driver (:meth:`record`) that streams ``history.csv`` (rank 0)
    and the fields into the results directory as the run goes, and keeps ``fields.pvd``
    current, so that a run killed at any step leaves what it computed readable. No file is
    opened before the first row is recorded and ``check`` has accepted its columns: a run
    refused there (a misspelt ``[[quantity]] column``) leaves no history row and no frame.

    Args:
        case: the case (its ``[output]``, points and time).
        body: the bodies.
        out_dir: the results directory (None: the history kept in memory only, no fields).
        progress: progress bar over simulated time.
        balance: the run's energy balance, handed each row's total energy (None: none).
        writer: makes the fields' writer (:class:`~rocking_contact.fem.fields.FieldWriter`;
            :func:`~rocking_contact.fem.runner.simulate` passes its module's name, which
            tests replace to watch the writer), made as the first frame is written.
        check: called with the history's columns (:func:`~rocking_contact.results_io.
            history_names`) before the first row is kept or written; it raises to refuse
            them.

    """

    def __init__(self, case: BlockCase, body: ElasticBody, out_dir: Path | None,
                 progress: Progress | None, *, balance: EnergyBalance | None,
                 writer: Callable[..., FieldWriter], check: Callable[[list[str]], None]):
        comm = body.comm
        self.every, self.fields_every = case.output.every, case.output.fields_every
        self.fields_interval = case.output.fields_interval
        self._next_frame = case.time.start + self.fields_interval
        self.recorder = Recorder(body, case.output.points, 2 * case.geometry.half_width)
        path = out_dir / HISTORY_FILE if out_dir is not None else None
        self.history = History(path, write=comm.rank == 0)
        # made at the first frame: its XDMF file and mesh are written as it is made
        self._writer = (partial(writer, body, out_dir, xdmf=case.output.xdmf)
                        if out_dir is not None else None)
        self.fields: FieldWriter | None = None
        self._check = check
        # fields.pvd kept current: DOLFINx writes it only on close, which a kill skips
        self._index = (FieldIndex(out_dir / VTK_FILE) if out_dir is not None and comm.rank == 0
                       else None)
        self.progress = progress
        self.count = 0
        self._info: StepInfo | None = None
        self._row_t = self.fields_t = np.nan
        #: the run's energy balance, handed each row's total energy
        self.balance = balance

    def record(self, problem: StepProblem, info: StepInfo | None) -> None:
        """Observer of the step driver (``info`` None for the initial state)."""
        self._info = info
        if info is not None:
            self.count += 1
        if info is None or self.count % self.every == 0:
            self._row(problem)
        if self._writer is not None and (info is None or self._frame_due(problem.t)):
            self._write_fields(problem)
        if self.progress is not None and info is not None:
            self.progress.update(problem.t, f"h={info.h:.2g}", step=self.count)

    def _frame_due(self, t: float) -> bool:
        """Fields every ``fields_every`` steps and at the first step past each multiple of
        ``fields_interval``."""
        due = self.fields_every > 0 and self.count % self.fields_every == 0
        if self.fields_interval > 0.0 and t >= self._next_frame - 1e-12:
            while self._next_frame <= t + 1e-12:
                self._next_frame += self.fields_interval
            due = True
        return due

    def _row(self, problem: StepProblem) -> None:
        u, v, _ = problem.arrays
        row = self.recorder.row(problem.t, u, v)
        if self.balance is not None:
            self.balance.record_total(row["ETOT"])  # its residual's E: the same state's
        row["DT"] = self._info.h if self._info else 0.0
        row["NEWTON"] = self._info.iterations if self._info else 0
        row.update(problem.columns())
        if not self.history.names:
            self._check(history_names(row))
        self.history.append(row)
        self._row_t = problem.t

    def _write_fields(self, problem: StepProblem) -> None:
        assert self._writer is not None
        if self.fields is None:
            self.fields = self._writer()
        self.fields.write(problem.t, problem.u.x.array)
        self.fields_t = problem.t
        if self._index is not None:
            self._index.add(problem.t)

    def close(self, problem: StepProblem) -> None:
        """The step loop's end, however it ended: record the last state (``problem``'s) if
        the intervals skipped it, then close the history and field files."""
        if self.history.names and self._row_t != problem.t:
            self._row(problem)
        if self._writer is not None and self.fields_t != problem.t and self.history.names:
            self._write_fields(problem)
        if self.fields is not None:
            self.fields.close()
        self.history.close()

    def aborted(self) -> None:
        """The run aborted at once (a second Ctrl-C or SIGTERM: a ``KeyboardInterrupt``
        in a step, or as :meth:`close` wrote the stop's last state): the history's rows
        recorded so far and the index of the frames written so far reach the disk now,
        where ``results.json`` then says the run ends
        (:func:`~rocking_contact.api._abort_said`). ``fields.pvd`` lagged its frames by up
        to the index's interval until DOLFINx's ``VTKFile``, collected as the process
        exited, wrote it again; a kill after the abort (the third signal's, a scheduler's
        past its grace period) left it so. The field files are left open: the abort may
        have cut their :meth:`close` short, and DOLFINx closes them as the process exits."""
        self.history.close()
        if self._index is not None:
            # a full disk keeps the index there: the abort is what the command says
            with contextlib.suppress(OSError):
                self._index.write()
