"""The work vectors of a contact corrector: made at its first step, reused by every later
one, freed with the run."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from petsc4py import PETSc

    from rocking_contact.solvers.step import StepProblem


class WorkVectors:
    """``count`` vectors of the step problem's layout, made at the first :meth:`get` and
    handed again by every later one: each use overwrites their owned entries (what their
    ghosts hold is the user's to know). Making and freeing them are collective.

    Args:
        count: how many vectors.

    """

    def __init__(self, count: int):
        self.count = count
        self._vectors: tuple[PETSc.Vec, ...] = ()

    def get(self, problem: StepProblem) -> tuple[PETSc.Vec, ...]:
        """The vectors, made on the first call."""
        if not self._vectors:
            self._vectors = tuple(problem.vector() for _ in range(self.count))
        return self._vectors

    def destroy(self) -> None:
        """Free the vectors (none made: nothing to do)."""
        for vector in self._vectors:
            vector.destroy()
        self._vectors = ()
