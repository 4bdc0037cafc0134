"""Instants a case file measures at, and whether its own run reaches them.

A window (``[[time.window]]``, ``collisions.windows``, a ``[[quantity]]`` window) that
starts at or after ``time.end``, or a ``[[quantity]]`` ``time`` after it, is never reached:
its check says "not reached" or "not computed" whatever the run does. It is refused where
whoever gave it gave the end too (the same file, or a later layer: a child's window past
its parent's end, ``--set collisions.windows=...``). A window given before the end, in an
earlier layer, is left alone: a run shortened with ``--set time.end=...``, or a child
(a variant) that ends earlier than the parent that placed the windows, legitimately reads
"not reached" for what it cuts off.
"""

from __future__ import annotations

from collections.abc import Iterator

from rocking_contact.config.layers import Layer, given_layer
from rocking_contact.config.sections import CaseFile


def _instants(case: CaseFile) -> Iterator[tuple[str, float, bool]]:
    """``(dotted key, first instant it measures at (s), whether it is a window)`` for each
    window and ``[[quantity]]`` instant of ``case``."""
    for i, (start, _) in enumerate(case.step_windows()):
        yield f"time.window[{i}]", start, True
    for i, (start, _) in enumerate(case.collision_windows() or ()):
        yield f"collisions.windows[{i}]", start, True
    for i, spec in enumerate(case.quantity):
        if spec.time is not None:
            yield f"quantity[{i}].time", spec.time, False
        if spec.window is not None:
            yield f"quantity[{i}].window", spec.window[0], True


def never_reached(case: CaseFile, layer: Layer) -> tuple[str, str] | None:
    """The first window or instant of ``case`` that its own run never reaches, given with
    or after its ``time.end`` (see the module), as ``(key, problem)``; None if none."""
    end = case.time.end
    end_layer = given_layer(layer, "time.end")
    for key, instant, window in _instants(case):
        # a window from the end on holds no step; an instant at the end is its last sample
        past = instant >= end if window else instant > end
        if past and given_layer(layer, key) <= end_layer:
            said = (f"starts at {instant:g} s, at or after" if window else
                    f"{instant:g} s is after")
            return key, (f"{said} time.end = {end:g} s: the run never reaches it; allowed: "
                         f"{'a start before' if window else 'an instant up to'} {end:g} s, "
                         "or a longer time.end")
    return None
