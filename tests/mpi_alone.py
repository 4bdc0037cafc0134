"""How ``make test`` shares the tests between pytest-xdist workers (``-n 2 --dist loadfile``,
which conftest.py turns into :class:`MpiAlone`).

A test file is one unit of work, run whole by one worker, so that its module fixtures are
computed once (``--dist loadfile``). The tests marked ``mpi`` (they launch ``mpiexec -n 2``
or ``-n 3``) are one unit more, the last, and run while no other worker runs anything:
ranks that wait for each other poll for their messages, and beside a busy worker on a 2-core
machine a rank that polls takes the core the other needs (at 2 workers sharing everything,
test_contact_mpi's sdnv105c took 92 s instead of 12 s, and the suite 17 min instead of
11). Alone, they run as they do in a serial run: their timings ('rank 0 last by 2.5 s')
are those of an idle machine.

A worker holds its last test until it is given more or told to stop (pytest runs a test
knowing the next one); so once only the MPI unit is left, a worker whose tests are done
is told to stop while another still runs tests, and the last one left takes the MPI unit
after every other has stopped.

The controller sees test ids, not marks: each worker writes the ids of its tests marked
``mpi`` to a file of :data:`KEY`'s directory (:func:`write_ids`), read once every worker has
collected. (xdist's own groups, ``--dist loadgroup``, put the group in the test's id, which
pytest 9.2 no longer lets it change: with pytest-xdist 3.8.0 they are ignored.)
"""

import json
import os
from pathlib import Path

from xdist.scheduler import LoadScopeScheduling

#: the one unit run alone
GROUP = "mpi"
#: workerinput's key: the directory where the workers write their ``mpi`` tests' ids
KEY = "mpi_alone_ids"


def write_ids(folder, worker, ids):
    """Write ``ids`` (a worker's tests marked ``mpi``) to ``folder``/``worker``.json, whole
    (the controller reads it once every worker has collected)."""
    path = Path(folder) / f"{worker}.json"
    part = path.with_suffix(".part")
    part.write_text(json.dumps(sorted(ids)))
    os.replace(part, path)


class MpiAlone(LoadScopeScheduling):
    """Files to every worker, the ``mpi`` tests last and alone."""

    def __init__(self, config, log=None, folder=None):
        super().__init__(config, log)
        self.folder = Path(folder)
        self.alone: set[str] = set()

    def schedule(self):
        if self.collection is None:  # every worker has collected: their ids are written
            files = sorted(self.folder.glob("*.json"))
            if not files:
                raise RuntimeError(f"no worker wrote its mpi tests' ids to {self.folder}")
            self.alone = set().union(*(json.loads(f.read_text()) for f in files))
        super().schedule()

    def _split_scope(self, nodeid):
        """A test's unit: :data:`GROUP` for a test marked ``mpi``, else its file."""
        return GROUP if nodeid in self.alone else nodeid.split("::", 1)[0]

    def _assign_work_unit(self, node):
        """The first unit waiting but the MPI one; none if only the MPI one waits."""
        if GROUP in self.workqueue:
            if len(self.workqueue) == 1:
                return
            self.workqueue.move_to_end(GROUP)
        super()._assign_work_unit(node)

    def _reschedule(self, node):
        if self.workqueue and list(self.workqueue) != [GROUP] and not node.shutting_down:
            super()._reschedule(node)
        elif not self.workqueue and not node.shutting_down:
            node.shutdown()
        else:
            self._run_alone()

    def remove_node(self, node):
        crashed = super().remove_node(node)
        self._run_alone()
        return crashed

    def _run_alone(self):
        """Once only the MPI unit waits: stop every worker whose tests are done but one, and
        give that one the unit when no other runs a test."""
        if list(self.workqueue) != [GROUP]:
            return
        pending = {node: self._pending_of(work) for node, work in self.assigned_work.items()}
        # a worker runs a test while it has two (it holds the last), or one once told to stop
        running = [n for n, p in pending.items() if p >= 2 or (n.shutting_down and p)]
        waiting = [n for n, p in pending.items() if p <= 1 and not n.shutting_down]
        if not waiting:
            return
        keep = None if any(not n.shutting_down for n in running) else waiting[0]
        for node in waiting:
            if node is not keep:
                node.shutdown()
        if keep is not None and not running:
            super()._assign_work_unit(keep)
