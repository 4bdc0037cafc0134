"""Time histories that grow row by row and are streamed to a CSV file as they grow.

The columns are fixed by the first row (``time`` first) and written in ``history.csv``'s
format (:data:`~rocking_contact.results_io.HISTORY_FORMAT`), the one
:func:`~rocking_contact.results_io.write_history_csv` writes a whole history in. Every rank
keeps the rows (their values are global, computed with collective reductions); only the one
made with ``write=True`` (rank 0) writes the file, flushing every ``flush_every`` rows, so
that a run that stops (failure, kill) leaves its history on disk. The file closed
(:meth:`History.close`) is the run's ``history.csv``: the run's results are written beside
it, not it again (:func:`~rocking_contact.results_io.write`'s ``history``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

import numpy as np

from rocking_contact.results_io import HISTORY_FORMAT, history_names


class History:
    """Columns of floats, appended row by row and optionally streamed to CSV.

    Args:
        path: the CSV file (None: memory only).
        write: True on the rank that writes (rank 0).
        flush_every: rows between flushes of the file.

    """

    def __init__(self, path: Path | None = None, *, write: bool = True, flush_every: int = 50):
        self.path = path if write else None
        self.flush_every = flush_every
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
                if len(self.rows) % self.flush_every == 0:
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
