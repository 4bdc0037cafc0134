"""Static steps (the preload's): the step problem leaves every contact term out of them
unless the term asks to take part (solvers/step.py, the penalty springs' settle)."""

import pytest

import rocking_contact as rc
from rocking_contact.fem import runner
from rocking_contact.fem.constraints import fix
from rocking_contact.solvers.driver import StepDriver
from rocking_contact.solvers.newton import NewtonSolver
from rocking_contact.solvers.step import Contribution, Corrector, StepProblem
from rocking_contact.time import Newmark, Static


class Recording:
    """The hooks of a contribution that record which the problem and the driver call, and
    whether in a static step; none of the protocol's defaults."""

    linear = True

    def __init__(self):
        self.calls = []

    def begin_step(self, problem):
        self.calls.append(("begin_step", problem.static))

    def add_residual(self, problem, x, r):
        self.calls.append(("add_residual", problem.static))

    def add_jacobian(self, problem, x, jac):
        self.calls.append(("add_jacobian", problem.static))

    def accept(self, problem):
        self.calls.append(("accept", problem.static))

    def columns(self, problem):
        return {}


class Contributing(Recording, Contribution):
    """A recording contribution that says whether it takes part in static steps."""

    def __init__(self, static):
        super().__init__()
        self.static = static

    def in_static_step(self, problem):
        return self.static


class Correcting(Corrector):
    """As :class:`Contributing`, a corrector that never asks for static steps."""

    def __init__(self):
        self.calls = []

    def begin_step(self, problem):
        self.calls.append(("begin_step", problem.static))

    def correct(self, problem, solver, x):
        self.calls.append(("correct", problem.static))
        return True

    def accept(self, problem):
        self.calls.append(("accept", problem.static))

    def columns(self, problem):
        return {}


@pytest.fixture(scope="module")
def body():
    case = rc.load_case("sdnv105_preload_small_strain", {"mesh.table": False})
    return runner.build_body(case)


def _hooks(term, static):
    return {name for name, in_static in term.calls if in_static is static}


def test_a_static_step_leaves_out_the_terms_that_do_not_ask(body):
    sitting, settling, corrector = Contributing(False), Contributing(True), Correcting()
    problem = StepProblem(body, [fix(body, "CONHAUT", ["DX", "DY"])],
                          contributions=[sitting, settling], correctors=[corrector])
    solver = NewtonSolver(problem, prefix="static_steps_")
    driver = StepDriver(problem, solver, max_halvings=0)
    try:
        assert not problem.preloaded
        driver.advance(1.0, Static())
        assert problem.preloaded  # what the penalty springs' release reads
        assert sitting.calls == [] and corrector.calls == []
        assert _hooks(settling, True) == {"begin_step", "add_residual", "add_jacobian",
                                          "accept"}
        assert tuple(problem.step_terms) == (settling,)
        driver.advance(1.001, Newmark())
        assert tuple(problem.step_terms) == (sitting, settling, corrector)
        for term in (sitting, settling):
            assert _hooks(term, False) == {"begin_step", "add_residual", "add_jacobian",
                                           "accept"}
        assert _hooks(corrector, False) == {"begin_step", "correct", "accept"}
    finally:
        driver.destroy()
        solver.destroy()
        problem.destroy()


class Structural(Recording, Contribution):
    """A contribution that overrides every hook of the protocol but ``in_static_step``, the
    one 933c00b added (a term written before it): it inherits the protocol's default."""

    def release(self, problem):
        pass

    def start_shaking(self, problem, stage):
        pass

    def settle(self, problem):
        return False

    def fallback(self, problem):
        return None

    def contact_changes(self, problem):
        return 0

    def inconsistency(self, problem):
        return None

    def destroy(self):
        pass


def test_a_term_without_the_hook_sits_out_static_steps_as_the_default(body):
    """Such a term raised AttributeError in the preload's static step (933c00b); it now
    takes the protocol's default: left out of static steps, in every dynamic one."""
    term = Structural()
    problem = StepProblem(body, [fix(body, "CONHAUT", ["DX", "DY"])], contributions=[term])
    solver = NewtonSolver(problem, prefix="static_steps_structural_")
    driver = StepDriver(problem, solver, max_halvings=0)
    try:
        driver.advance(1.0, Static())
        assert term.calls == []
        driver.advance(1.001, Newmark())
        assert _hooks(term, False) == {"begin_step", "add_residual", "add_jacobian", "accept"}
    finally:
        driver.destroy()
        solver.destroy()
        problem.destroy()
