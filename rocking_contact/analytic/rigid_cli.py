"""``rocking-contact rigid``: the rigid-block rocking reference, every level side by side.

Runs a ``rigid`` case (default the shipped ``sdnv105_rigid``), writes ``results.json``,
``history.csv`` and the plots like ``run``, and prints the impacts of the closed form, the
integrated linearised and nonlinear equations and the recalage next to each other (the
recalage for SDNV105's block only, or with the case's own ratios: one line says which);
with ``--quiet``, only the summary line, as ``run --quiet``. It runs as ``run`` does
(:func:`rocking_contact.commands.run.run_into`). The
``--set`` keys of the block are those of the SDNV105 case files, with their meanings:
``geometry.half_width``, ``geometry.half_height``, ``geometry.thickness`` (m),
``material.block.density`` (kg/m^3), ``loading.gravity`` (m/s^2), ``preload.tilt`` (the
pull of a FEM case, a ratio: released at ``asin(tilt)`` rad), and the rigid kind's own
``preload.angle`` (the release angle, rad).

This module is imported to build the command line: keep its imports light.
"""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from rocking_contact.commands.run import OUT_HELP
from rocking_contact.options import (
    add_case_argument,
    add_case_options,
    case_argument,
    path_argument,
)

if TYPE_CHECKING:  # the FEM kind's schema (its imports take 0.3 s)
    from rocking_contact.fem.case import BlockCase

DEFAULT_CASE = "sdnv105_rigid"

#: column titles of the levels in the printed table
TITLES = {"closed_form": "closed form", "linearised": "linearised",
          "nonlinear": "nonlinear", "recalage": "recalage"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``rocking-contact rigid``."""
    add_case_argument(parser, f"rigid case, or FEM block case whose rigid twin to run: a "
                              f"name or a TOML file (default {DEFAULT_CASE})")
    parser.add_argument("--out", type=path_argument, help=OUT_HELP)
    add_case_options(parser, "no progress bar, and of the output the summary line, warnings "
                             "and errors alone, as run --quiet prints (no tables of the "
                             "levels' impacts or of the checks)",
                     "override a case value (repeatable, a key once), e.g. preload.angle=0.02 (the "
                     "release angle, rad) or preload.tilt=0.02 (a FEM case's pull ratio, "
                     "no angle: released at asin(0.02) = 0.0200013 rad)")


def impact_table(levels: Mapping[str, Mapping[str, Any]], count: int,
                 release: float = 0.0) -> str:
    """Instants and kinetic energies before each impact, one column pair per level, and
    the closed form's relative difference to the nonlinear equation.

    Args:
        levels: ``results.json``'s ``extra.levels``: level -> {"impacts": [...], ...}.
        count: impacts shown.
        release: instant of the release (s); time differences are taken from it.

    """
    names = [n for n in TITLES if n in levels]
    compare = "closed_form" in levels and "nonlinear" in levels
    head = ["k", "corner"] + [f"{TITLES[n]} t (s) / Ekin (J)" for n in names]
    if compare:
        head.append("closed/nonlinear - 1: t, Ekin")
    rows = []
    for k in range(1, count + 1):
        found = {n: levels[n]["impacts"][k - 1] for n in names
                 if len(levels[n]["impacts"]) >= k}
        if not found:
            break
        corner = next(iter(found.values()))["corner"]
        row = [str(k), corner]
        for n in names:
            imp = found.get(n)
            # significant digits: a block of 1e-9 kg/m^3 has 1e-12 J, which .6f shows as 0
            row.append(f"{imp['time']:.8f}  {imp['kinetic_energy']:#.7g}" if imp else "—")
        if compare and {"closed_form", "nonlinear"} <= found.keys():
            cf, nl = found["closed_form"], found["nonlinear"]
            late = (cf["time"] - release) / (nl["time"] - release) - 1
            row.append(f"{_percent(late)}, "
                       f"{_percent(cf['kinetic_energy'] / nl['kinetic_energy'] - 1)}")
        rows.append(row)
    return _columns([head, *rows])


def missing_impacts(levels: Mapping[str, Mapping[str, Any]], count: int, end: float,
                    history: Mapping[str, Any] | None = None) -> list[str]:
    """The lines under :func:`impact_table` saying why a level's column shows a dash: one
    per level with fewer impacts than the table's rows (``closed form —: the closed_form
    rigid block has 1 impact up to t = 0.312 s``), ``end`` (s) the run's last instant;
    ``history``, the run's ``extra`` (``history_level``, ``outcome``, ``events``), says
    where the level it integrated ends its motion (comes to rest, overturns, leaves the
    table). Empty for a table without dashes."""
    from rocking_contact.post.collisions import level_impacts_text

    names = [n for n in TITLES if n in levels]
    rows = min(count, max((len(levels[n]["impacts"]) for n in names), default=0))
    lines = []
    for n in names:
        had = len(levels[n]["impacts"])
        if had >= rows:
            continue
        ended: tuple[Any, list[tuple[str, float]]] = (None, [])
        if history is not None and history.get("history_level") == n:
            ended = (history.get("outcome"),
                     [(e["kind"], e["time"]) for e in history.get("events") or []])
        lines.append(f"{TITLES[n]} —: {level_impacts_text(n, had, end, *ended)}")
    return lines


def _percent(fraction: float) -> str:
    """``+1.13 %``; a difference that rounds to zero is ``0.00 %`` (the closed form's
    first instant, 1.9e-5 relative early, is not "-0.00 %")."""
    text = f"{100 * fraction:+.2f}"
    return f"{'0.00' if float(text) == 0.0 else text} %"


#: the line under :func:`percussion_table` when a lift is shown as a dash
NO_LIFT = ("lift —: no highest point after that impact within the run (it ended in "
           "mid-flight, or the block came to rest)")


def percussion_table(levels: Mapping[str, Mapping[str, Any]], count: int) -> str:
    """Corner velocity and percussion before/at each impact, and the lift after it; a
    lift the level does not have (the run ended before the corner's highest point, or the
    block came to rest) is a dash, which :data:`NO_LIFT`, under the table, then says."""
    names = [n for n in TITLES if n in levels]
    head = ["k"] + [f"{TITLES[n]} vy (m/s) / Iy (N.s) / lift (mm)" for n in names]
    rows = []
    dashed = False
    for k in range(1, count + 1):
        if all(len(levels[n]["impacts"]) < k for n in names):
            break  # every level at rest (or past the end) before impact k
        row = [str(k)]
        for n in names:
            impacts, lifts = levels[n]["impacts"], levels[n]["lifts"]
            if len(impacts) < k:
                row.append("—")
                continue
            imp = impacts[k - 1]
            lift = f"{1e3 * lifts[k]['height']:.4f}" if len(lifts) > k else "—"
            dashed = dashed or len(lifts) <= k
            row.append(f"{imp['vy_before']:.6f}  {imp['percussion_y']:#.5g}  {lift}")
        rows.append(row)
    return _columns([head, *rows]) + (f"\n{NO_LIFT}" if dashed else "")


def _columns(rows: list[list[str]]) -> str:
    """Rows (the header first) as the table's lines, two spaces between columns."""
    from rocking_contact.post.references import text_table

    return "\n".join(text_table(rows))


def _explain(result: Any) -> str:
    """Why the closed form differs from the integrated equations (the ~1 %)."""
    q, key = result.quantities, "collision.1.kinetic_energy"
    if f"closed_form.{key}" not in q or f"linearised.{key}" not in q:
        return ""
    dropped = q[f"closed_form.{key}"] - q[f"linearised.{key}"]
    # theta, not tilt: preload.tilt is the pull ratio, and the closed form
    # takes the release angle (0.0500209 rad for tilt 0.05)
    return (f"The closed form takes M b g theta for the energy at impact 1 (theta the release "
            f"angle) and drops the -M g l theta^2/2 of the potential ({dropped:.4g} J here); "
            f"its flight times are chained with the restitution from 2 t1, which runs them "
            f"long.")


def tilt_meaning(case: Any) -> str:
    """The line that says what ``preload.tilt`` meant for a rigid case released from it (no
    ``preload.angle``): a FEM case's pull ratio, no angle, where earlier versions of the
    rigid kind read it as the angle (a file's ``tilt = 0.05``, meant as 0.05 rad, is
    released at 0.0500209 rad); empty for a case that gives ``preload.angle``, a FEM
    case's twin included, which gives it the block's angle."""
    if case.preload.angle is not None or case.preload.tilt == 0.0:  # 0 is 0 rad either way
        return ""
    tilt, angle = case.preload.tilt, case.release_angle
    return (f"preload.tilt = {tilt:g} is a pull ratio, as in a FEM block case, not an angle: "
            f"released at asin({tilt:g}) = {angle:g} rad; preload.angle = {tilt:g} releases "
            f"at {tilt:g} rad (rigid case files of earlier versions read tilt as the angle)")


def _recalage_line(recalage: Mapping[str, Any]) -> str:
    """Why the recalage level is left out, or that its ratios are the case's own; nothing
    for the manual's ratios on its block."""
    if recalage.get("note"):
        return str(recalage["note"])
    if recalage.get("own"):
        velocity, interval = recalage["ratios"]
        return (f"recalage: the case's ratios {velocity:g} on sqrt(kinetic energy) and "
                f"{interval:g} on the flight times (not the SDNV105 manual's fit)")
    return ""


def load_for_rigid(case: str | Path, overrides: list[str] | None) -> Any:
    """``rc.load_case(case, overrides)`` as ``rigid`` (and ``sweep --rigid``) loads a
    case, a rigid one or a block case whose twin to run: a ``[rigid]`` key given to a block
    case, which its schema refuses as unknown (``rigid sdnv105d --set
    rigid.friction=0.3``), is refused with where the twin takes it from, as ``contact.mu``
    given to a rigid case points at ``rigid.friction`` (``RigidCase.ELSEWHERE``).

    Raises:
        CaseError: as :func:`rocking_contact.load_case`.

    """
    import rocking_contact as rc
    from rocking_contact.analytic.rigid_runner import TWIN_BASE
    from rocking_contact.config import CaseError, kind_of, overridden_keys

    try:
        return rc.load_case(case, overrides)
    except CaseError as exc:
        if exc.key != "rigid" or not exc.problem.startswith("unknown key") or kind_of(
                str(case)) != "block":
            raise
        given = [k for k in overridden_keys(overrides or []) if k.split(".")[0] == "rigid"]
        key = given[0] if given else exc.key  # else a [rigid] table of the block's file
        if key == "rigid.friction":
            raise CaseError(exc.file, key, "a block case has no [rigid]: its rigid twin's "
                            "Coulomb coefficient is the block's contact.mu (with contact "
                            "springs, the least mu of those not anchored in x); allowed: "
                            f"--set contact.mu={_given(overrides or [], key)}") from None
        raise CaseError(exc.file, key, f"a block case has no [rigid]: its rigid twin takes "
                        f"its rigid keys from {TWIN_BASE}, and rigid.friction from the "
                        f"block's contact.mu; allowed: the block case's keys "
                        f"(rocking-contact keys {case}), contact.mu for the twin's "
                        f"friction") from None


def _given(overrides: list[str], key: str) -> str:
    """The value that the ``--set`` texts ``overrides`` give ``key``, as typed back ('...'
    if they give none that reads alone)."""
    from rocking_contact.config import CaseError, apply_overrides, dig, toml_text

    data: dict[str, Any] = {}
    try:
        apply_overrides(data, overrides)  # onto nothing: the values as given
    except CaseError:
        return "..."  # a list item of the case's, which nothing holds here
    value = dig(data, key)
    return "..." if value is None or isinstance(value, Mapping | list) else toml_text(value)


def main(args: argparse.Namespace) -> int:
    """Run the rigid case and print the tables (with ``--quiet``, the summary line alone, as
    ``run --quiet``); returns the exit code."""
    from rocking_contact.analytic.rigid_case import RigidCase
    from rocking_contact.analytic.rigid_runner import rigid_twin
    from rocking_contact.api import mpi_rank
    from rocking_contact.commands.run import run_into
    from rocking_contact.config import CaseError

    name = case_argument(args) or DEFAULT_CASE
    loaded = load_for_rigid(name, args.overrides)
    if loaded.case.kind == "block":  # the rigid block of a FEM block case
        case = rigid_twin(cast("BlockCase", loaded))
    elif isinstance(loaded, RigidCase):
        case = loaded
    else:
        raise CaseError(str(name), "case.kind",
                        f"got {loaded.case.kind!r}, the rigid command needs kind = 'rigid', "
                        f"or 'block' (its rigid twin)")

    def show(result: Any, out: Path) -> None:
        _show(result, out, table=not args.quiet)

    result, out = run_into(case, args, show)
    if args.quiet or mpi_rank() != 0:
        # under mpiexec every rank runs it (the run is collective); one prints. Quiet, the
        # summary line alone: in a study's shell loop the tables are noise
        show(result, out)
        return 0
    q, count = result.quantities, case.rigid.impacts
    print(f"{case.case.name}: rigid block b = {case.geometry.half_width:g} m, "
          f"l = {case.geometry.half_height:g} m, M = {result.extra['block']['mass']:.4g} kg, "
          f"released at {case.release_angle:g} rad; restitution {q['restitution']:.6f}, "
          f"energy kept per impact {q['energy_ratio']:.6f}")
    pulled = tilt_meaning(case)
    if pulled:
        print(pulled)
    if any(level["impacts"] for level in result.extra["levels"].values()):
        print(impact_table(result.extra["levels"], count, case.time.start))
        for line in missing_impacts(result.extra["levels"], count,
                                    _last_instant(result, case.time.end), result.extra):
            print(line)
        print()
        print(percussion_table(result.extra["levels"], count))
    else:  # the tables' headers alone read as a table left empty by mistake
        print(f"no impact by t = {_last_instant(result, case.time.end):.6g} s")
    explanation = _explain(result)
    if explanation:
        print(explanation)
    recalage = _recalage_line(result.extra.get("recalage", {}))
    if recalage:
        print(recalage)
    for event in result.extra["events"]:
        print(f"event: {event['kind']} at t = {event['time']:.8f} s "
              f"({event['corner'] or 'flat'}) {event['note']}")
    print(f"outcome: {result.extra['outcome']}; collisions list and history: "
          f"{result.extra['level']} level (history: {result.extra['history_level']} equation)")
    show(result, out)
    return 0


def _last_instant(result: Any, end: float) -> float:
    """The last instant (s) of a run's history: where it ended (its ``time.end``, or an
    overturn, a jump, a stop), ``end`` for a history without rows."""
    times = result.history.get("time")
    return float(times[-1]) if times is not None and len(times) else end


def _show(result: Any, out: Path, *, table: bool) -> None:
    """The checks and summary line as ``run`` shows them (``show_result``), but for a run
    that changes the physics its case's references describe: those references are about
    another block (SDNV105's, for ``--set`` on ``sdnv105_rigid``), and their rows, most of
    them without a value (collisions that block has and this one need not), read as
    checks the run did not reach. One line says that they do not apply, as the run's
    warning does; ``results.json`` and the report keep them, for information."""
    from rocking_contact.summary import show_result

    changes = result.extra.get("changes") if result is not None else None
    if not changes or not result.checks:
        show_result(result, out, table=table, collisions=False)  # as run's
        return
    from rocking_contact.api import mpi_rank

    if table and mpi_rank() == 0:
        print(f"{len(result.checks)} checks not shown: the case's references describe its "
              f"file's block, and this run changes {', '.join(changes)} (in results.json, "
              f"for information)")
    show_result(dataclasses.replace(result, checks=[]), out, table=False, collisions=False)
