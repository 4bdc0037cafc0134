"""Impact post-processing, after Code_Aster's POST_DYNA_MODA_T (option IMPACT).

Definitions (for one shock, from its sampled normal force FN(t) >= 0 and normal velocity
VN(t), positive toward the obstacle):

- an *impact* is a maximal interval where FN > ``threshold``; two impacts separated by a
  rest shorter than ``min_rest`` are merged into one;
- ``start`` / ``end``: instants where the contact opens or closes, linearly interpolated
  between samples: on the signed penetration PN when the threshold is 0 and PN changes
  sign between the two samples (FN is clipped at 0 and would put the crossing on a
  sample), on FN otherwise (a damped shock lets go while still penetrating; an impact
  still open at the end of the run has ``complete = False``). A damped shock's force
  reaches 0 before its penetration does, and FN, clipped, puts that crossing on the first
  sample where the obstacle lets go: given the signal ``min(kn p, kn p + cn dp/dt)``,
  positive exactly where the obstacle pushes, the edges at threshold 0 are its crossings;
- ``duration = end - start``;
- ``max_force`` and ``t_max``: the largest sample and its instant (as Code_Aster);
- ``impulse``: trapezoidal integral of FN over [start, end] (N.s);
- ``speed``: VN interpolated at ``start`` (m/s), the approach speed;
- ``rebound_speed``: -VN interpolated at ``end`` (m/s, positive away from the obstacle;
  NaN for an impact still open at the end of the run): ``rebound_speed / speed`` is the
  coefficient of restitution of an impact from free flight to free flight;
- ``resolved``: false for the impacts of a shock said to be unresolved, whose contact is
  shorter than the spacing of the samples: it holds one sample at most, whose velocity lies
  anywhere between the approach and the rebound, and the interpolations at both edges lean
  on it (sdnd101a with Newmark and a 1e12 N/m stop, 0.06 step a contact, interpolated:
  speeds of -0.62 and rebounds of -0.89 m/s, a 3.1e-5 s contact measured as 7.96e-6 s long
  and 3.29 N.s where the speeds say 414). Such an impact is measured on the samples on
  either side of the contact, the free flights', never across it:

  - ``start`` / ``end``: the instants of the last sample before the contact and of the
    first one after it: the contact lies between them (they are ``end - start`` apart,
    two spacings for a contact caught by one sample; an upper bound of its duration);
  - ``duration``, ``max_force``, ``t_max``: NaN, not measured (the one sample inside says
    where it fell in the contact, not how long or how hard it pushed: 8e5 N for a 1e7 N
    peak);
  - ``impulse``: the trapezoid of FN over [start, end], samples that are the integrator's
    steps: the momentum the shock gave in the run, exactly (threshold 0) for Newmark (any
    beta, gamma) and HHT (by the end of the step after, see ``settle``): over the samples
    around a contact their velocities change by the trapezoid of the forces (so do central
    differences' reported ones, but a contact shorter than their step is past their
    stability limit); for a free mass ``m (speed + rebound_speed)`` to rounding. It is the
    run's impulse, as far from the physical one as the scheme's rebound is (399 N.s where the
    resolved contact gives 200). NaN when the samples are the rows of a thinned history
    (``stepwise`` false): one row's force over their spacing is no momentum of the run's;
  - ``speed``: VN at the last sample before the contact; ``rebound_speed``: -VN at the
    first one after it, or ``settle`` samples after the last inside (HHT, 2: its
    equilibrium at ``t_{n+1+alpha}`` still weighs the last force inside at the step after
    the contact; read there, a free mass's rebound comes out 4 % low with alpha = -0.1);
    NaN when the run ends first;

- per shock: ``count`` (every impact), ``max_abs_force`` (largest impact maximum),
  ``mean_max_force`` and ``std_max_force`` (population standard deviation of the impact
  maxima) and a histogram of the maxima in ``classes`` equal classes between 0 and
  ``max_abs_force``, over the maxima that were measured (an unresolved impact's NaN is
  left out, not averaged in): NaN, and no histogram, for impacts none of whose maxima
  was measured; 0 N with no impact.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Collection, Iterable, Mapping
from typing import Any

import numpy as np

FIELDS = ("start", "end", "t_max", "max_force", "duration", "impulse", "speed",
          "rebound_speed")
#: the heading of each entry of an impact in a table, unit included: one wording for
#: ``run``'s impacts (:func:`rocking_contact.summary.discrete_impact_table`) and the
#: report's (:func:`rocking_contact.report.case_tables.impacts_table`)
FIELD_LABELS = {"start": "start (s)", "end": "end (s)", "t_max": "instant of max (s)",
                "max_force": "max force (N)", "duration": "duration (s)",
                "impulse": "impulse (N.s)", "speed": "impact speed (m/s)",
                "rebound_speed": "rebound speed (m/s)", "resolved": "resolved"}
#: a shock's figures over all its impacts (``impact.<shock>.<statistic>``)
STATISTICS = ("count", "max_abs_force", "mean_max_force", "std_max_force")


def quantity_names(impacts: Iterable[Mapping[str, Any]], fields: Iterable[str] = FIELDS,
                   statistics: Iterable[str] = STATISTICS) -> set[str]:
    """The quantity names of ``fields`` of each impact (``impact.<shock>.<k>.<field>``)
    and of ``statistics`` of each impact's shock (``impact.<shock>.<statistic>``), as
    :func:`analyse` names them."""
    impacts = list(impacts)
    fields, statistics = tuple(fields), tuple(statistics)
    names = {f"impact.{i['shock']}.{i['index']}.{f}" for i in impacts for f in fields}
    return names | {f"impact.{i['shock']}.{key}" for i in impacts for key in statistics}


#: ``impact.<shock>.<k>.<field>``, as :func:`analyse` names an impact's fields
_FIELD_NAME = re.compile(r"impact\.([^.]+)\.([1-9][0-9]*)\.(\w+)")
#: ``impact.<shock>.<statistic>``, as :func:`analyse` names a shock's figures
_STATISTIC_NAME = re.compile(r"impact\.[^.]+\.(\w+)")


def statistic_names(names: Iterable[str]) -> set[str]:
    """The names among ``names`` of a shock's figures over its impacts
    (``impact.<shock>.<statistic>``, a statistic of :data:`STATISTICS`), those of a shock
    that had no impact (``count`` 0) included."""
    return {n for n in names
            if (m := _STATISTIC_NAME.fullmatch(n)) is not None and m[1] in STATISTICS}


def impacts_not_had(names: Iterable[str], impacts: Iterable[Mapping[str, Any]]
                    ) -> dict[str, tuple[str, int, int]]:
    """The names among ``names`` of a field of an impact the run did not have, each with
    (shock, k, how many impacts that shock had): a well-formed ``impact.<shock>.<k>.<field>``
    (a field of :data:`FIELDS`) whose k exceeds the number of ``impacts`` of its shock, as
    impact 2 of a run that ends after the first. A shock none of whose impacts is in
    ``impacts`` is left out: without any, a run does not tell a shock that did not strike
    from a misspelt one."""
    impacts = list(impacts)
    counts = {i["shock"]: sum(j["shock"] == i["shock"] for j in impacts) for i in impacts}
    out = {}
    for name in names:
        match = _FIELD_NAME.fullmatch(name)
        if match is None or match[3] not in FIELDS or match[1] not in counts:
            continue
        shock, k = match[1], int(match[2])
        if k > counts[shock]:
            out[name] = (shock, k, counts[shock])
    return out


def _crossing(t: np.ndarray, y: np.ndarray, i: int, level: float) -> float:
    """Instant where y crosses ``level`` between samples i and i+1 (linear)."""
    y0, y1 = y[i], y[i + 1]
    if y1 == y0:
        return float(t[i])
    return float(t[i] + (level - y0) / (y1 - y0) * (t[i + 1] - t[i]))


def find_impacts(t: np.ndarray, fn: np.ndarray, vn: np.ndarray, pn: np.ndarray | None = None,
                 *, threshold: float = 0.0, min_rest: float = 0.0,
                 contact: np.ndarray | None = None, resolved: bool = True,
                 stepwise: bool = True, settle: int = 1) -> list[dict[str, Any]]:
    """The impacts of one shock (see the module docstring for the definitions).

    Args:
        t: sample instants (s); fn: normal force (N); vn: normal velocity (m/s);
        pn: signed penetration (m), used for the crossings when ``threshold`` is 0;
        contact: ``min(kn p, kn p + cn dp/dt)`` (N) of a damped shock, positive exactly
            where the obstacle pushes, used before ``pn`` when ``threshold`` is 0;
        resolved: false when the shock's contacts are shorter than the samples' spacing:
            the fields are measured on the samples on either side of each contact.
        stepwise: whether the samples are the integrator's steps (not the rows of a
            thinned history): an unresolved impact's impulse is measured only then.
        settle: how many samples after the last one inside an unresolved contact the
            velocity is the free flight's: 1, or 2 for HHT, whose equilibrium at
            ``t_{n+1+alpha}`` weighs the shock force of the step before.

    """
    def edge(i: int) -> float:
        """Where the contact opens or closes between samples i and i+1: on the penetration
        if it changes sign there, else on FN (a damped shock lets go, FN back to 0, while
        still penetrating: the penetration's crossing lies after i+1, an extrapolation
        that doubled sdnd101a's duration with cn = 2e4 N.s/m)."""
        # signs, not the product: a diverging run's 1e200 m would overflow it.
        # (a 2-dof chain on a stop with cn = 50 N.s/m, dt = 1e-5 s: ends up to 1e-5 s late
        # on FN or PN, durations 2e-3 to 5e-3 long; on the contact signal 1.3e-4)
        for signal in (contact, pn):
            if threshold == 0.0 and signal is not None \
                    and np.sign(signal[i]) * np.sign(signal[i + 1]) <= 0.0:
                return _crossing(t, signal, i, 0.0)
        return _crossing(t, fn, i, threshold)

    above = fn > threshold
    if not above.any():
        return []
    edges = np.diff(above.astype(np.int8))
    starts: list[int] = (np.flatnonzero(edges == 1) + 1).tolist()
    ends: list[int] = np.flatnonzero(edges == -1).tolist()
    if above[0]:
        starts.insert(0, 0)
    if above[-1]:
        ends.append(len(fn) - 1)
    runs = list(zip(starts, ends))
    merged: list[list[int]] = []
    for s, e in runs:
        if merged and t[s] - t[merged[-1][1]] < min_rest:
            merged[-1][1] = e
        else:
            merged.append([s, e])
    impacts = []
    for s, e in merged:
        complete = e < len(fn) - 1
        impacts.append({**(_resolved(t, fn, vn, s, e, edge, threshold) if resolved
                           else _unresolved(t, fn, vn, s, e, stepwise, settle)),
                        "complete": bool(complete), "resolved": resolved})
    return impacts


def _resolved(t: np.ndarray, fn: np.ndarray, vn: np.ndarray, s: int, e: int,
              edge: Callable[[int], float], threshold: float) -> dict[str, float]:
    """The fields of the impact above the threshold from sample s to sample e, whose edges
    are interpolated between the samples (``edge(i)``: the crossing between i and i+1)."""
    start = float(t[0]) if s == 0 else edge(s - 1)
    complete = e < len(fn) - 1
    end = edge(e) if complete else float(t[-1])
    k = s + int(np.argmax(fn[s:e + 1]))
    # Impulse: samples inside, plus the linear pieces from the crossings.
    impulse = float(np.trapezoid(fn[s:e + 1], t[s:e + 1]))
    impulse += 0.5 * (threshold + fn[s]) * (t[s] - start)
    if complete:
        impulse += 0.5 * (fn[e] + threshold) * (end - t[e])
    speed = float(vn[0]) if s == 0 else float(np.interp(start, t[s - 1:s + 1], vn[s - 1:s + 1]))
    rebound = -float(np.interp(end, t[e:e + 2], vn[e:e + 2])) if complete else math.nan
    return {"start": start, "end": end, "t_max": float(t[k]), "max_force": float(fn[k]),
            "duration": end - start, "impulse": float(impulse), "speed": speed,
            "rebound_speed": rebound}


def _unresolved(t: np.ndarray, fn: np.ndarray, vn: np.ndarray, s: int, e: int,
                stepwise: bool, settle: int) -> dict[str, float]:
    """The fields of the impact above the threshold from sample s to sample e of a shock
    whose contacts are shorter than the samples' spacing, measured on the samples on
    either side of it (the free flights'), not across it: see the module docstring."""
    lo, hi = max(s - 1, 0), min(e + 1, len(fn) - 1)
    free = e + settle  # the first sample of the free flight after the contact
    return {"start": float(t[lo]), "end": float(t[hi]), "t_max": math.nan,
            "max_force": math.nan, "duration": math.nan,
            "impulse": float(np.trapezoid(fn[lo:hi + 1], t[lo:hi + 1])) if stepwise
            else math.nan,
            "speed": float(vn[lo]),
            "rebound_speed": -float(vn[free]) if free < len(fn) else math.nan}


def statistics(impacts: list[dict[str, Any]], classes: int) -> dict[str, Any]:
    """Global figures of one shock's impacts: their number; the largest, mean, standard
    deviation and histogram of the maxima that were measured (an unresolved impact's is
    NaN, see the module docstring): NaN and no histogram if none was, 0 N if no impact."""
    maxima = np.array([i["max_force"] for i in impacts], dtype=float)
    maxima = maxima[~np.isnan(maxima)]
    if maxima.size == 0:
        return {"count": len(impacts), "max_abs_force": math.nan if impacts else 0.0,
                "mean_max_force": math.nan, "std_max_force": math.nan, "histogram": []}
    top = float(maxima.max())
    counts, bounds = np.histogram(maxima, bins=classes, range=(0.0, top if top > 0 else 1.0))
    histogram = [{"class": c + 1, "lower": float(bounds[c]), "upper": float(bounds[c + 1]),
                  "count": int(counts[c]), "probability": float(counts[c] / maxima.size)}
                 for c in range(classes)]
    with np.errstate(over="ignore"):  # an unstable run's forces reach 1e300 before NaN
        mean, std = float(maxima.mean()), float(maxima.std())
    return {"count": len(impacts), "max_abs_force": top, "mean_max_force": mean,
            "std_max_force": std, "histogram": histogram}


def analyse(t: np.ndarray,
            shocks: Mapping[str, tuple[str, np.ndarray, np.ndarray, np.ndarray | None]], *,
            threshold: float, min_rest: float, classes: int,
            contact: Mapping[str, np.ndarray] | None = None,
            unresolved: Collection[str] = (), stepwise: bool = True, settle: int = 1
            ) -> tuple[list[dict[str, Any]], dict[str, Any], dict[str, float]]:
    """Impacts of every shock.

    Args:
        t: sample instants (s).
        shocks: shock name -> (node name, FN, VN, PN samples; PN may be None).
        contact: shock name -> the contact signal of a damped shock (see
            :func:`find_impacts`).
        unresolved: the shocks whose contacts are shorter than the samples' spacing (see
            ``resolved`` in :func:`find_impacts`); ``stepwise``, ``settle``: how their
            fields are measured (see :func:`find_impacts`).

    Returns:
        ``impacts`` (one entry per impact: shock, node, index from 1, the fields above),
        ``stats`` (shock name -> :func:`statistics`), and the flat ``quantities``
        ``impact.<shock>.<index>.<field>`` and ``impact.<shock>.<statistic>``.

    """
    impacts: list[dict[str, Any]] = []
    stats: dict[str, Any] = {}
    quantities: dict[str, float] = {}
    for name, (node, fn, vn, pn) in shocks.items():
        found = find_impacts(t, fn, vn, pn, threshold=threshold, min_rest=min_rest,
                             contact=(contact or {}).get(name),
                             resolved=name not in unresolved, stepwise=stepwise,
                             settle=settle)
        for k, imp in enumerate(found, start=1):
            impacts.append({"shock": name, "node": node, "index": k, **imp})
            for f in FIELDS:
                quantities[f"impact.{name}.{k}.{f}"] = imp[f]
        stats[name] = {"node": node, **statistics(found, classes)}
        for key in STATISTICS:
            quantities[f"impact.{name}.{key}"] = float(stats[name][key])
    return impacts, stats, quantities
