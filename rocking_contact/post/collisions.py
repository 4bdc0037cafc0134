"""Collisions of a rocking run: instants, kinetic-energy peaks, and their rigid references.

Definitions (Code_Aster's SDNV105 tests, restated in the case files):

- a *landing* is an instant where the base chord's rotation ``THETA`` changes sign (the
  block passes through flat: the lifted corner comes down, the pivot changes corner)
  after a swing in which ``|THETA|`` exceeded :func:`lift_angle`, the base rotation a
  block gets from more than its elastic deformation (:func:`find_landings`). On compliant
  supports (shock springs) the block may also land without THETA changing sign: the
  pivot's spring sinks under the weight, and another support stops the fall while the
  base is still turned (a *catch*: an impact during which a second support takes the
  base, held by one alone while turned past that angle, :func:`_catches`). A landing's
  *span* runs from the lowest kinetic energy since the previous landing (the top of the
  swing) to the first kinetic-energy minimum after it (the impact's drop);
- with ``[collisions] windows = []`` (the default: a case that gives none), collision
  ``k`` is the kinetic-energy peak the ``k``-th landing ends: the maximum of its span
  from the minimum before that peak (a shaken block's swing may hold a larger maximum
  before it), found from the history without any window placed by hand (``impact`` is
  ``k``);
- with windows given, collision ``k`` is the instant of the block's kinetic-energy
  maximum in the window ``k`` (SDNV105, Code_Aster's: [0, 0.33], [0.10, 0.33],
  [0.15, 0.33], [0.22, 0.33], [0.28, 0.33] s): the energy peaks just before each impact
  and decreases from one impact to the next, so the largest value after the previous
  impact is the next peak. Its ``impact`` is the number of the landing whose span holds
  it (a window may hold a later one than its number), or, in a history without THETA,
  of the kinetic-energy peak it is among the run's (:func:`impact_instants`). A landing
  outside every window is warned of (:func:`annotate`).
  Windows are placed at the impacts of one block: a run that changes the physics of the
  case file that gives them, and gives none of its own, takes one collision at each
  landing instead, and says so (:func:`windows_set_aside`);
- ``kinetic_energy`` is that maximum (J). A maximum sitting on a window's or span's bound
  is not a peak (the window does not hold the impact, or the run ends inside it), one
  found again in the next window is the previous collision, one below
  :data:`REST_FRACTION` of the run's largest kinetic energy is the round-off of a block at
  rest, one in no landing's span is no impact (a block that never lifted: the elastic
  ringing of a block shaken below its uplift), and without windows one below the least
  energy of the motion (:func:`~rocking_contact.post.energy.motion_floor`, the fall from
  the lift angle) is no landing's (a support's compliance turning the base): all are
  flagged ``interior = False``;
- the *uplift* of a block that stands flat at the release (``|THETA|`` within
  :func:`lift_angle`) is the first instant its base is held by one corner alone (history
  column ``CONTACTS`` at 1 or less, the last time it got there before ``|THETA|`` passes
  that angle, none if the base is never so held while turned past it; the instant
  ``|THETA|`` passes the angle without ``CONTACTS``): ``extra.events``, as the rigid
  block's (``{"kind": "uplift", "time", "corner": the pivot, "note"}``), and the quantity
  ``uplift.1.time`` (:func:`find_uplift`). A block released tilted rocks from the start;
- reactions, their extrema and percussions (integrals of ``RN``/``RX`` over a window) are
  ordinary ``[[quantity]]`` entries on the history columns ``RN_<P>``, ``RX_<P>``.

With ``[collisions] rigid = true`` the collisions are also compared with every level of
the rigid-block solution (:func:`rocking_contact.analytic.rigid_levels.reference_collisions`),
the rigid block released at the angle the preload gives
(:func:`rocking_contact.block.release_angle`: 0.0100002 rad for SDNV105 A, 0.0099889 rad
for B), each collision with the rigid impact of its number among the run's impacts (its
``impact``: its landing's number): quantities ``rigid.<level>.collision.<k>.{impact, time,
kinetic_energy, time_error, energy_error}`` and the table ``extra.rigid_comparison``, whose
row of a collision that a level has no impact for (the run ends between the block's
landing and the rigid block's impact) says why (``unmatched``), as do ``run``'s table and
a reference to it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from rocking_contact.config import (
    Origins,
    as_dict,
    holds_the_run,
    kept_from_other_physics,
    loaded_as,
    param,
    read_case_data,
    source_file,
)
from rocking_contact.post.energy import motion_floor
from rocking_contact.post.peaks import bases, peaks
from rocking_contact.post.references import in_window
from rocking_contact.results import RunResult

Window = tuple[float, float]

#: a window's maximum below this fraction of the run's largest kinetic energy is no peak
REST_FRACTION = 1e-9

#: a swing lifts the block when its base turns by more than this many times its elastic
#: scale (:func:`lift_angle`): a block standing on a table shaken at 3 m/s^2, below its
#: uplift, turns by 2.6e-7 rad, a quarter of its scale; SDNV105's smallest swing before
#: 0.33 s, 5e-4 rad, is 1e4 times its scale
LIFT_FACTOR = 10.0

#: a collision whose kinetic energy rose by more than this fraction of it over the last
#: step before it is resolved coarsely (:func:`coarse_collisions`): the energy rises
#: fastest just before an impact, by ~ M g b omega dt in a step, so the sampled maximum
#: may miss the peak by that much and its instant by a step. The shipped SDNV105 runs rise
#: by 0.04 to 1.2 % (D, 1e-4 s steps), its 5e-4 s variant by 1.9 to 6.1 %; U1's block at
#: 0.02 s steps by 56 and 83 %, its first collision 13 % early and 25 % low in energy
COARSE_RISE = 0.1

#: the fields of a collision's quantities ``collision.<k>.<field>``
COLLISION_FIELDS = ("time", "kinetic_energy")

@dataclass(kw_only=True)
class CollisionSpec:
    """``[collisions]``: how the collisions of a run are measured."""

    windows: list[Window] = param(
        default_factory=list, unit="s",
        doc="collision k = largest kinetic energy of the block in window k; [] (the "
            "default): one collision at each landing found in the history (THETA changes "
            "sign after a lift, or a second support takes the lifted base in an impact), "
            "the largest kinetic energy around it")
    column: str = param("EKIN_BLOCK", doc="history column of the kinetic energy")
    rigid: bool = param(False, doc="compare the collisions with the rigid-block levels")

    def validate(self) -> None:
        for i, (a, b) in enumerate(self.windows):
            if b <= a:
                raise ValueError(f"windows[{i}]: end {b:g} is not after start {a:g}")


#: the key of the collision windows, as :mod:`rocking_contact.config.changes` names keys
WINDOWS_KEY = ("collisions", "windows")


def windows_set_aside(case: Any) -> dict[str, Any] | None:
    """The collision windows a run does not measure in, because a case file placed them at
    the impacts of its block and the run changes that block's physics, as
    ``{"windows": [[t0, t1], ...] (s), "file": the file that gives them, "changes": the
    physics keys the run changes from it}``; None when the run keeps its windows. A run
    that gives windows of its own (``--set``, its own case file, an attribute set in
    code), one whose changes are numerics only (``time.step``, ``mesh``, ``solver``,
    ``output``: no :func:`~rocking_contact.config.physics_changes`), one window over the
    whole run (placed at no impact) and a case built in code keep theirs. These are the
    windows placed for another physics (:mod:`rocking_contact.config.changes`'s
    :func:`~rocking_contact.config.changes.kept_from_other_physics`, as its
    :func:`~rocking_contact.config.placed_for_other_physics` takes the short-step
    windows): SDNV105 D's five, placed at its 0.0544, 0.1351, ... s impacts, would take
    impact 1 then impact 3 for ``preload.tilt = 0.005`` (its landings 0.0383, 0.0953,
    0.1377 s). Such a run takes one collision at each landing (:func:`annotate`)."""
    source = source_file(case)
    if source is None or not Path(source).is_file():
        return None
    if (loaded := loaded_as(case)) is not None and loaded[1](".".join(WINDOWS_KEY)) == 0:
        return None  # given by --set: the run's own, even where they equal the file's
    origins: Origins = {}
    read_case_data(Path(source), origins=origins)
    # (config.changes's notion of windows placed for another physics, not a second one)
    kept = kept_from_other_physics(case, as_dict(case), origins, [WINDOWS_KEY])
    if not kept or holds_the_run(case, kept[0][1]):
        return None
    _, windows, holder, changed = kept[0]
    return {"windows": [[float(a), float(b)] for a, b in windows], "file": str(holder),
            "changes": list(changed)}


def set_aside_line(aside: Mapping[str, Any]) -> str:
    """The warning of a run whose collision windows :func:`windows_set_aside` set aside:
    which, whose, why, what the run measured instead and how to keep windows."""
    spans = " ".join(f"[{a:g}, {b:g}]" for a, b in aside["windows"])
    return (f"collisions.windows: the {len(aside['windows'])} collision windows {spans} s "
            f"of {aside['file']} were placed at the impacts of its block, and this run "
            f"changes {', '.join(aside['changes'])}: its collisions are taken at each "
            f"landing instead, as with collisions.windows = []; to measure them in windows, "
            f"give the run its own (collisions.windows = [[t0, t1], ...], by --set or in "
            f"its case file)")


def lift_angle(case: Any) -> float:
    """|THETA| (rad) a swing must exceed for its end to be a landing: :data:`LIFT_FACTOR`
    times the base rotation an elastic block gets from its weight, ``rho g (2l)^2 / (E 2b)``
    (the strain ``rho g 2l / E`` at its base over its aspect: 1.1e-6 rad for a 0.25 x 0.6 m
    concrete block, whose lift angle is 1.1e-5 rad; 4.2e-8 rad for SDNV105's, 4.2e-7 rad).
    0 without gravity, where nothing rocks: any sign change of THETA is then a landing."""
    geometry, block = case.geometry, case.material.block
    height = 2 * geometry.half_height
    return float(LIFT_FACTOR * block.density * case.loading.gravity * height ** 2
                 / (block.young * 2 * geometry.half_width))


def find_landings(history: Mapping[str, np.ndarray], lift: float,
                  column: str = "EKIN_BLOCK", least: float = 0.0) -> list[dict[str, Any]]:
    """The landings of a run (see the module doc), in order: the sign changes of THETA
    after a lift, and the catches of a block on compliant supports (:func:`_catches`).

    Args:
        history: the run's history (``time``, ``THETA`` and ``column``; ``CONTACTS`` for
            the catches).
        lift: |THETA| (rad) a swing must exceed (:func:`lift_angle`).
        column: the kinetic-energy column the spans are read on.
        least: the kinetic energy (J) a catch's impact must exceed (the least energy of
            the motion, :func:`~rocking_contact.post.energy.motion_floor`); a sign change
            needs none.

    Returns:
        One ``{"time", "index", "span"}`` per landing: the instant THETA crosses zero
        (s, linear between samples), the first sample after it, and the span's first and
        last samples; a catch's ``time`` and ``index`` are the first sample where the
        second support holds the base, and it has ``caught`` True. None (an empty list)
        without THETA or the kinetic energy in the history.

    """
    t = np.asarray(history.get("time", []))
    if "THETA" not in history or column not in history or len(t) < 2:
        return []
    theta, energy = np.asarray(history["THETA"]), np.asarray(history[column])
    sign = np.sign(theta)
    crossings = np.flatnonzero(sign[:-1] * sign[1:] < 0)
    found: list[dict[str, Any]] = []
    since = 0
    for i in map(int, crossings):
        # a sign change ends a lift only when the swing before it (since the previous
        # sign change: the elastic ringing of a block standing flat changes sign too)
        # turned the base beyond the elastic scale
        if np.max(np.abs(theta[since:i + 1])) > lift:
            instant = float(t[i] - theta[i] * (t[i + 1] - t[i]) / (theta[i + 1] - theta[i]))
            found.append({"time": instant, "index": i + 1})
        since = i + 1
    _spans(energy, found)
    if "CONTACTS" in history:
        caught = _catches(history, energy, lift, least, found)
        if caught:
            found = sorted(found + caught, key=lambda landing: landing["index"])
            _spans(energy, found)
    return found


def _spans(energy: np.ndarray, found: list[dict[str, Any]]) -> None:
    """Set each landing's ``span`` (its first and last samples, see the module doc)."""
    previous = 0
    for k, landing in enumerate(found):
        after = found[k + 1]["index"] if k + 1 < len(found) else len(energy) - 1
        j = landing["index"]
        left = previous + int(np.argmin(energy[previous:j + 1]))
        right = j
        while right < after and energy[right + 1] >= energy[right]:  # to the impact's peak
            right += 1
        while right < after and energy[right + 1] < energy[right]:  # down its drop
            right += 1
        landing["span"] = (left, right)
        previous = j


def _rise_start(energy: np.ndarray, index: int, left: int) -> int:
    """The minimum before the kinetic-energy peak a landing at ``index`` ends: back up to
    the peak if it came before the landing, then down the rise into it, not before
    ``left`` (the landing's span: the span's lowest energy may lie far before it, and
    between them a larger maximum that is no impact: SDNV105 B's springs shaken below its
    uplift, 0.0658 s for a landing at 0.2503 s)."""
    start = index
    while start > left and energy[start - 1] >= energy[start]:  # up to the peak
        start -= 1
    while start > left and energy[start - 1] < energy[start]:  # down the rise
        start -= 1
    return start


def _catches(history: Mapping[str, np.ndarray], energy: np.ndarray, lift: float,
             least: float, landings: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The landings of a block on compliant supports that THETA does not show: an impact
    (:func:`_impact_peaks`, above ``least`` J) during whose rise or drop a second
    support takes the base (``CONTACTS`` from 1 or less to 2 or more), after the base was
    held by one support alone while turned past ``lift`` (rad), and that no sign change
    of THETA among ``landings`` ends. Its springs' sink under the weight lowers the pivot,
    so that another support may stop the fall before the corner comes down to it: SDNV105
    B on 3e7 N/m springs (sink 0.14 mm at O) falls onto O1 at 0.0523 s, 6.73 J, with THETA
    still 7.4e-4 rad, and never turns past flat. ``[{"time", "index", "caught": True}]``:
    the first sample the second support holds."""
    t, theta = np.asarray(history["time"]), np.asarray(history["THETA"])
    contacts = np.asarray(history["CONTACTS"])
    closes = np.flatnonzero((contacts[:-1] <= 1) & (contacts[1:] >= 2)) + 1
    if not len(closes):
        return []
    floor = max(REST_FRACTION * float(np.max(energy, initial=0.0)), least)
    claimed = [(_rise_start(energy, landing["index"], landing["span"][0]),
                landing["span"][1]) for landing in landings]
    lifted = (contacts <= 1) & (np.abs(theta) > lift)
    found: list[dict[str, Any]] = []
    previous = 0
    for p in _impact_peaks(energy, floor):
        if any(lo <= p <= hi for lo, hi in claimed):
            continue
        # the peak's own rise and drop, not its prominence's bases, which reach the
        # run's start and end for the largest impact
        lo, hi = _rise_start(energy, p, 0), p
        while hi < len(energy) - 1 and energy[hi + 1] < energy[hi]:
            hi += 1
        during = closes[(closes > lo) & (closes <= hi)]
        if not len(during):
            continue
        j = int(during[0])
        # lifted since the landing before it: a swing of its own
        since = max([previous, *(landing["index"] for landing in landings
                                 if landing["index"] < j)])
        if j <= previous or not np.any(lifted[since:j]):
            continue
        found.append({"time": float(t[j]), "index": j, "caught": True})
        previous = j
    return found


def find_uplift(history: Mapping[str, np.ndarray], lift: float) -> dict[str, Any] | None:
    """The uplift of a block standing flat at the release (see the module doc), as the
    rigid runner's events: ``{"kind": "uplift", "time" (s), "corner" (the pivot: O when
    THETA > 0, A higher), "note"}``; None for a block released tilted, one that never
    lifts, a block without gravity (``lift`` 0), or a history without THETA. U1's block on
    a table shaken at 6 m/s^2: its base stands on O alone from 0.0597 s (the rigid block
    lifts at 0.05964 s), and turns past :func:`lift_angle` (1.1e-5 rad) at 0.0678 s."""
    t = np.asarray(history.get("time", []))
    # without gravity no weight holds the base down, so there is no uplift to find: the
    # base is held by no node and its THETA is the solver's round-off, which passed a lift
    # of 0 at the first step (sdnv105d_shaking with loading.gravity = 0: 'uplift at t = 0 s')
    if "THETA" not in history or not len(t) or lift <= 0.0:
        return None
    theta = np.asarray(history["THETA"])
    above = np.flatnonzero(np.abs(theta) > lift)
    if not len(above) or above[0] == 0:
        return None
    i = lifted = int(above[0])
    if "CONTACTS" in history:
        contacts = np.asarray(history["CONTACTS"])
        # a base still held by several supports where THETA passes the lift angle is
        # turned by their compliance, not lifted (SDNV105 B's three springs shaken below
        # its uplift: 'uplift at 0.00875 s' with all three pressed): it lifts where one
        # alone holds it, if it ever does while so turned
        held = np.flatnonzero((contacts[lifted:] <= 1) & (np.abs(theta[lifted:]) > lift))
        if not len(held):
            return None
        i = lifted = lifted + int(held[0])
        # the contact opens from the lifting corner toward the pivot as the block's base
        # unloads: it is up once the pivot corner alone holds it
        alone = contacts[:lifted + 1] <= 1
        while i > 0 and alone[i - 1]:
            i -= 1
    pivot, corner = ("O", "A") if theta[lifted] > 0 else ("A", "O")
    return {"kind": "uplift", "time": float(t[i]), "corner": pivot,
            "note": f"corner {corner} lifts"}


def find_collisions(history: Mapping[str, np.ndarray], windows: list[Window],
                    column: str = "EKIN_BLOCK", lift: float = 0.0,
                    least: float = 0.0) -> list[dict[str, Any]]:
    """The collisions of a run (see the module doc): collision ``k`` the maximum of
    ``column`` in window ``k``, or around landing ``k`` without ``windows``.

    Args:
        lift: |THETA| (rad) a swing must exceed to end in a landing (:func:`lift_angle`);
            with windows and a history without THETA, every window's maximum may be one.
        least: without windows, the kinetic energy (J) a landing's maximum must exceed to
            be an impact: the least energy of the motion, the fall from the lift angle
            (:func:`~rocking_contact.post.energy.motion_floor`); with or without, the
            energy a catch's impact must exceed (:func:`find_landings`).

    Returns:
        One ``{"index", "time", "kinetic_energy", "interior", "impact"}`` per window that
        holds samples, or per landing (and its ``landing``, the instant THETA crosses
        zero, or a catch's first sample on two supports, s; a catch's also ``caught``
        True), in order; ``impact`` is the how-many-th of the run's impacts the maximum
        is: the number of the landing whose span holds it (:func:`find_landings`), or
        without THETA of the kinetic-energy peak it is (:func:`impact_instants`); None if
        it is none of them.

    """
    t = np.asarray(history.get("time", []))
    if column not in history or not len(t):
        return []
    energy = np.asarray(history[column])
    # Below this the block is at rest and its kinetic energy is round-off (1e-21 J after a
    # frictionless block has slid to rest): a maximum there is no impact.
    floor = REST_FRACTION * float(np.max(energy, initial=0.0))
    landings = find_landings(history, lift, column, least)
    out: list[dict[str, Any]] = []
    if not windows:
        # a block that falls from beyond the lift angle lands with at least the energy of
        # that fall: a sign change of THETA with less is no impact, but a support's own
        # compliance turning the base (SDNV105 B's shock springs, shaken below its uplift:
        # 1.1e-7 J, against 3.1e-4 J for a fall from the lift angle)
        floor = max(floor, least)
        for k, landing in enumerate(landings, start=1):
            left, right = landing["span"]
            # the peak the landing ends, from the minimum before that peak
            start = _rise_start(energy, landing["index"], left)
            i = start + int(np.argmax(energy[start:right + 1]))
            out.append({"index": k, "time": float(t[i]), "kinetic_energy": float(energy[i]),
                        "interior": bool(start < i < right) and float(energy[i]) > floor,
                        "impact": k, "landing": landing["time"]})
            if landing.get("caught"):
                out[-1]["caught"] = True
        return out
    # Which of the run's impacts a window's maximum is: the landing whose span holds it,
    # as without windows. Counting the kinetic-energy peaks instead would count the
    # ringing of a block released tilted (a 0.3 x 1.2 m granite block: peaks of 0.03-0.13 J
    # within 4 ms of the release, before a 27 J landing at 0.1218 s, would make its first
    # landing the rigid block's fourth impact). Only a history without THETA (no O or A
    # recorded) has no landings: there every peak of the kinetic energy is one.
    number = (_landing_numbers(landings, len(t)) if "THETA" in history
              else _peak_numbers(t, energy, floor))
    for k, (a, b) in enumerate(windows, start=1):
        inside = np.flatnonzero(in_window(t, (a, b)))
        if not len(inside):
            continue
        i = inside[int(np.argmax(energy[inside]))]
        # A maximum already found for the previous window is that collision again: the
        # windows do not separate the impacts (e.g. a run whose impacts come late).
        repeated = bool(out) and out[-1]["time"] == float(t[i])
        # a maximum on a window's bound (the run ends in the rise) or the round-off of a
        # block at rest is no impact's peak, whatever landing's span it lies in
        peak = bool(inside[0] < i < inside[-1]) and float(energy[i]) > floor
        impact = (int(number[i]) or None) if peak else None
        out.append({"index": k, "time": float(t[i]), "kinetic_energy": float(energy[i]),
                    "interior": peak and not repeated
                    and ("THETA" not in history or impact is not None),
                    "impact": impact})
    return out


def _landing_numbers(landings: list[dict[str, Any]], count: int) -> np.ndarray:
    """Per sample of a history of ``count`` rows, the number (from 1) of the first landing
    whose span holds it, 0 for a sample in none."""
    number = np.zeros(count, dtype=int)
    for k in range(len(landings), 0, -1):  # the first landing's number where spans touch
        lo, hi = landings[k - 1]["span"]
        number[lo:hi + 1] = k
    return number


def _peak_numbers(t: np.ndarray, energy: np.ndarray, floor: float) -> np.ndarray:
    """Per sample, the number (from 1) of the impact whose kinetic-energy peak it is
    (:func:`impact_instants`), 0 for a sample that is none."""
    number = np.zeros(len(t), dtype=int)
    peaks_at = _impact_peaks(energy, floor)
    number[peaks_at] = np.arange(1, len(peaks_at) + 1)
    return number


def landings_outside(history: Mapping[str, np.ndarray], windows: Sequence[Window],
                     lift: float, column: str = "EKIN_BLOCK",
                     least: float = 0.0) -> str | None:
    """The warning for the landings of a run that no window of ``windows`` holds, None if
    every one is in some window (or no window is given: each landing is a collision);
    ``least`` (J) as for :func:`find_landings`."""
    if not windows:
        return None
    outside = [landing for landing in find_landings(history, lift, column, least)
               if not any(a <= landing["time"] <= b for a, b in windows)]
    if not outside:
        return None
    many = len(outside) > 1
    instants = ", ".join(f"{landing['time']:.6g}" for landing in outside)
    spans = ", ".join(f"[{a:g}, {b:g}]" for a, b in windows)
    caught = (", or a second support takes the lifted base"
              if any(landing.get("caught") for landing in outside) else "")
    return (f"the block lands (THETA changes sign after a lift{caught}) at t = {instants} s, "
            f"outside every collision window ({spans} s): no collision is measured "
            f"{'there' if many else 'at it'}; give {'them windows' if many else 'it a window'}"
            f" in collisions.windows, or collisions.windows = [] to take one collision at "
            f"each landing")


def impact_instants(t: np.ndarray, energy: np.ndarray, floor: float = 0.0) -> np.ndarray:
    """Instants of the run's impacts (s): the kinetic-energy peaks that stand out by a
    quarter of their height on both sides (:func:`_impact_peaks`)."""
    return np.asarray(t[_impact_peaks(energy, floor)])


def _impact_peaks(energy: np.ndarray, floor: float = 0.0) -> np.ndarray:
    """Indices of the impacts' kinetic-energy peaks, above ``floor`` (J): the peaks that
    stand out by a quarter of their height on both sides. A rocking block's energy falls
    to about zero at the top of each swing and drops at each impact by a third or more
    (35 % at SDNV105 A's first, the most elastic); the ringing of an elastic block after
    an impact makes wiggles of 6 % at most (B). A run that ends before the energy has
    fallen to its next minimum has only part of the fall on the right (the impact's drop,
    11 % for a block of aspect ratio 5): there the rise on the left alone decides."""
    top = peaks(energy)
    left_base, right_base = bases(energy, top)
    height = energy[top]
    left = height - energy[left_base]
    right = height - energy[right_base]
    unfinished = right_base == len(energy) - 1
    keep = ((left >= 0.25 * height) & ((right >= 0.25 * height) | unfinished)
            & (height > floor))
    return np.asarray(top[keep])


def interior[Entry: Mapping[str, Any]](collisions: Iterable[Entry]) -> list[Entry]:
    """The entries of a ``collisions`` list that are collisions: those ``interior`` to their
    window. The others stay in results.json with the flag (the window's maximum and why it
    is none: on a bound where the run ended or started, the previous collision again, a
    block at rest), but checks, plots and the report leave them out; a failed run's last
    instant is no collision. Entries without the flag (the rigid block's, whose
    collisions are its impacts) are collisions."""
    return [c for c in collisions if c.get("interior", True)]


def collision_quantities(collisions: list[dict[str, Any]]) -> dict[str, float]:
    """``collision.<k>.time`` (s) and ``collision.<k>.kinetic_energy`` (J) of the interior
    collisions: a maximum on a window bound is no collision (a run that ends before the
    impact, a window that re-finds the previous one), and its checks say "not computed"
    rather than grade the wrong instant."""
    return {f"collision.{c['index']}.{field}": c[field]
            for c in interior(collisions) for field in COLLISION_FIELDS}


def coarse_collisions(history: Mapping[str, np.ndarray], collisions: list[dict[str, Any]],
                      column: str = "EKIN_BLOCK") -> str | None:
    """The warning for the collisions whose kinetic energy rose by more than
    :data:`COARSE_RISE` of it over the last step before its maximum, None if none did.
    Only rows that are steps are read (their spacing the step ``DT`` they record: a
    history thinned by ``output.every`` spaces its rows by several steps)."""
    t = np.asarray(history.get("time", []))
    if column not in history or "DT" not in history:
        return None
    energy, steps = np.asarray(history[column]), np.asarray(history["DT"])
    coarse: dict[int, tuple[float, float]] = {}
    for c in interior(collisions):
        i = int(np.argmin(np.abs(t - c["time"])))  # its row (a history read back rounds)
        if i == 0 or energy[i] <= 0.0:
            continue
        if not math.isclose(t[i] - t[i - 1], steps[i], rel_tol=1e-6):
            continue
        rise = (energy[i] - energy[i - 1]) / energy[i]
        if rise > COARSE_RISE:
            coarse[int(c["index"])] = (rise, float(steps[i]))
    if not coarse:
        return None
    many = len(coarse) > 1
    worst = max(rise for rise, _ in coarse.values())
    largest = max(step for _, step in coarse.values())
    return (f"collision{'s' if many else ''} {', '.join(map(str, coarse))}: the kinetic "
            f"energy rose by {'up to ' if many else ''}{100 * worst:.3g} % of "
            f"{'their' if many else 'its'} maximum in the last step before "
            f"{'them' if many else 'it'} (steps of {largest:.3g} s): the step is coarse for "
            + ("the impacts, whose instants are known to a step and energies"
               if many else "the impact, whose instant is known to a step and energy")
            + " to that rise; use a "
            f"smaller time.step (the rise is about proportional to it: under "
            f"{100 * COARSE_RISE:g} % from about {largest * COARSE_RISE / worst:.2g} s)")


def annotate(case: Any, result: RunResult) -> None:
    """Add the collisions (and their rigid comparison) to a block run's result: in the
    case's windows, or at its landings where it has none or sets them aside
    (:func:`windows_set_aside`: ``extra.windows_set_aside`` and a warning).

    Args:
        case: the block case (``collisions``, and for the rigid levels ``geometry``,
            ``material``, ``loading``, ``preload``, ``time``).
        result: the run's result, completed or partial; changed in place.

    """
    spec: CollisionSpec = case.collisions
    lift, least = lift_angle(case), motion_floor(case)
    aside = windows_set_aside(case)
    if aside is not None:
        result.extra["windows_set_aside"] = aside
        result.warnings.append(set_aside_line(aside))
    windows = [] if aside is not None else spec.windows
    result.collisions = find_collisions(result.history, windows, spec.column, lift, least)
    result.quantities.update(collision_quantities(result.collisions))
    outside = landings_outside(result.history, windows, lift, spec.column, least)
    if outside is not None:
        result.warnings.append(outside)
    coarse = coarse_collisions(result.history, result.collisions, spec.column)
    if coarse is not None:
        result.warnings.append(coarse)
    uplift = find_uplift(result.history, lift)
    if uplift is not None:
        result.extra["events"] = [uplift]
        result.quantities["uplift.1.time"] = uplift["time"]
    if spec.rigid and not interior(result.collisions):
        result.extra["rigid_first_impact"] = rigid_first_impact(case)
    if spec.rigid and interior(result.collisions):
        compare_with_rigid(case, result, len(windows))


def compare_with_rigid(case: Any, result: RunResult, windows: int) -> None:
    """Compare the collisions of ``result`` (some interior) with every level of the rigid
    block released where the preload puts the elastic one (the pull of C1 that
    ``preload.tilt`` sets turns it by asin(tilt) about O, pivot O1; less with O):
    ``extra.rigid_comparison`` and the quantities ``rigid.<level>.collision.<k>.*``, with
    a warning when the rigid block needs more friction than the contact has, or leaves
    the table. ``windows``: how many collision windows the run measured in (0: at its
    landings)."""
    from rocking_contact.analytic.rigid_levels import (
        compare_collisions,
        friction_needed,
        reference_motions,
    )

    # the rigid impacts up to the last one a collision is matched with (a window may
    # hold a later impact than its number: SDNV105's windows under heavier gravity)
    compared = interior(result.collisions)
    count = max([windows, *(c["impact"] for c in compared if c["impact"])])
    references, motions = reference_motions(case, count=count, release=case.time.start,
                                            tilt=case.release_angle)
    rows, quantities = compare_collisions(compared, references, release=case.time.start)
    result.extra["rigid_comparison"] = _with_unmatched(
        compared, rows, references, motions, case.time.end)
    result.quantities.update(quantities)
    mu = case.contact.sliding_friction()
    needed = friction_needed(motions["nonlinear"].history)
    if mu is not None and needed > mu:
        result.warnings.append(
            f"the rigid block the collisions are compared with needs |RX|/RN up to "
            f"{needed:.4g} to rock without sliding, and the contact's Coulomb "
            f"coefficient is {mu:g}: this block slides, the rigid comparison does not "
            f"describe it")
    rigid = motions["nonlinear"]
    if rigid.outcome == "jumped":  # it ends there: fewer impacts to compare with
        left = next((e for e in rigid.events if e.kind == "jump"), None)
        when = f" at t = {left.time:.6g} s" if left is not None else ""
        result.warnings.append(
            f"the rigid block the collisions are compared with leaves the table{when} "
            f"(its pivot's normal force falls to 0; the rigid model has no free flight "
            f"to follow): the comparison stops there")


#: what ends an integrated rigid level's motion before the run's end: its outcome, the
#: kind of its event, and the words for it
_MOTION_ENDS = {"jumped": ("jump", "leaves the table"), "rest": ("rest", "comes to rest"),
                "overturned": ("overturn", "overturns")}


def _with_unmatched(collisions: list[dict[str, Any]], rows: list[dict[str, Any]],
                    references: Mapping[str, Any], motions: Mapping[str, Any],
                    end: float) -> list[dict[str, Any]]:
    """The rows of ``extra.rigid_comparison``, one per collision, each with ``unmatched``
    where some rigid level has no impact to compare it with: level -> why, in words (a
    collision that is none of the run's impacts gets a row without levels). ``references``
    and ``motions`` as :func:`~rocking_contact.analytic.rigid_levels.reference_motions`
    returns them, up to ``end`` (s)."""
    by_index = {row["index"]: row for row in rows}
    out = []
    for c in collisions:
        row = by_index.get(c["index"]) or {"index": c["index"], "time": c["time"],
                                           "kinetic_energy": c["kinetic_energy"],
                                           "levels": {}}
        why = {level: _unmatched_reason(c["impact"], level, sequence.impacts,
                                        motions.get(level), end)
               for level, sequence in references.items() if level not in row["levels"]}
        out.append({**row, "unmatched": why} if why else row)
    return out


def _unmatched_reason(number: int | None, level: str, impacts: Sequence[Any],
                      motion: Any, end: float) -> str:
    """Why the rigid ``level``, whose ``impacts`` (up to ``end``, s) its ``motion`` found
    (None for a closed form), has no impact to compare a collision with: it is none of the
    run's impacts (``number`` None), or the level has fewer than ``number``."""
    if number is None:
        return ("its maximum is none of the run's impacts (no kinetic-energy peak standing "
                "out by a quarter of its height; the history has no THETA to find the "
                "landings by)")
    ended = ((motion.outcome, [(e.kind, e.time) for e in motion.events])
             if motion is not None else (None, []))
    return (f"it is the run's impact {number}, and "
            f"{level_impacts_text(level, len(impacts), end, *ended)}")


def level_impacts_text(level: str, impacts: int, end: float, outcome: str | None = None,
                       events: Iterable[tuple[str, float]] = ()) -> str:
    """``the nonlinear rigid block has 2 impacts up to t = 0.15 s`` (``, where it comes to
    rest at t = 0.1 s`` when its ``outcome`` ends its motion before ``end``, s; ``events``
    its (kind, instant in s) pairs, the instant said from them): why a rigid level has
    no impact k, where a table shows it as a dash (a block run's comparison, and the
    ``rigid`` command's table of the levels)."""
    had = f"{impacts} impact{'' if impacts == 1 else 's'}" if impacts else "none"
    ends = ""
    if outcome in _MOTION_ENDS:
        kind, words = _MOTION_ENDS[outcome]
        when = next((f" at t = {t:.6g} s" for k, t in events if k == kind), "")
        ends = f", where it {words}{when}"
    return f"the {level} rigid block has {had} up to t = {end:.6g} s{ends}"


def rigid_first_impact(case: Any) -> dict[str, float] | None:
    """The first impact of the case's rigid block (:data:`RIGID_LEVEL`), ``{time (s),
    kinetic_energy (J)}``, looked for over ten times the run's duration: for a run that
    found no collision, whether the block had one to find (None: not within that)."""
    from rocking_contact.analytic.rigid_levels import reference_motions

    start, end = case.time.start, case.time.end
    levels, _ = reference_motions(case, count=1, release=start, end=start + 10 * (end - start),
                                  tilt=case.release_angle)
    impacts = levels[RIGID_LEVEL].impacts
    return ({"time": impacts[0].time, "kinetic_energy": impacts[0].kinetic_energy}
            if impacts else None)


#: the rigid level a block run's collisions are shown against, by ``run`` and the report:
#: the exact rigid motion (the others are in ``extra.rigid_comparison``)
RIGID_LEVEL = "nonlinear"
