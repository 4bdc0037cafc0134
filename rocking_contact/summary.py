"""What the command line prints of a finished run: its table of checks (or of collisions,
or a discrete run's impacts and energy balance) and summary line, as ``run``, ``validate``
and ``rigid`` show them, and ``validate``'s verdicts (which cases failed, were not graded,
or did not reach some checks).

Imported by the commands as they run, not to build the parser (it imports numpy).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from rocking_contact.post.collision_warnings import unmatched_line
from rocking_contact.post.collisions import RIGID_LEVEL, interior
from rocking_contact.post.impacts import FIELD_LABELS
from rocking_contact.post.references import run_end_text, text_table, unreferenced
from rocking_contact.results import (
    RunResult,
    Verdict,
    check_counts,
    classify,
    counted,
    stopped,
)

#: numba compilation time (s) the summary line names beside the wall time
COMPILE_SHOWN_S = 1.0


def show_result(result: RunResult | None, out: Path | None = None, *,
                table: bool = True, collisions: bool = True) -> None:
    """Print (rank 0) a run's comparison table with its ``[[quantity]]`` entries that
    have no reference (for information), and, a block with nothing to check against, its
    collisions (:func:`collision_summary`, unless ``collisions`` is False: ``rigid``
    prints its own impact tables), a discrete case its impacts and energy balance
    (:func:`discrete_summary`), unless ``table`` is False; and its summary line: steps,
    wall time, the checks that pass and those the run did not reach, and the results
    directory ``out`` if given (``validate``'s are all under its ``--out``). ``run`` and
    ``validate`` show a run stopped by a solver failure or Ctrl-C (``result`` is then
    the exception's ``partial``; None, when it has none, shows nothing) as a completed
    one, before the line of the error."""
    import rocking_contact as rc
    from rocking_contact.api import mpi_rank

    if result is None or mpi_rank() != 0:
        return
    if table:
        shown = unreferenced(result.parameters.get("quantity"), result.quantities,
                             result.checks)
        if result.checks or shown:  # the checks, then the quantities without reference
            print(rc.format_table(result))
        if collisions and not result.checks:  # nothing to check
            if result.kind == "discrete":
                print(discrete_summary(result))
            elif result.collisions:
                print(collision_summary(result))
    print(summary_line(result, out))


#: impacts ``run`` lists before ``... N more``: the whole list is results.json's
IMPACTS_SHOWN = 5
#: the entries of an impact that ``run`` lists, in its columns' order (headed as the
#: report heads them: :data:`~rocking_contact.post.impacts.FIELD_LABELS`)
IMPACT_COLUMNS = ("start", "max_force", "speed", "rebound_speed", "impulse")


def discrete_summary(result: RunResult) -> str:
    """What ``run`` prints of a discrete case with nothing to check, as it prints a
    block's collisions: its impacts (:func:`discrete_impact_table`) and its energy
    balance's largest residual (:func:`discrete_energy_line`)."""
    shocks = result.parameters.get("model", {}).get("shock")
    lines = [discrete_impact_table(result)] if shocks else []
    return "\n".join([*lines, discrete_energy_line(result)])


def _cell(value: Any, digits: int = 4) -> str:
    """A number of an impact row (``nan``: not measured, an unresolved contact's)."""
    return f"{value:.{digits}g}" if isinstance(value, int | float) else "-"


def discrete_impact_table(result: RunResult) -> str:
    """The run's impacts (results.json ``impacts``), the first :data:`IMPACTS_SHOWN` of them
    and how many more: per shock, their number ``k``, the shock and its node, the start of
    the contact (s), the largest normal force (N), the normal speeds before and after it
    (m/s) and the impulse (N.s); ``impacts: none`` without one."""
    impacts = result.impacts
    if not impacts:
        sustained = result.extra.get("sustained_contacts") or {}
        held = (f" ({', '.join(sustained)} closed all along: "
                f"results.json extra.sustained_contacts)" if sustained else "")
        return f"impacts: none{held}"
    head = ["k", "shock", "node", *(FIELD_LABELS[key] for key in IMPACT_COLUMNS)]
    rows = [[f"{i.get('index', '?')}", str(i.get("shock", "?")), str(i.get("node", "?")),
             *(_cell(i.get(key), 6 if key == "start" else 4) for key in IMPACT_COLUMNS)]
            for i in impacts[:IMPACTS_SHOWN]]
    lines = text_table([head, *rows], sep="", pad=2)
    more = len(impacts) - IMPACTS_SHOWN
    tail = [f"... {more} more (results.json impacts)"] if more > 0 else []
    return "\n".join([f"impacts ({len(impacts)}):", *lines, *tail])


#: the share of the largest mechanical energy above which what the regularised friction
#: law supplied (``ESTICK``) is said: twomass's stick spring gets 1.1 J of 3.13 J (35 %) by
#: sticking again from the sliding force, sdnd100a's 3.4e-5 J of 2.50 J
STICK_SAID = 0.01


def discrete_energy_line(result: RunResult) -> str:
    """The energy balance of a discrete run in one line (:func:`energy_balance_line`) with
    its final residual; or why it has none (results.json ``extra.energy``); and what the
    regularised friction law supplied where above :data:`STICK_SAID` of the largest
    mechanical energy (the balance closes with it: it is a source, as the table's work,
    that the residual does not show)."""
    energy = result.extra.get("energy") or {}
    if "not_computed" in energy:
        return f"energy balance: not computed: {energy['not_computed']}"
    if "residual_max_abs" not in energy:
        return "energy balance: none (no history row)"
    tail = f", {energy['residual_final']:.3g} J at the end"
    supplied, motion = energy.get("stick_supplied", 0.0), energy.get("motion", 0.0)
    if motion > 0.0 and supplied > STICK_SAID * motion:
        share = 100 * supplied / motion
        tail += (f"; the regularised friction law supplied {supplied:.3g} J ({share:.2g} % of "
                 f"it, ESTICK): a stick spring sticks again from the sliding force, as if "
                 f"stretched (friction = 'exact' has no such spring)")
    return energy_balance_line(energy, tail)


def energy_balance_line(energy: Mapping[str, Any], tail: str = "") -> str:
    """``energy balance: largest |residual| 4.79 J (17 % of the largest kinetic energy)``
    and ``tail``: the largest ``|ENERGY_RESIDUAL|`` of a run's balance (results.json
    ``extra.energy``, J), when where the balance says (a discrete run's
    ``residual_max_time``, s), and its share of the energy the balance measures it by:
    a discrete run's largest mechanical energy (``residual_relative``, ``motion``, J), a
    block's largest kinetic energy (``residual_relative_to_peak_ekin``), or the least
    energy of its motion where that decided (``motion_floor``, J:
    :func:`rocking_contact.post.energy.motion_floor`, a block that never lifted). The one
    line of both kinds; ``tail`` is what each adds (:func:`discrete_energy_line`,
    :func:`block_energy_lines`)."""
    largest = energy["residual_max_abs"]
    when = (f" at t = {energy['residual_max_time']:.6g} s" if "residual_max_time" in energy
            else "")
    least = energy.get("motion_floor")
    share = (f" ({100 * largest / least:.2g} % of the least energy of the motion, "
             f"{least:.3g} J)" if least else
             f" ({100 * energy['residual_relative_to_peak_ekin']:.2g} % of the largest "
             f"kinetic energy)" if "residual_relative_to_peak_ekin" in energy else
             f" ({100 * energy['residual_relative']:.2g} % of the largest mechanical "
             f"energy, {energy['motion']:.3g} J)" if "residual_relative" in energy else "")
    return f"energy balance: largest |residual| {largest:.3g} J{when}{share}{tail}"


def collision_summary(result: RunResult, level: str = RIGID_LEVEL) -> str:
    """The run's collisions (instants, s; kinetic energies, J) next to the rigid block's
    ``level`` when the run compared them, and the energy balance's largest residual: what
    ``run`` prints for a block case with no references to check; without a collision,
    that there was none (and when the rigid block has its first impact); the block's
    uplift first, where it had one
    (:func:`~rocking_contact.post.collisions.find_uplift`).
    """
    rows = {row["index"]: row["levels"].get(level) for row in
            result.extra.get("rigid_comparison", [])}
    table = []
    for c in interior(result.collisions):
        rigid = rows.get(c["index"])
        cells = [f"{c['index']:d}", f"{c['time']:.6g}", f"{c['kinetic_energy']:.6g}"]
        if rigid is not None and rigid.get("time") is not None:
            cells += [f"{rigid['time']:.6g}", f"{rigid['kinetic_energy']:.6g}",
                      f"{100 * rigid['time_error']:+.3g} %, "
                      f"{100 * rigid['energy_error']:+.3g} %"]
        table.append(cells)
    unmatched = [unmatched_line(row["index"], level, row["unmatched"][level])
                 for row in result.extra.get("rigid_comparison", [])
                 if level in row.get("unmatched", {})]
    events = [f"event: {e['kind']} at t = {e['time']:.6g} s ({e['corner']}) {e['note']}"
              for e in result.extra.get("events", [])]
    if not table:
        return "\n".join([*events, _no_collision(result), *block_energy_lines(result)])
    head = ["k", "t (s)", "Ekin (J)"]
    if rows:
        head += ["rigid t", "rigid Ekin", f"error t, Ekin ({level} rigid block)"]
    # columns 11 wide as a rule, wider where a value needs it (1.67756e+06 J, -12.3456 s)
    lines = text_table([head, *table], sep="", pad=1, least=[3, *[11] * (len(head) - 1)])
    return "\n".join([*events, "collisions (kinetic-energy maxima):", *lines, *unmatched,
                      *block_energy_lines(result)])


def _no_collision(result: RunResult) -> str:
    """``collisions: none in the windows [0, 0.1] s`` (or ``none (no landing ...)``
    without windows, or the landings none of which is an impact) and, where the run
    compared with the rigid block, when that block's first impact comes."""
    windows = ((result.parameters.get("collisions") or {}).get("windows") or []
               if "windows_set_aside" not in result.extra else [])
    spans = ", ".join(f"[{w0:g}, {w1:g}]" for w0, w1 in windows)
    landings = ", ".join(f"{c['landing']:.6g}" for c in result.collisions if "landing" in c)
    line = (f"collisions: none in the collision windows {spans} s" if windows else
            f"collisions: none (THETA changed sign after a lift at t = {landings} s, no "
            f"impact: a kinetic-energy maximum below the least energy of the motion or at "
            f"the run's end; results.json collisions)" if landings else
            "collisions: none (no landing: THETA never changed sign after a lift)")
    if "rigid_first_impact" not in result.extra:
        return line
    rigid = result.extra["rigid_first_impact"]
    times = result.history.get("time")
    end = float(times[-1]) if times is not None and len(times) else float("nan")
    if rigid is None:
        return f"{line}; the rigid block has no impact within ten times the run's duration"
    when = "after the run's end" if rigid["time"] > end else "within the run"
    return (f"{line}; the rigid block's first impact comes at t = {rigid['time']:.6g} s "
            f"({rigid['kinetic_energy']:.6g} J), {when} (t = {end:.6g} s)")


def block_energy_lines(result: RunResult) -> list[str]:
    """A block's energy balance in one line (:func:`energy_balance_line`; none without a
    balance) with, from the run's ``ENERGY_RESIDUAL`` where its history has it, whether
    the time steps lost that energy (< 0) or created it (> 0), and when
    (:func:`_residual_sign`)."""
    energy = result.extra.get("energy", {})
    if "residual_max_abs" not in energy:
        return []
    return [energy_balance_line(energy, _residual_sign(result))]


def _residual_sign(result: RunResult) -> str:
    """``, energy the time steps lost (ENERGY_RESIDUAL -4.79 J at t = 0.42 s)``: the
    signed largest residual of the run's history and when (J, s; the residual is what the
    steps created, > 0, or lost, < 0), empty without the column. Without the sign a
    |residual| of 4.79 J, 17 % of the largest kinetic energy, says nothing of which (a
    theta-scheme granite block loses it, mostly in the corner's chatter after each
    landing)."""
    residual = np.asarray((getattr(result, "history", None) or {}).get("ENERGY_RESIDUAL", []),
                          dtype=float)
    if not residual.size or not np.isfinite(residual).any():
        return ""
    k = int(np.nanargmax(np.abs(residual)))
    if residual[k] == 0.0:
        return ""
    what = "lost" if residual[k] < 0.0 else "created"
    return (f", energy the time steps {what} (ENERGY_RESIDUAL {residual[k]:.3g} J at t = "
            f"{float(result.history['time'][k]):.6g} s)")


def summary_line(result: RunResult, out: Path | None = None) -> str:
    """A run's summary line, as ``run``, ``validate`` and ``rigid`` print it: steps, wall
    time, a rigid run's outcome and events (:func:`outcome_text`), the checks that pass,
    those that fail on a value and those the run did not reach (``4/14 checks pass, 1
    fails (9 not reached: ...)``; or that none is graded, and how many are shown for
    information), and the results directory ``out`` if given.
    """
    counts = check_counts(result.checks)
    if counts.graded:
        passing = f", {counts.passed}/{counts.graded} checks pass"
        if counts.failed:  # else '4/14 checks pass (9 not reached)' hid the one failure
            passing += f", {counted(counts.failed, 'fails', 'fail')}"
    else:  # a case without references says nothing of checks
        passing = (f", no check graded ({counts.information} shown for information)"
                   if counts.information else "")
    end = run_end(result)
    if counts.not_reached and end:
        passing += f" ({counts.not_reached} not reached: {end})"
    where = f"; results in {out}/" if out is not None else ""
    compile_s = float(result.timing.get("compile_s", 0.0))
    # a cache load takes under 0.5 s; a compilation (a new machine, a cold Docker
    # container) 6 to 27 s, which a user would otherwise read as the run's own time
    compiled = (f" (+{compile_s:.2g} s compiling numba kernels)"
                if compile_s >= COMPILE_SHOWN_S else "")
    taken = result.timing.get("steps")
    steps = "? steps" if taken is None else counted(taken, "step")
    if "preload_steps" in result.timing:
        static = counted(result.timing["preload_steps"], "static step")
        steps += f" (stopped in the preload, after {static})"
    elif result.status != "completed":
        # the steps it took: a run whose step 1 failed would read '0 steps', '(step 1, ...)'
        steps += " before the run stopped"
    motion = outcome_text(result.extra)
    motion = f", {motion}" if motion else ""
    return (f"{result.case}: {steps}, "
            f"{result.timing.get('wall_s', float('nan')):.3g} s wall{compiled}{motion}"
            f"{passing}{where}")


#: events of one kind listed one by one up to this many, else the first and the last
EVENTS_LISTED = 4
#: a rigid run's outcome when it is still moving at its end
ROCKING = "rocking"


def outcome_text(extra: Mapping[str, Any]) -> str:
    """A rigid run's outcome and events (results.json ``extra.outcome``, ``extra.events``)
    in words, in time order, one kind after the other: ``outcome overturned; events:
    uplift at t = 0.269202 s, overturn at t = 3.0523 s``; ``12 uplifts from t = 0.1 to
    4.2 s`` beyond :data:`EVENTS_LISTED` of a kind. Empty for a run without an outcome (the
    other kinds), and for a block still rocking at the end without any event
    (``sdnv105_rigid``)."""
    outcome = extra.get("outcome")
    if not isinstance(outcome, str):
        return ""
    times: dict[str, list[float]] = {}
    for event in extra.get("events") or []:
        if isinstance(event, Mapping) and isinstance(event.get("time"), int | float):
            times.setdefault(str(event.get("kind", "event")), []).append(float(event["time"]))
    parts = []
    for kind, ts in times.items():
        texts = [f"{t:.6g}" for t in ts]
        if len(ts) > EVENTS_LISTED:
            parts.append(f"{len(ts)} {kind}s from t = {texts[0]} to {texts[-1]} s")
        else:
            listed = " and ".join([", ".join(texts[:-1]), texts[-1]] if len(ts) > 1 else texts)
            parts.append(f"{kind} at t = {listed} s")
    if not parts and outcome == ROCKING:
        return ""  # what a rigid block does: nothing happened but its rocking
    return f"outcome {outcome}" + (f"; events: {', '.join(parts)}" if parts else "")


def run_end(result: RunResult) -> str:
    """``the run ends at t = 0.2 s``: what the checks a run did not reach share (each
    check's note says which window); ``the run stopped at t = 0.05 s`` for one that did
    not complete (interrupted, failed), which a longer ``time.end`` would not have
    changed; empty for a run without history."""
    times = result.history.get("time")
    if times is None or not len(times):
        return ""
    return run_end_text(float(times[-1]), stopped=stopped(result.status))


#: ``validate``'s word for each verdict but a pass, in the order of its last lines
#: (:func:`print_verdicts`): a run that stopped is a failure there
VALIDATE_WORDS = {Verdict.FAIL: "FAILED", Verdict.RUN_FAILED: "FAILED",
                  Verdict.INTERRUPTED: "FAILED", Verdict.UNFINISHED: "FAILED",
                  Verdict.NOT_GRADED: "NOT GRADED", Verdict.INCOMPLETE: "INCOMPLETE"}


def validation_verdict(result: RunResult) -> tuple[str, str] | None:
    """``validate``'s word for a run it ran (:func:`~rocking_contact.results.classify`,
    :data:`VALIDATE_WORDS`) and why, in a few words; None when it passes. FAILED: checks
    that failed on their values (with those it did not reach), or a run that did not
    complete; NOT GRADED: no check applies at its settings (:func:`why_not_graded`);
    INCOMPLETE: it failed no check but stopped short of some (:func:`incompleteness`: a
    run shortened with ``--set time.end``, as the report says)."""
    verdict = classify(result.status, result.checks)
    if verdict is Verdict.PASS:
        return None
    word = VALIDATE_WORDS[verdict]
    if verdict is Verdict.NOT_GRADED:
        return word, f"no check applies at these settings: {why_not_graded(result.checks)}"
    if verdict is Verdict.INCOMPLETE:
        return word, incompleteness(result)
    counts = check_counts(result.checks)
    if counts.failed:
        unreached = (f", {counts.not_reached} not reached: {run_end(result)}"
                     if counts.not_reached else "")
        return word, f"{counts.failed} of {counts.graded} checks failed{unreached}"
    return word, result.status.split(":")[0]


def incompleteness(result: RunResult) -> str:
    """``7 checks not reached: the run ends at t = 0.2 s``: why a completed run that failed
    no check is not validated either (INCOMPLETE)."""
    return f"{check_counts(result.checks).not_reached} checks not reached: {run_end(result)}"


def why_not_graded(checks: Sequence[Mapping[str, object]]) -> str:
    """Why none of a run's checks has a pass mark: their notes' reasons, once each (a
    reference that holds for another time step, physics the run changes), or that the
    case has none to give one. A run graded on nothing validates nothing; it does not fail
    either: sdnd102c refined to dt = 1e-4 s matches its exact solution to 0.5 %, and its
    Code_Aster values hold only at their own step."""
    marked = [c for c in checks if c.get("tolerance") is not None]
    if not marked:
        return ("its references have no tolerance (information only)" if checks
                else "it has no reference")
    return "; ".join(dict.fromkeys(str(c["note"]).removeprefix("not graded: ")
                                   for c in marked))


def print_verdicts(count: int, verdicts: Mapping[str, Sequence[str]]) -> None:
    """The last lines of ``validate``: the cases of each word of :data:`VALIDATE_WORDS`
    (those that failed, those no check graded, those that failed none but did not reach
    some: the report's INCOMPLETE), and how many of the ``count`` passed."""
    for word in dict.fromkeys(VALIDATE_WORDS.values()):
        if verdicts.get(word):
            print(f"{word}: {', '.join(verdicts[word])}")
    passed = count - sum(len(cases) for cases in verdicts.values())
    if count == 1:  # (its verdict line above names it when it does not pass)
        print(f"the case {'passes' if passed else 'does not pass'} its reference checks")
    else:
        print(f"{'all' if passed == count else f'{passed} of'} {count} cases pass their "
              "reference checks")
