"""Event-driven integration of the rigid block's rocking (see :mod:`.rigid_block`).

The motion is a chain of phases, each integrated until an event ends it:

- *flight* about a corner: the rocking equation (nonlinear or linearised) is integrated by
  scipy's DOP853 with a tight tolerance; events are found by a sign change between steps
  and located by a root solve on the dense output (scipy's ``solve_ivp`` events):
  ``impact`` (theta back to 0, terminal), ``apex`` (omega = 0, the largest lift) and
  ``overturn`` (terminal: |theta| reaches the unstable equilibrium on a still table, pi/2
  on a moving one, :func:`~rocking_contact.block.overturn_limit`);
- *impact*: the angular velocity jumps to ``e omega-`` and the pivot changes corner
  (:meth:`~.rigid_block.RigidBlock.impact`); when the velocity left is negligible
  (:attr:`~.rigid_block.RigidBlock.rest_velocity`) the block is set to rest, which also ends
  the accumulation of ever shorter flights that a coefficient ``e < 1`` produces (a Zeno
  point, 0.3728 s for SDNV105). A squat block (``b >= sqrt(2) l``, ``e <= 0``) stops flat at
  its impact (:func:`~.rigid_block.rebound`);
- *rest* flat on the table, until the table acceleration makes a corner's normal force
  vanish (``uplift``: ``|ux| > (g + uy) b / l``), when the block starts rocking about the
  other corner. The table's acceleration is sampled at its breakpoints and at its
  resolution (:class:`~rocking_contact.loads.TableMotion`), and every sampled
  maximum of the margin is refined: an excursion past the threshold shorter than any
  sampling step is found too.

Without table motion, the collision instants are the kinetic-energy maxima, as Code_Aster
measures them. Everything is relative to the table.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Generator, Iterator, Mapping
from dataclasses import dataclass, field

import numpy as np
from scipy.integrate import solve_ivp
from scipy.optimize import brentq, minimize_scalar

from rocking_contact.analytic.events import ivp_event
from rocking_contact.analytic.rigid_block import (
    PIVOT_SIGN,
    Corner,
    Equation,
    Impact,
    ImpactSequence,
    Lift,
    RigidBlock,
    other_corner,
)
from rocking_contact.block import overturn_limit
from rocking_contact.loads import TableMotion

#: history columns, ``time`` first (the contract shared with the FEM SDNV105 cases)
COLUMNS = ("time", "THETA", "OMEGA", "EKIN_BLOCK", "DY_O", "DY_A", "VY_O", "VY_A",
           "RN_O", "RN_A", "RX_O", "RX_A")

#: the outcome of a motion whose steps were left before their end (a run interrupted)
INTERRUPTED = "interrupted"

#: the note of a ``jump`` event of the block lying flat
JUMP_NOTE = ("the table falls faster than gravity (g + uy < 0): the block leaves it, which "
             "the rigid model does not follow; the history ends here")

#: the note of a ``jump`` event of a rocking block, whose pivot would pull on the table
PIVOT_JUMP_NOTE = ("the pivot's normal force falls to 0{why}: the block leaves the table, "
                   "which the rigid model does not follow; the history ends here")


class _Jump(Exception):
    """The block lying flat leaves the table at ``time`` (s)."""

    def __init__(self, time: float):
        super().__init__(time)
        self.time = time


@dataclass(frozen=True)
class RockingEvent:
    """Something that changes the regime: ``uplift`` (rest -> rocking about ``corner``),
    ``rest`` (the block lies flat), ``overturn`` (|theta| reached the overturning limit
    about ``corner``: the block topples), ``jump`` (the block leaves the table, which the
    model does not follow: lying flat, when the table falls faster than gravity; rocking,
    about ``corner``, when its pivot's normal force falls to 0); ``time`` in s."""

    kind: str
    time: float
    corner: Corner | None = None
    note: str = ""


@dataclass
class RockingMotion:
    """What an integration found.

    Attributes:
        sequence: the impacts and the lifts (flight k follows impact k; 0 is the release).
        events: uplifts, rests, overturn, in time order.
        outcome: ``"rocking"`` (still moving at the end), ``"rest"``, ``"overturned"``,
            ``"jumped"`` (the history ends there), or ``"interrupted"`` (its steps left before
            their end: :meth:`RockingSimulation.steps`).
        history: the columns of :data:`COLUMNS` on the sample grid plus the event instants
            (an impact gives two rows at the same instant: just before and just after).

    """

    sequence: ImpactSequence
    events: list[RockingEvent] = field(default_factory=list)
    outcome: str = "rocking"
    history: dict[str, np.ndarray] = field(default_factory=dict)


class _History:
    """Rows of the history, computed from the state (theta, omega) and the regime, held in
    blocks of :attr:`BLOCK` rows of floats (a list of tuples of Python floats takes 0.67 GB
    a million rows)."""

    #: rows of a block
    BLOCK = 8192

    def __init__(self, block: RigidBlock, table: TableMotion, equation: Equation):
        self.block, self.table, self.equation = block, table, equation
        self._blocks: list[np.ndarray] = []
        self._rows = 0  # rows held

    def _append(self, row: tuple[float, ...]) -> None:
        at = self._rows % self.BLOCK
        if at == 0:
            self._blocks.append(np.empty((self.BLOCK, len(COLUMNS))))
        self._blocks[-1][at] = row
        self._rows += 1

    def flight(self, t: float, theta: float, omega: float, pivot: Corner) -> None:
        block = self.block
        ux, uy = self.table.at(t)
        theta_dd = block.angular_acceleration(theta, pivot, ux, uy, self.equation)
        rn, rx = block.pivot_reaction(theta, omega, theta_dd, pivot, ux, uy)
        lift, vy = block.lift(theta), block.lifted_velocity(theta, omega, pivot)
        on_o = pivot == "O"
        self._append((t, theta, omega, block.kinetic_energy(omega),
                      0.0 if on_o else lift, lift if on_o else 0.0,
                      0.0 if on_o else vy, vy if on_o else 0.0,
                      rn if on_o else 0.0, 0.0 if on_o else rn,
                      rx if on_o else 0.0, 0.0 if on_o else rx))

    def rest(self, t: float) -> None:
        r = self.block.resting_reactions(*self.table.at(t))
        self._append((t, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                      r["RN_O"], r["RN_A"], r["RX_O"], r["RX_A"]))

    def ends_at(self, t: float) -> bool:
        """Whether the last row held is at ``t`` (s)."""
        return self._rows > 0 and self._blocks[-1][(self._rows - 1) % self.BLOCK][0] == t

    def columns(self) -> dict[str, np.ndarray]:
        data = (np.concatenate(self._blocks)[:self._rows] if self._blocks
                else np.zeros((0, len(COLUMNS))))
        return {name: data[:, i] for i, name in enumerate(COLUMNS)}


class RockingSimulation:
    """Integrates the rocking of a rigid block with impacts, rests and uplifts.

    Args:
        block: the block.
        equation: ``"nonlinear"`` (the manual's equations) or ``"linearised"`` (first order
            in theta).
        restitution: omega+/omega- at each impact (default: the block's, from the
            angular momentum balance about the new pivot).
        table: table acceleration (default: still table).
        tolerance: relative tolerance of the integration; the events are located on the
            dense output to machine precision, so instants are as good as the solution.
        max_step: largest integration step (s), beyond the table's own resolution.

    """

    def __init__(self, block: RigidBlock, equation: Equation = "nonlinear", *,
                 restitution: float | None = None, table: TableMotion | None = None,
                 tolerance: float = 1e-12, max_step: float = math.inf):
        self.block, self.equation = block, equation
        self.restitution = block.restitution if restitution is None else restitution
        self.table = table if table is not None else TableMotion()
        self.rtol = tolerance
        self.max_step = min(max_step, self.table.resolution)
        # sorted, for a bisection: a long record has one at each of its 20,001 samples
        self._breaks = np.array(sorted(self.table.breakpoints), dtype=float)
        self.overturn_limit = overturn_limit(block.overturn_angle(equation), self.table.still)

    # -- public ------------------------------------------------------------------------------

    def run(self, tilt: float, start: float, end: float, samples: np.ndarray | None = None,
            progress: Callable[[float], None] | None = None) -> RockingMotion:
        """Release the block at rest from ``tilt`` (rad, >= 0: about O) at ``start`` and
        follow it to ``end`` (s), recording the history at ``samples`` (s) and the events.

        A zero tilt starts at rest flat on the table. ``progress`` is called with the
        simulated time reached (s) after each piece of :meth:`steps`.
        """
        for t in self.steps(tilt, start, end, samples):
            if progress is not None:
                progress(t)
        return self.motion()

    def steps(self, tilt: float, start: float, end: float,
              samples: np.ndarray | None = None) -> Iterator[float]:
        """:meth:`run` a piece at a time: yields the simulated time (s) reached after each
        piece (a phase starting, a flight integrated from one of the table's breakpoints to
        the next, a block of a rest's search for its uplift), so that a caller can report
        its progress and stop it between two pieces. :meth:`motion` is what it has
        computed: the whole motion once the steps are done, or the motion so far (outcome
        ``"interrupted"``, the history up to the last instant yielded at most)."""
        grid = np.asarray(samples if samples is not None else [start, end], dtype=float)
        self._grid = grid[(grid >= start) & (grid <= end)]
        self._next = 0  # index of the first grid instant not yet recorded
        self._history = _History(self.block, self.table, self.equation)
        self._impacts: list[Impact] = []
        self._lifts: dict[int, Lift] = {}
        self._events: list[RockingEvent] = []
        self._outcome = INTERRUPTED  # until the steps are done
        impacts, lifts, events = self._impacts, self._lifts, self._events
        t, theta, omega = start, tilt, 0.0
        pivot: Corner | None = "O" if tilt > 0 else None
        outcome = "rocking"
        while t < end:
            yield t
            if pivot is None:
                try:
                    t, pivot = yield from self._rest(t, end)
                except _Jump as jump:
                    events.append(RockingEvent("jump", jump.time, None, JUMP_NOTE))
                    outcome = "jumped"
                    break
                if pivot is None:
                    outcome = "rest"
                    break
                events.append(RockingEvent("uplift", t, pivot,
                                           f"corner {other_corner(pivot)} lifts"))
                theta = omega = 0.0
            if abs(theta) >= self.overturn_limit:
                events.append(RockingEvent("overturn", t, pivot, "released beyond the "
                                           "overturning limit"))
                self._history.flight(t, theta, omega, pivot)
                outcome = "overturned"
                break
            flight = len(impacts)
            t, theta, omega, reason, apex = yield from self._fly(t, theta, omega, pivot, end)
            best = max(apex, key=lambda a: a.height, default=None)
            if best is not None and (flight not in lifts or best.height > lifts[flight].height):
                lifts[flight] = Lift(flight, best.corner, best.height, best.time)
            if reason == "overturn":
                events.append(RockingEvent("overturn", t, pivot, self._overturn_note))
                outcome = "overturned"
                break
            if reason == "jump":
                uy = self.table.at(t)[1]
                why = (f" (the table falls faster than gravity: g + uy = "
                       f"{self.block.gravity + uy:.4g} m/s^2)"
                       if self.block.gravity + uy < 0 else "")
                events.append(RockingEvent("jump", t, pivot, PIVOT_JUMP_NOTE.format(why=why)))
                outcome = "jumped"
                break
            if reason == "end":
                break
            landing = other_corner(pivot)
            impact = self.block.impact(omega, landing, self.restitution,
                                       index=len(impacts) + 1, time=t)
            impacts.append(impact)
            if abs(impact.omega_after) < self.block.rest_velocity:
                self._history.rest(t)
                events.append(RockingEvent("rest", t, None, self.block.rest_note(
                    self.restitution, impact.index)))
                pivot, theta, omega = None, 0.0, 0.0
            else:
                pivot, theta, omega = landing, 0.0, impact.omega_after
                self._history.flight(t, theta, omega, pivot)
        self._outcome = outcome

    def motion(self) -> RockingMotion:
        """What :meth:`steps` has computed so far (the whole motion once they are done)."""
        sequence = ImpactSequence(self.equation, self.restitution, list(self._impacts),
                                  [self._lifts[k] for k in sorted(self._lifts)])
        return RockingMotion(sequence, list(self._events), self._outcome,
                             self._history.columns())

    # -- phases ------------------------------------------------------------------------------

    def _rhs(self, pivot: Corner) -> Callable[[float, np.ndarray], list[float]]:
        block, table, equation = self.block, self.table, self.equation

        def rhs(t: float, y: np.ndarray) -> list[float]:
            ux, uy = table.at(t)
            return [y[1], block.angular_acceleration(y[0], pivot, ux, uy, equation)]

        return rhs

    def _fly(self, t0: float, theta: float, omega: float, pivot: Corner, end: float
             ) -> Generator[float, None, tuple[float, float, float, str, list[Lift]]]:
        """One flight about ``pivot``; returns (t, theta, omega, reason, apexes) at its end,
        reason in ``impact``, ``overturn``, ``jump`` (the pivot's normal force falls to 0:
        it would pull on the table) or ``end``. It is integrated from one breakpoint of the
        table motion to the next, where the equation is smooth, and yields the instant (s)
        reached at each."""
        s = PIVOT_SIGN[pivot]
        limit = self.overturn_limit
        pressing = self._pivot_force(pivot)
        events = [
            # theta returns to 0: from above about O, from below about A
            ivp_event(lambda t, y: y[0], -s, True),
            # largest |theta|: omega changes sign toward the table
            ivp_event(lambda t, y: y[1], -s, False),
            ivp_event(lambda t, y: s * y[0] - limit, 1.0, True),
            # the pivot would pull on the table: the block leaves it (without this event a
            # rocking block under g + uy < 0 goes on with RN < 0, a warning alone saying so)
            ivp_event(pressing, -1.0, True),
        ]
        lifted = other_corner(pivot)
        # a release from a tilt: the start is the highest point so far
        apexes = [Lift(0, lifted, self.block.lift(theta), t0)] if theta != 0.0 else []
        t1, state, reason = t0, np.array([theta, omega]), "end"
        if pressing(t0, state) < 0.0:  # no crossing to find: it leaves the table at once
            if not self._history.ends_at(t0):
                self._history.flight(t0, theta, omega, pivot)
            return t0, theta, omega, "jump", apexes
        for a, b in self._segments(t0, end):
            sol = solve_ivp(self._rhs(pivot), (a, b), state, method="DOP853",
                            rtol=self.rtol, atol=self.rtol * 1e-3, events=events,
                            dense_output=True, max_step=self.max_step)
            if sol.status < 0:
                raise RuntimeError(f"rigid rocking integration failed at t = {sol.t[-1]:.9g} "
                                   f"s: {sol.message}")
            t1, state = float(sol.t[-1]), sol.y[:, -1]
            for name, index in (("impact", 0), ("overturn", 2), ("jump", 3)):
                if sol.t_events[index].size:
                    t1, state, reason = float(sol.t_events[index][0]), sol.y_events[index][0], name
            found = [Lift(0, lifted, self.block.lift(y[0]), float(ta))
                     for ta, y in zip(sol.t_events[1], sol.y_events[1]) if ta > a]
            apexes += found
            self._record(sol.sol, a, t1, pivot, found)
            if reason != "end":
                break
            yield t1
        theta1, omega1 = float(state[0]), float(state[1])
        if reason == "impact":
            theta1 = 0.0  # the root solve leaves ~1e-18: the corner is on the table
        self._history.flight(t1, theta1, omega1, pivot)
        return t1, theta1, omega1, reason, apexes

    def _pivot_force(self, pivot: Corner) -> Callable[[float, np.ndarray], float]:
        """The normal force (N) of ``pivot`` on the table at ``(t, (theta, omega))``, as
        the history's ``RN`` (> 0 pressing), while the block is within its overturning
        angle atan(b/l); 1 N past it.

        Past that angle the block is falling over, and on a moving table its fall is
        followed until it lies on its side (outcome ``overturned``): the pivot unloads on
        the way (a block held at 1.01 times its uplift acceleration, at 0.988 rad of its
        pi/2), which a warning says, as it says a slide."""
        block, table, equation = self.block, self.table, self.equation
        toppling = block.overturn_angle(equation)

        def normal(t: float, y: np.ndarray) -> float:
            if abs(y[0]) >= toppling:
                return 1.0
            ux, uy = table.at(t)
            theta_dd = block.angular_acceleration(y[0], pivot, ux, uy, equation)
            return block.pivot_reaction(y[0], y[1], theta_dd, pivot, ux, uy)[0]

        return normal

    def _segments(self, t0: float, end: float) -> Iterator[tuple[float, float]]:
        """``[t0, end]`` cut at the table motion's breakpoints, in order, as far as a flight
        asks (a flight of a long record ended at its impact, its segments to the record's
        end listed each time: 3 of 7 s of a run)."""
        a = t0
        for b in self._breaks[np.searchsorted(self._breaks, t0, side="right"):]:
            if b >= end:
                break
            yield a, float(b)
            a = float(b)
        yield a, end

    def _breakpoints(self, t0: float, end: float) -> np.ndarray:
        """The table motion's breakpoints strictly between ``t0`` and ``end`` (s)."""
        return self._breaks[np.searchsorted(self._breaks, t0, side="right"):
                            np.searchsorted(self._breaks, end, side="left")]

    def _record(self, solution: Callable[[np.ndarray], np.ndarray], t0: float, t1: float,
                pivot: Corner, apexes: list[Lift]) -> None:
        """History rows in [t0, t1): the grid instants, plus the apexes."""
        stop = int(np.searchsorted(self._grid, t1, side="left"))
        times = list(self._grid[self._next:stop]) + [a.time for a in apexes if t0 < a.time < t1]
        self._next = max(self._next, stop)
        times = sorted(t for t in times if t >= t0)
        if not times:
            return
        states = solution(np.array(times))
        for t, theta, omega in zip(times, states[0], states[1]):
            self._history.flight(float(t), float(theta), float(omega), pivot)

    def _rest(self, t0: float, end: float
              ) -> Generator[float, None, tuple[float, Corner | None]]:
        """Rest flat from ``t0``; returns (instant, pivot) of the uplift, or (end, None),
        and yields the instant (s) its search has reached, the history recorded up to
        there."""
        block, table = self.block, self.table

        def margin(corner: Corner) -> Callable[[float], float]:
            # > 0 when the table acceleration tips the block onto ``corner``
            s = PIVOT_SIGN[corner]

            def g(t: float) -> float:
                ux, uy = table.at(t)
                return s * ux - block.uplift_acceleration(uy)

            return g

        def falling(t: float) -> float:
            # > 0 when the table falls faster than gravity: nothing holds the block on it
            return -(block.gravity + table.at(t)[1])

        corners: tuple[Corner, Corner] = ("O", "A")
        margins = {c: margin(c) for c in corners}
        if falling(t0) > 0:  # tested first: a negative g + uy would tip it onto O as well
            self._record_rest(t0, t0)
            raise _Jump(t0)
        for corner, g in margins.items():
            if g(t0) > 0:
                self._record_rest(t0, t0)
                return t0, corner
        if table.still:
            self._record_rest(t0, end)
            self._history.rest(end)
            return end, None
        grid = self._search_grid(t0, end)
        # nothing to look for in the fall of a table that does not move vertically
        watched: dict[str, Callable[[float], float]] = {c: g for c, g in margins.items()}
        if table.vertical is not None:
            watched["jump"] = falling
        search = _first_rises(watched, grid)
        while True:
            try:
                reached = next(search)
            except StopIteration as done:
                first: dict[str, float | None] = done.value
                break
            self._record_rest(t0, reached)
            yield reached
        jumps = first.get("jump")
        rises = [(t, c) for c in corners if (t := first[c]) is not None]
        if jumps is not None and (not rises or jumps <= min(rises)[0]):
            self._record_rest(t0, jumps)
            self._history.rest(jumps)
            raise _Jump(jumps)
        if rises:
            t1, corner = min(rises)
            self._record_rest(t0, t1)
            self._history.rest(t1)
            return t1, corner
        self._record_rest(t0, end)
        self._history.rest(end)
        return end, None

    def _search_grid(self, t0: float, end: float) -> np.ndarray:
        """Instants from ``t0`` to ``end`` (s) at which the table motion is sampled: its
        breakpoints, and steps of at most ``max_step``."""
        count = 1 if math.isinf(self.max_step) else math.ceil((end - t0) / self.max_step)
        uniform = np.linspace(t0, end, count + 1)
        inside = self._breakpoints(t0, end)
        return np.unique(np.concatenate([uniform, inside]))

    @property
    def _overturn_note(self) -> str:
        if self.table.still:
            return "passed the unstable equilibrium: the block topples"
        return "turned to pi/2: the block lies on its side"

    def _record_rest(self, t0: float, t1: float) -> None:
        stop = int(np.searchsorted(self._grid, t1, side="left"))
        for t in self._grid[self._next:stop]:
            if t >= t0:
                self._history.rest(float(t))
        self._next = max(self._next, stop)


def _first_rises(functions: Mapping[str, Callable[[float], float]], grid: np.ndarray
                 ) -> Generator[float, None, dict[str, float | None]]:
    """The first instant (s) where each of ``functions`` turns positive over ``grid``
    (:class:`_Rise`), as far as the earliest of them needs: a function that has not turned
    positive by then gives None, though it may later.

    The grid is searched a block at a time, and the search stops once a rise is found
    before the end of the block searched: the others could only rise after it. A block
    resting on a long record looked over all of it, to the record's end, at each rest
    (3 functions by 20,001 instants, each sampled maximum refined) for the first uplift.
    Yields the end of each block searched (s) before which none rises, and returns the
    instants.
    """
    scans = {name: _Rise(g, grid) for name, g in functions.items()}
    last = 0  # the intervals up to grid[last] are searched
    size = 64
    while last < len(grid) - 1:
        last = min(last + size, len(grid) - 1)
        size = min(2 * size, 1024)  # a block of a noisy record: ~0.1 s, refinements included
        for scan in scans.values():
            scan.search(last)
        found = [scan.found for scan in scans.values() if scan.found is not None]
        if found and min(found) < grid[last]:
            break
        if last < len(grid) - 1:
            yield float(grid[last])
    return {name: scan.found for name, scan in scans.items()}


class _Rise:
    """The first instant of ``grid[0] < t <= grid[-1]`` (s) where ``g`` turns positive,
    ``g(grid[0]) <= 0``, searched an interval at a time (:meth:`search`): ``found``.

    Sign changes between samples are located by a root solve. A sampled maximum that stays
    below zero is refined by a bounded scalar search over its two neighbouring intervals, so
    that a peak crossing zero between samples is found (a step of a sine's period / 32
    leaves 0.5 % of the amplitude unseen at its crest). ``g`` is sampled only as far as the
    search has gone (one instant ahead, to tell a maximum).
    """

    def __init__(self, g: Callable[[float], float], grid: np.ndarray):
        self.g, self.grid = g, grid
        self.values = [g(float(grid[0]))]
        self.found: float | None = None
        self._next = 1  # the interval (grid[i - 1], grid[i]] to look at next

    def _value(self, i: int) -> float:
        while len(self.values) <= i:
            self.values.append(self.g(float(self.grid[len(self.values)])))
        return self.values[i]

    def search(self, last: int) -> None:
        """Look at the intervals up to ``grid[last]``, unless the rise is found."""
        g, grid = self.g, self.grid
        while self.found is None and self._next <= last:
            i = self._next
            self._next += 1
            a, b = float(grid[i - 1]), float(grid[i])
            if self._value(i) > 0.0:
                self.found = float(brentq(g, a, b, xtol=1e-15, rtol=4 * np.finfo(float).eps))
            elif i + 1 < len(grid) and self.values[i - 1] <= self.values[i] >= self._value(i + 1):
                c = float(grid[i + 1])
                peak = minimize_scalar(lambda t: -g(t), bounds=(a, c), method="bounded",
                                       options={"xatol": 1e-12 * max(1.0, abs(c))})
                if -peak.fun > 0.0:
                    self.found = float(brentq(g, a, float(peak.x), xtol=1e-15,
                                              rtol=4 * np.finfo(float).eps))
