"""How each run came out, in a word and a line, and the report's summary of them.

A run's verdict (:func:`verdict`), its status with what makes it another run than its case
file's (:func:`run_status`), its checks counted (:func:`checks_text`), the graded check
that misses its mark by most (:func:`worst_miss`) and its largest differences from the
rigid block (:func:`rigid_summary`); the summary table of the cases and the report's
verdict in one line (:func:`headline`).

Checks are counted as the run counts them: passed, failed, not reached (a reference past
the end of a shortened, failed or interrupted run: a miss, but not a wrong value) and
informational.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from rocking_contact.post.collisions import RIGID_LEVEL
from rocking_contact.post.references import band_text, miss_reason, not_reached, signed_error
from rocking_contact.report.case_tables import reference_cell, report_error_text, tolerance_text
from rocking_contact.report.document import MISSING, VERDICT_CSS, Cell, Table, num
from rocking_contact.report.inputs import CaseResult
from rocking_contact.results import STARTED, Verdict, check_counts, classify, counted
from rocking_contact.summary import outcome_text
from rocking_contact.viz.changes import changes_text


def headline(cases: Sequence[CaseResult]) -> str:
    """The report's verdict in one line, counted from the runs: ``8 of 12 cases pass; 4 fail
    (16 checks), each miss explained in its case section``, then the cases of the other
    verdicts (``1 incomplete``...); a failed check whose note does not say why
    (:func:`~rocking_contact.post.references.miss_reason`) is counted as not explained."""
    words = [verdict(r.data) for r in cases]
    failed = [c for r, w in zip(cases, words) if w == "FAIL" for c in r.data.get("checks") or []
              if c.get("passed") is False and not not_reached(c)]
    parts = [f"{words.count('PASS')} of {len(cases)} case{'s' if len(cases) != 1 else ''} pass"]
    if failed:
        unexplained = sum(miss_reason(c.get("note")) is None for c in failed)
        said = ("each miss explained in its case section" if not unexplained else
                f"{unexplained} of them not explained by their note")
        parts.append(f"{words.count('FAIL')} fail ({len(failed)} check"
                     f"{'s' if len(failed) != 1 else ''}), {said}")
    parts += [f"{words.count(w)} {w.lower()}" for w in dict.fromkeys(words)
              if w not in ("PASS", "FAIL")]
    return "; ".join(parts) + "."


#: the summary's columns
SUMMARY_HEADER = ["case", "kind", "status", "checks passed", "checks failed", "not reached",
                  "informational", "wall time (s)", "verdict", "worst miss (graded)",
                  "against the rigid block (not graded: largest difference)"]


def summary_table(cases: Sequence[CaseResult]) -> Table:
    """One row per case: kind, status, check counts, wall time, verdict, the graded check
    that misses its mark by most (:func:`worst_miss`; its case section's note says why) and,
    for a block run compared with the rigid block, its largest differences from it, for
    information (the rigid block is not what the later collisions are graded on)."""
    rows = []
    for r in cases:
        v = verdict(r.data)
        checks = r.data.get("checks") or []
        miss = worst_miss(checks)
        rows.append([Cell(r.label, link=f"case-{r.key}"),
                     Cell(str(r.data.get("kind", ""))), Cell(run_status(r.data, r.history)),
                     *[num(n) for n in check_counts(checks)],
                     num((r.data.get("timing") or {}).get("wall_s"), 4),
                     Cell(v, VERDICT_CSS.get(v, "fail")),
                     Cell(miss, "fail", link=f"checks-{r.key}") if miss else Cell(MISSING),
                     Cell(rigid_summary(r.data) or MISSING, "info")])
    return Table("summary", "Summary", SUMMARY_HEADER, rows)


#: the report's word for each verdict
VERDICT_WORDS = {Verdict.INTERRUPTED: "INTERRUPTED", Verdict.UNFINISHED: "UNFINISHED",
                 Verdict.RUN_FAILED: "RUN FAILED", Verdict.FAIL: "FAIL",
                 Verdict.INCOMPLETE: "INCOMPLETE", Verdict.PASS: "PASS",
                 Verdict.NOT_GRADED: "NO CHECK"}


def verdict(data: Mapping[str, Any]) -> str:
    """``PASS``, ``FAIL``, ``INCOMPLETE`` (no failure, but references the run did not
    reach), ``INTERRUPTED`` (stopped by Ctrl-C or SIGTERM: no failure of the run's),
    ``UNFINISHED`` (killed, or still running: nothing graded yet), ``RUN FAILED`` or
    ``NO CHECK`` (:func:`~rocking_contact.results.classify`)."""
    return VERDICT_WORDS[classify(str(data.get("status", "completed")),
                                  data.get("checks") or [])]


def run_status(data: Mapping[str, Any], history: Mapping[str, Any] | None = None) -> str:
    """The run's status, with a rigid run's outcome and events
    (:func:`~rocking_contact.summary.outcome_text`: ``outcome overturned; events: uplift at
    t = ..., overturn at t = ...``), and what makes it another run than its case file's: ended
    before the file's end (said by the status itself unless the run completed: a shortened
    run), or graded on nothing because it changes the physics; for a run that never wrote
    its results (killed), how far its ``history`` got."""
    checks = data.get("checks") or []
    status = str(data.get("status", ""))
    t = (history or {}).get("time")
    if status == STARTED:
        reached = (f"its history reaches t = {float(t[-1]):.6g} s" if t is not None and len(t)
                   else "no history row")
        return f"{status}; {reached}"
    ended = next((c["note"] for c in checks if not_reached(c)), None) \
        if status == "completed" else None
    changes = changes_text(data)
    # A check's own "not graded: the value holds for a step of ..." keeps its prefix: it
    # speaks of some references, not of the run, and read as part of a failure without it.
    changed = f"the run changes {changes}" if changes else next(
        (c["note"] for c in checks if str(c.get("note", "")).startswith("not graded")), None)
    # a rigid block that overturned completes its run: its outcome says what happened
    motion = outcome_text(data.get("extra") or {})
    # a check of a run that also changes the physics notes it after the reach ("...; not
    # graded: the run changes ..."), which ``changed`` says
    reach = ended and ended.partition(": ")[2].partition("; not graded")[0]
    extra = [text for text in (motion, reach, changed) if text]
    return f"{status} ({'; '.join(extra)})" if extra else status


def checks_text(checks: Sequence[Mapping[str, Any]]) -> str:
    """The check counts in words: ``2 pass, 2 fail, 11 not reached, 72 for information``."""
    passed, failed, unreached, info_only = check_counts(checks)
    reached = f", {unreached} not reached" if unreached else ""
    return f"{passed} pass, {failed} fail{reached}, {info_only} for information"


def worst_miss(checks: Sequence[Mapping[str, Any]]) -> str:
    """The failed check farthest beyond its mark (its error over its tolerance, both as the
    tolerance measures them), in words: ``rx_min_O -18.6 % (mark 2 %)``, a band's
    ``collision.5.time 3.48e-03 outside [0.265526, 0.29937]``; empty when none failed on
    its value (a check not reached is no miss)."""
    failed = [c for c in checks if c.get("passed") is False and not not_reached(c)
              and c.get("tolerance")]

    def beyond(c: Mapping[str, Any]) -> float:
        error, _ = signed_error(c)
        return abs(error) / float(c["tolerance"]) if math.isfinite(error) else math.inf

    if not failed:
        return ""
    c = max(failed, key=beyond)
    if band_text(c):
        return f"{c['quantity']} {band_text(c)} {reference_cell(c).text}"
    return f"{c['quantity']} {report_error_text(c)} (mark {tolerance_text(c)})"


def rigid_summary(data: Mapping[str, Any]) -> str:
    """The largest differences of a block run's collisions from the rigid block's
    (:data:`RIGID_LEVEL`), in words: ``t +0.404 %, energy +3.48 % (2 collisions)``; empty
    for a run without that comparison. Collisions the rigid block has no impact for
    (``unmatched``) are counted apart, their reason under the case's rigid table:
    ``t -13.3 %, energy -48.1 % (2 collisions; 1 with no rigid impact, see the case's
    table)``, or ``no rigid impact to compare its 1 collision with (see the case's
    table)``."""
    rows = (data.get("extra") or {}).get("rigid_comparison") or []
    levels = [(row.get("levels") or {}).get(RIGID_LEVEL) or {} for row in rows]
    levels = [lv for lv in levels if isinstance(lv.get("time_error"), float)]
    alone = sum(1 for row in rows if RIGID_LEVEL in (row.get("unmatched") or {}))
    if not levels:
        return (f"no rigid impact to compare its {counted(alone, 'collision')} with (see the "
                f"case's table)" if alone else "")

    def largest(key: str) -> float:
        return float(max((lv[key] for lv in levels if isinstance(lv.get(key), float)),
                         key=abs, default=math.nan))

    apart = f"; {alone} with no rigid impact, see the case's table" if alone else ""
    return (f"t {100 * largest('time_error'):+.3g} %, energy "
            f"{100 * largest('energy_error'):+.3g} % ({counted(len(levels), 'collision')}"
            f"{apart})")
