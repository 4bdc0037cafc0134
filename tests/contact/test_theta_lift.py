"""The theta treatment's position projection (the lift) belongs to the step that computed
it: a step attempt the driver discards after its correct() leaves nothing to the next."""

from types import SimpleNamespace

import numpy as np

from rocking_contact.contact import theta
from rocking_contact.contact.theta import MoreauJeanContact, MoreauJeanOptions
from rocking_contact.time.stage import Affine

N_DOFS = 6


class _FarRelation:
    """Two contacts whose gaps stay 1 m open: no step makes them active."""

    keys = (10, 11)

    def geometry(self, u):
        return SimpleNamespace(gap=np.ones(2), normal=np.tile([0.0, 1.0], (2, 1)),
                               tangent=np.tile([1.0, 0.0], (2, 1)))

    def contact_at(self, point):
        return None


def _problem(h):
    """The state a theta step of size ``h`` (s) starts from: u_{n+1} = u_n + h v_{n+1}."""
    def field(values):
        return SimpleNamespace(x=SimpleNamespace(array=np.array(values, dtype=float),
                                                 scatter_forward=lambda: None))

    return SimpleNamespace(
        stage=SimpleNamespace(unknown="velocity", h=h, u=Affine(x=h, u=1.0, v=0.0, a=0.0)),
        u=field(np.linspace(0.0, 1e-3, N_DOFS)), v=field(np.zeros(N_DOFS)),
        a=field(np.zeros(N_DOFS)), body=SimpleNamespace(n_owned=N_DOFS))


def test_a_discarded_steps_lift_is_not_applied_by_the_next_accepted_step(monkeypatch):
    """The lift of a converged attempt the driver then discarded (a halving decided by
    another term, a refinement) was kept and applied by the next accepted step, here one
    with no active contact, whose correct() returns at once: the displacement moved by it
    and EPROJECTION counted it."""
    # the stored energy a lift changes (J), of this displacement alone
    monkeypatch.setattr(theta, "energies", lambda body, u, v: {"ETOT": float(np.sum(u))})
    contact = MoreauJeanContact(_FarRelation(), MoreauJeanOptions())
    problem = _problem(1e-3)
    contact._lift = np.full(N_DOFS, 1e-4)  # what correct() of the discarded attempt left
    before = problem.u.x.array.copy()
    contact.begin_step(problem)
    assert contact.correct(problem, None, None)
    contact.accept(problem)
    assert np.array_equal(problem.u.x.array, before)
    assert contact.work_projection == 0.0
