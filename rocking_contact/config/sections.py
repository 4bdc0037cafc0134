"""The sections every kind of case shares: ``[case]``, ``[[quantity]]``,
``[[reference]]``, a uniform ``[time]``, and the most time steps a run may take.

A kind's schema derives from :class:`CaseFile` and adds its own sections.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

from rocking_contact.config.schema import (
    DIRECTORY_NAME,
    FINITE,
    POSITIVE,
    Conflict,
    param,
)

if TYPE_CHECKING:
    from rocking_contact.config.layers import Layer


@dataclass(kw_only=True)
class CaseInfo:
    """The ``[case]`` table: identity of the case."""

    name: str = param(doc="short name, used for the results directory (not given or unset: "
                      "its own file's name, never its parent's)", check=DIRECTORY_NAME,
                      default_doc="the case file's name (without .toml)")
    title: str = param(doc="one-line title shown by `rocking-contact list`")
    kind: str = param(doc="model family: selects the schema and the runner")
    description: str = param("", doc="free text: what the case is, where it comes from")


@dataclass(kw_only=True)
class Reference:
    """A ``[[reference]]``: a published value to compare one computed quantity with.

    ``tolerance_kind`` says how ``tolerance`` reads: ``relative`` (|ours - ref| <= tol |ref|),
    ``absolute`` (in the quantity's unit) or ``steps`` (absolute, in multiples of the run's
    time step: "within one time step"). A reference without ``tolerance`` is shown for
    information and never decides pass or fail.
    """

    quantity: str = param(doc="name of a computed quantity")
    value: float = param(doc="reference value", check=FINITE)
    source: str = param(doc="where the value comes from (analytic, Code_Aster, LMGC90, ...)")
    tolerance: float | None = param(None, doc="pass mark", check=POSITIVE)
    tolerance_kind: Literal["relative", "absolute", "steps"] = param("relative")
    note: str = param("", doc="how the value was obtained, caveats")
    step: float | None = param(
        None, unit="s", check=POSITIVE,
        doc="the time step the value holds for (a non-regression value); a run with another "
            "step shows the check for information, without a pass mark")

    def validate(self) -> None:
        if not self.source.strip():
            raise ValueError("source: empty; say where the value comes from")

    def holds_at(self, step: float | None) -> bool:
        """Whether the value holds for a run with this time step (s): always, unless the
        reference names another ``step``."""
        return self.step is None or step is None or math.isclose(step, self.step,
                                                                  rel_tol=1e-9)


@dataclass(kw_only=True)
class QuantitySpec:
    """A ``[[quantity]]``: a scalar extracted from a history column.

    ``op`` is one of: ``at`` (linear interpolation at ``time``), ``max``, ``min``,
    ``argmax``, ``argmin`` (instant of the extremum), ``integral`` (trapezoidal) over
    ``window`` (the whole run if omitted), ``step_integral`` (the exact integral over
    ``window`` of a column whose sample at the end of each step is that step's mean value,
    held over the step: an impulse over the step divided by the step, as the reactions of
    the theta-scheme's contact), ``step_impulse`` (the same over the whole steps the window
    touches: a window that ends inside a step takes all of its impulse, since a step's
    impulse is not placed within it; a percussion), ``final`` (last value), ``crossing`` (the
    first instant in
    ``window`` at which the column reaches ``level`` in ``direction``, interpolated
    linearly between the two samples around it; an impact instant, an uplift: better
    conditioned than the instant of a flat extremum).

    ``bounds`` says whether the samples on the window's ends belong to it: ``closed`` (they
    do, to round-off) or ``open`` (they do not: ``t0 < t < t1``, the strict filter of
    Code_Aster's test inputs, ``FILTRE`` with ``CRIT_COMP = 'GT'`` and ``'LT'``; an open
    ``integral`` is the trapezoid over the samples strictly inside).
    """

    name: str = param(doc="quantity name used by references")
    column: str = param(doc="history column, e.g. DY_NO1")
    op: Literal["at", "max", "min", "argmax", "argmin", "integral", "step_integral",
                "step_impulse", "final", "crossing"] = param()
    time: float | None = param(None, unit="s")
    level: float | None = param(None, check=FINITE,
                                doc="value whose crossing op 'crossing' finds (the column's unit)")
    direction: Literal["either", "up", "down"] | None = param(
        None, doc="op 'crossing': reaching the level from below (up), from above (down) or "
                  "either way (the default)")
    window: tuple[float, float] | None = param(None, unit="s")
    bounds: Literal["closed", "open"] = param(
        "closed", doc="whether samples on the window's ends count")

    def validate(self) -> None:
        if (self.op == "at") != (self.time is not None):
            raise ValueError("time: required with op 'at', and only with it "
                             f"(got op '{self.op}')")
        if (self.op == "crossing") != (self.level is not None):
            raise ValueError("level: required with op 'crossing', and only with it "
                             f"(got op '{self.op}')")
        if self.direction is not None and self.op != "crossing":
            raise ValueError(f"direction: only with op 'crossing' (got op '{self.op}')")
        if self.window is not None and self.window[1] <= self.window[0]:
            raise ValueError(f"window: end {self.window[1]} is not after start {self.window[0]}")
        if self.bounds == "open" and (self.window is None
                                      or self.op in ("at", "final", "step_integral",
                                                     "step_impulse")):
            raise ValueError(f"bounds: 'open' needs a window and op max, min, argmax, argmin "
                             f"or integral (got op '{self.op}'"
                             f"{'' if self.window else ' without a window'})")


#: Most time steps a run may take. Far above every shipped case and variant (6000 at most,
#: sdnv105d_shaking)
#: and above what a run can afford (a discrete run holds two floats per step, 1.6 GB here):
#: a mistyped step (1e-12 s) is refused at load instead of ending in a MemoryError.
MAX_STEPS = 10**8


def step_count_problem(step: float, n_steps: float, duration: float, span: str,
                       fits: Callable[[float], bool] | None = None) -> str | None:
    """Why a run of ``n_steps`` steps is refused, as the ``problem`` part of an error
    (``got ..., allowed: ...``) about ``step`` (s); None if it is not refused.

    Args:
        step: the step the error names (``time.step``, or a window's step).
        n_steps: steps of the whole run, as a float: a step of 1e-320 s makes inf.
        duration: time (s) that ``step`` covers: the smallest step allowed is the one that
            alone would take :data:`MAX_STEPS` steps over it.
        span: the run in words (``from time.start 0 to time.end 0.5 s``).
        fits: whether a step is accepted where ``step`` is given (at most MAX_STEPS steps
            over ``duration``; a uniform step also divides the run), when ``step`` makes all
            the steps: the smallest step is then offered in the fewest digits it accepts
            (over 2.0146 s, 2.0146e-08 s: 2.01e-08 at 3 digits makes 1.002e8 steps). None
            for a step that shares the run with others (a window's), whose smallest step
            leaves their steps out and is offered to 3 digits.

    """
    if n_steps <= MAX_STEPS:
        return None
    bound = duration / MAX_STEPS
    least = f"{bound:.3g}" if fits is None else _offered_text(bound, fits)
    return (f"got {step:g}, allowed: at most {MAX_STEPS:.0e} steps {span}, a step >= "
            f"{least} s or a shorter run (this one makes {n_steps:.3g} steps)")


#: Most history rows a run may record: the runners hold them in memory before writing
#: history.csv (about ten 8-byte columns: 0.8 GB here). The shipped cases record 3001 at
#: most; a discrete run's ``output.every`` thins a long run, a rigid run's ``time.step``
#: samples it. A rigid run's rows at its events (:func:`recorded_rows`) come on top.
MAX_ROWS = 10**7


def recorded_rows(n_steps: int, every: int = 1) -> int:
    """History rows of a run of ``n_steps`` steps that records the initial state and a row
    every ``every`` steps, and the state reached when the last step is not one of those
    (the discrete kernels' ``final`` row).

    A rigid block records a row at every step (``every`` = 1) and, besides, 2 at each
    impact (just before and just after it) and 1 at each apex of a flight: instants known
    once the run is done, not counted here (sdnv105_rigid to 0.5 s with steps of 5e-4 s
    records 1001 rows and 188 at its events).
    """
    return -(-n_steps // every) + 1


def _whole_steps(step: float, start: float, end: float) -> int | None:
    """How many uniform steps of ``step`` (s) from ``start`` land on ``end`` (s), to
    round-off (within 1e-9 of the run); None if none do."""
    span = end - start
    n = int(round(span / step))
    return n if abs(n * step - span) <= 1e-9 * span else None


#: most significant digits of the round step a refusal offers first (:func:`round_step`)
ROUND_DIGITS = 3
#: the least fraction of the step given that the round step offered may be
ROUND_FLOOR = 0.75


def round_step(step: float, start: float, end: float) -> float | None:
    """The step of fewest significant digits (at most :data:`ROUND_DIGITS`), then the
    largest, that divides the run from ``start`` to ``end`` (s) as :class:`TimeSpan`
    accepts, no longer than ``step`` (a longer one may pass a stability limit the step
    given kept) and no shorter than :data:`ROUND_FLOOR` times it: 2.5e-05 for 3e-5 over
    0.5 s, where the step that keeps the count of steps is 2.99994e-05; None if none is.
    Only under :data:`MAX_ROWS` steps, which no cap refuses (more steps than the step
    given makes might pass the cap a count kept passes)."""
    top = math.floor(math.log10(step))
    for digits in range(1, ROUND_DIGITS + 1):
        found = [candidate
                 for exponent in (top - digits + 1, top - digits)  # 3e-5: 2.5e-5; 1.2e-5: 9e-6
                 for mantissa in range(10 ** (digits - 1), 10 ** digits)
                 if ROUND_FLOOR * step <= (candidate := float(f"{mantissa}e{exponent}")) <= step
                 and (end - start) / candidate < MAX_ROWS
                 and _whole_steps(candidate, start, end) is not None]
        if found:
            return max(found)
    return None


def _offered_text(value: float, accepted: Callable[[float], bool]) -> str:
    """``value`` written as a message offers it: the shortest of its texts to 3, 9 and 12
    significant digits and in full (``repr``) whose number ``accepted`` takes, so that
    the value offered is accepted as typed (a bound of 1.2300001230000123e-08 s is
    1.23000012e-08 at 9 digits, a step that does not divide the run); else a float next
    to it that is (a bound computed by a division may miss its own check by round-off),
    else ``repr``."""
    texts = (f"{value:.3g}", f"{value:.9g}", f"{value:.12g}", repr(value),
             repr(math.nextafter(value, math.inf)), repr(math.nextafter(value, -math.inf)))
    return min((text for text in texts if accepted(float(text))), key=len,
               default=repr(value))


def _given_text(value: float) -> str:
    """A given ``value`` as a message names it: ``g`` (6 digits) when that reads back as
    it, else in full, so that a step of 1.23000012e-08 s is not said as 1.23e-08 next to
    the 1.230000123e-08 offered."""
    text = f"{value:g}"
    return text if float(text) == value else repr(value)


def row_count_problem(time: TimeSpan, every: int | None = None) -> tuple[str, str] | None:
    """Why a run that records a history row every ``every`` steps of ``time`` (and the
    first, and the last: :func:`recorded_rows`) is refused, as ``(key, problem)``: the key
    to name and the ``problem`` part of its error (``got ..., allowed: ...``); None if it
    records at most :data:`MAX_ROWS` such rows.

    Args:
        time: the run's ``[time]``.
        every: ``output.every`` of a kind that thins its rows (the discrete one), named
            then; None for a kind that records a row at every ``time.step`` and at its
            events (the rigid block: the events' rows are not counted), whose
            ``time.step`` is named.

    """
    n_steps = time.n_steps
    rows = recorded_rows(n_steps, every or 1)
    if rows <= MAX_ROWS:
        return None
    # the initial row leaves MAX_ROWS - 1 rows to the steps
    if every is not None:
        return "output.every", (
            f"got {every}, allowed: >= {-(-n_steps // (MAX_ROWS - 1))} for this run "
            f"({n_steps:.3g} steps of time.step {time.step:g} s to time.end {time.end:g} s: "
            f"{rows} history rows; at most {MAX_ROWS:.0e})")
    start, end = time.start, time.end

    def accepted(step: float) -> bool:
        n = _whole_steps(step, start, end)
        return n is not None and recorded_rows(n) <= MAX_ROWS

    least = _offered_text((end - start) / (MAX_ROWS - 1), accepted)
    return "time.step", (
        f"got {time.step:g}, allowed: >= {least} s for this run from time.start "
        f"{start:g} to time.end {end:g} s, or a shorter run (a history row at time.start "
        f"and after every time.step: {rows} rows, at most {MAX_ROWS:.0e}, besides 2 at "
        f"each impact and 1 at each apex of a flight)")


#: whether :class:`TimeSpan` refuses a step that does not divide its run: off inside
#: :func:`whole_steps_unchecked` only
_WHOLE_STEPS: ContextVar[bool] = ContextVar("_WHOLE_STEPS", default=True)


@contextmanager
def whole_steps_unchecked() -> Iterator[None]:
    """Load cases without refusing a step that does not divide the run: to find the
    other refusals of the values given (:func:`~rocking_contact.config.load_case` says
    those first, so that a step above a stability limit is not offered dividing steps
    above it)."""
    token = _WHOLE_STEPS.set(False)
    try:
        yield
    finally:
        _WHOLE_STEPS.reset(token)


def check_span(start: float, end: float) -> None:
    """Refuse a span (s) that does not end after it starts, as a :class:`Conflict` of its
    ``end`` and ``start`` (either may be the one given wrong)."""
    if end <= start:
        raise Conflict({"end": f"{end:g} is not after start {start:g}",
                        "start": f"{start:g} is not before end {end:g}"})


@dataclass(kw_only=True)
class TimeSpan:
    """The ``[time]`` table for uniform stepping (at most :data:`MAX_STEPS` steps)."""

    start: float = param(0.0, unit="s", check=FINITE)
    end: float = param(unit="s", check=FINITE)
    step: float = param(unit="s", check=POSITIVE)

    def validate(self) -> None:
        check_span(self.start, self.end)
        span = self.end - self.start
        if self.step > span:
            raise Conflict({
                "step": f"{self.step:g} is longer than the run {span:g}",
                "end": f"{self.end:g} leaves a run of {span:g} s after time.start "
                       f"{self.start:g}, shorter than time.step {self.step:g}",
                "start": f"{self.start:g} leaves a run of {span:g} s to time.end "
                         f"{self.end:g}, shorter than time.step {self.step:g}"})
        problem = step_count_problem(
            self.step, span / self.step, span,
            f"from time.start {self.start:g} to time.end {self.end:g} s",
            lambda step: (span / step <= MAX_STEPS
                          and _whole_steps(step, self.start, self.end) is not None))
        if problem:
            raise ValueError(f"step: {problem}")
        # Uniform steps land on the end only if the step divides the span; otherwise the
        # run ends a fraction of a step early or late (0.5001 s for a 3e-4 s step), unsaid.
        # Refused last (load_case has the case's other refusals of these values said
        # first, and keeps the values offered to those the whole case takes: reoffer).
        if _WHOLE_STEPS.get() and _whole_steps(self.step, self.start, self.end) is None:
            raise Conflict(self.misfit(lambda key, text: True), reoffer=self.misfit)

    def misfit(self, accepts: Callable[[str, str], bool]) -> dict[str, str]:
        """The refusal of a step that does not divide the run, from the side of ``step``
        and of ``end`` (a :class:`Conflict`'s problems), offering the values of each
        (as typed) that ``accepts(key, text)`` takes, ``key`` being ``step`` or ``end``.

        The steps offered are no longer than the one given (a longer one may pass a
        stability limit or sample a load too seldom where the step given does not): a
        round one (:func:`round_step`) and the longest that divides the run; the ends, the
        whole numbers of steps on either side of the end given, the nearest first.
        """
        start, end, span = self.start, self.end, self.end - self.start
        below = math.floor(span / self.step)  # whole steps that end before the end
        ends = {n: start + n * self.step for n in (below, below + 1)}
        # the longest step that divides the run, no longer than the one given
        steps = [(_offered_text(span / (below + 1),
                                lambda step: _whole_steps(step, start, end) == below + 1),
                  below + 1)]
        rounder = round_step(self.step, start, end)
        rounder_steps = None if rounder is None else _whole_steps(rounder, start, end)
        if rounder_steps is not None and rounder != float(steps[0][0]):
            steps.insert(0, (f"{rounder:g}", rounder_steps))
        # the count in as many digits as tell it from a whole one (9999999.02, not 1e+07)
        ratio = span / self.step
        count = next((text for text in (f"{ratio:.6g}", f"{ratio:.9g}", f"{ratio:.12g}")
                      if not float(text).is_integer()), repr(ratio))
        given_start, given_end, step = map(_given_text, (start, end, self.step))

        def reaches(n: int) -> Callable[[float], bool]:
            return lambda to: _whole_steps(self.step, start, to) == n

        fitted_ends = {n: _offered_text(to, reaches(n)) for n, to in ends.items()}
        nearest = sorted(ends, key=lambda n: abs(ends[n] - end))
        reached = (f"{below} steps of {step} s end at {fitted_ends[below]} s, "
                   f"{below + 1} at {fitted_ends[below + 1]} s")

        def such_as(values: list[tuple[str, int]], key: str) -> str:
            taken = [f"{text} ({n} steps)" for text, n in values if accepts(key, text)]
            return f", such as {' or '.join(taken)}" if taken else ""

        return {
            "step": f"{step} does not divide the run from time.start {given_start} to "
                    f"time.end {given_end} s ({count} steps: {reached}); allowed: a step "
                    f"that does{such_as(steps, 'step')}",
            "end": f"{given_end} is not a whole number of time.step {step} s after "
                   f"time.start {given_start} ({count} steps); allowed: an end that is"
                   f"{such_as([(fitted_ends[n], n) for n in nearest], 'end')}"}

    @property
    def n_steps(self) -> int:
        """Number of steps; the last one lands on ``end`` to round-off."""
        return int(round((self.end - self.start) / self.step))


class Span(Protocol):
    """What every kind's ``[time]`` table has (:class:`TimeSpan`, the block's own)."""

    #: release instant, s
    start: float
    #: last instant, s
    end: float
    #: time step (a block's outside its windows), s
    step: float


@dataclass(frozen=True)
class LoadInfo:
    """What loading knows of a case that no key of its file holds: where the case came
    from and how (a case built in code: :data:`NOT_LOADED`, every field None).

    :func:`~rocking_contact.config.load_case` notes ``source_file``, ``references_from``,
    ``loaded_as`` and ``overrides_given``; ``rc.load_case`` adds ``load_record``; the rigid
    twin of a block case (:func:`~rocking_contact.analytic.rigid_runner.rigid_twin`)
    ``base_case``, ``twin_of`` and its own ``load_record``. Frozen: a case's record is
    replaced whole (``dataclasses.replace``), never changed in place, so that a case and
    the copy ``rc.run`` checks may share one.
    """

    #: the case file the case was loaded from; the relative paths inside the case
    #: (records, meshes) start at its folder
    source_file: Path | None = None
    #: the file whose ``[[reference]]`` list the case uses: its own, or a parent's through
    #: ``extends``
    references_from: Path | None = None
    #: the case's values as loading gave them (:func:`~rocking_contact.config.as_dict`),
    #: with where each key was given (:data:`~rocking_contact.config.layers.Layer`): what
    #: differs from them was changed after loading
    #: (:func:`~rocking_contact.config.unread_after_loading`)
    loaded_as: tuple[dict[str, Any], Layer] | None = None
    #: what refusals call the overrides the case was loaded with (``--set``,
    #: ``overrides``); None when it was loaded without any
    overrides_given: str | None = None
    #: what ``rc.load_case`` noted of the loading, results.json's ``provenance.loaded``
    #: (:func:`rocking_contact.provenance.load_record`: the case as given, its file, the
    #: overrides, the files read with their SHA-256; a rigid twin's reruns with
    #: ``rigid``); None for a case loaded by ``config.load_case`` alone
    load_record: dict[str, Any] | None = None
    #: for a rigid twin (``twin_of`` set), the case its changes are taken against: the
    #: twin of the block's file as written (None for a block built in code or whose file
    #: is gone); not read for any other case, whose changes are taken against its own
    #: file (:func:`~rocking_contact.config.base_case`)
    base_case: CaseFile | None = None
    #: the name of the block case whose rigid twin the case is (``rocking-contact rigid``)
    twin_of: str | None = None


#: the record of a case built in code: loaded from no file
NOT_LOADED = LoadInfo()


@dataclass(kw_only=True)
class CaseFile:
    """What every case file has: ``[case]``, ``[[quantity]]`` and ``[[reference]]``.

    The schema of a kind derives from it and adds its own sections (a ``[time]`` with a
    ``step`` at least), and overrides the accessors of those that grading and the checks
    of a case file read whatever the kind (:meth:`step_windows`,
    :meth:`collision_windows`, :meth:`refines_steps`).
    """

    case: CaseInfo = param()
    quantity: list[QuantitySpec] = param(default_factory=list)
    reference: list[Reference] = param(default_factory=list)
    #: what loading knows of the case (:class:`LoadInfo`; :data:`NOT_LOADED` for one built
    #: in code), set as a whole by loading. Not annotated, so no dataclass field and no
    #: key: as_dict, build, keys, the stray-attribute check, results.json's parameters,
    #: compare's changes and the report, which walk the fields, never see it
    load_info = NOT_LOADED
    if TYPE_CHECKING:
        # every kind declares its own [time]; a field here would come before the kind's
        # sections in as_dict and in results.json's parameters
        time: Span

    @property
    def source_file(self) -> Path | None:
        """The case file the case was loaded from (``load_info.source_file``), where its
        relative paths start; None for a case built in code. Read-only: the case's record
        names the file it read (results.json's ``provenance.loaded``, with its SHA-256) and
        its changes are taken against that file's values; setting or deleting it says what
        to do instead (:meth:`_source_file_is_read_only`)."""
        return self.load_info.source_file

    @source_file.setter
    def source_file(self, _value: object) -> None:
        raise AttributeError(self._source_file_is_read_only())

    @source_file.deleter
    def source_file(self) -> None:
        raise AttributeError(self._source_file_is_read_only())

    def _source_file_is_read_only(self) -> str:
        """The one line that refuses setting :attr:`source_file`: where the case came
        from, and the two things a user who sets it may want (another file's case; a
        relative path read from elsewhere)."""
        source = self.load_info.source_file
        came = "was built in code" if source is None else f"was loaded from {source}"
        return (f"case.source_file is read-only: the case {came}; allowed: "
                "rc.load_case(<case file>) for another file's case; a path set in Python "
                "(a record's) is read from the current directory")

    def step_windows(self) -> Sequence[tuple[float, float]]:
        """``(start, end)`` of each ``[[time.window]]`` (s); none for a kind of uniform
        steps."""
        return ()

    def collision_windows(self) -> Sequence[tuple[float, float]] | None:
        """``collisions.windows``, ``(start, end)`` (s), the windows collision k is
        measured in; None for a kind without ``[collisions]`` (a rigid block's collisions
        are its impacts)."""
        return None

    def refines_steps(self) -> bool:
        """Whether ``time.refine`` takes small steps where a contact closes or opens (a
        block's automatic refinement); False for a kind without it."""
        return False
