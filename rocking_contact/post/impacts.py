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
  on it (sdnd101a with Newmark and a 1e12 N/m stop, 0.06 step a contact: speeds of -0.62
  and rebounds of -0.89 m/s). Its ``speed`` is then VN at the last sample before the
  contact and its ``rebound_speed`` -VN at the first one after it, the free flights' own;
- per shock: ``count``, ``max_abs_force`` (largest impact maximum), ``mean_max_force`` and
  ``std_max_force`` (population standard deviation of the impact maxima) and a histogram of
  the maxima in ``classes`` equal classes between 0 and ``max_abs_force``.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping
from typing import Any

import numpy as np

FIELDS = ("start", "end", "t_max", "max_force", "duration", "impulse", "speed",
          "rebound_speed")


def _crossing(t: np.ndarray, y: np.ndarray, i: int, level: float) -> float:
    """Instant where y crosses ``level`` between samples i and i+1 (linear)."""
    y0, y1 = y[i], y[i + 1]
    if y1 == y0:
        return float(t[i])
    return float(t[i] + (level - y0) / (y1 - y0) * (t[i + 1] - t[i]))


def find_impacts(t: np.ndarray, fn: np.ndarray, vn: np.ndarray, pn: np.ndarray | None = None,
                 *, threshold: float = 0.0, min_rest: float = 0.0,
                 contact: np.ndarray | None = None, resolved: bool = True
                 ) -> list[dict[str, Any]]:
    """The impacts of one shock (see the module docstring for the definitions).

    Args:
        t: sample instants (s); fn: normal force (N); vn: normal velocity (m/s);
        pn: signed penetration (m), used for the crossings when ``threshold`` is 0;
        contact: ``min(kn p, kn p + cn dp/dt)`` (N) of a damped shock, positive exactly
            where the obstacle pushes, used before ``pn`` when ``threshold`` is 0;
        resolved: false when the shock's contacts are shorter than the samples' spacing:
            the speeds are those of the samples on either side of each contact.

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
        start = float(t[0]) if s == 0 else edge(s - 1)
        complete = e < len(fn) - 1
        end = edge(e) if complete else float(t[-1])
        k = s + int(np.argmax(fn[s:e + 1]))
        # Impulse: samples inside, plus the linear pieces from the crossings.
        impulse = float(np.trapezoid(fn[s:e + 1], t[s:e + 1]))
        impulse += 0.5 * (threshold + fn[s]) * (t[s] - start)
        if complete:
            impulse += 0.5 * (fn[e] + threshold) * (end - t[e])
        if resolved:
            speed = float(vn[0]) if s == 0 else float(np.interp(start, t[s - 1:s + 1],
                                                                vn[s - 1:s + 1]))
            rebound = -float(np.interp(end, t[e:e + 2], vn[e:e + 2])) if complete else math.nan
        else:  # the free flights on either side, not a sample inside the contact
            speed = float(vn[max(s - 1, 0)])
            rebound = -float(vn[e + 1]) if complete else math.nan
        impacts.append({
            "start": start, "end": end, "t_max": float(t[k]), "max_force": float(fn[k]),
            "duration": end - start, "impulse": float(impulse),
            "speed": speed, "rebound_speed": rebound, "complete": bool(complete),
            "resolved": resolved,
        })
    return impacts


def statistics(impacts: list[dict[str, Any]], classes: int) -> dict[str, Any]:
    """Global figures of one shock's impacts: max, mean, std of maxima, histogram."""
    maxima = np.array([i["max_force"] for i in impacts])
    if maxima.size == 0:
        return {"count": 0, "max_abs_force": 0.0, "mean_max_force": math.nan,
                "std_max_force": math.nan, "histogram": []}
    top = float(maxima.max())
    counts, bounds = np.histogram(maxima, bins=classes, range=(0.0, top if top > 0 else 1.0))
    histogram = [{"class": c + 1, "lower": float(bounds[c]), "upper": float(bounds[c + 1]),
                  "count": int(counts[c]), "probability": float(counts[c] / maxima.size)}
                 for c in range(classes)]
    with np.errstate(over="ignore"):  # an unstable run's forces reach 1e300 before NaN
        mean, std = float(maxima.mean()), float(maxima.std())
    return {"count": int(maxima.size), "max_abs_force": top, "mean_max_force": mean,
            "std_max_force": std, "histogram": histogram}


def analyse(t: np.ndarray,
            shocks: Mapping[str, tuple[str, np.ndarray, np.ndarray, np.ndarray | None]], *,
            threshold: float, min_rest: float, classes: int,
            contact: Mapping[str, np.ndarray] | None = None,
            unresolved: Collection[str] = ()
            ) -> tuple[list[dict[str, Any]], dict[str, Any], dict[str, float]]:
    """Impacts of every shock.

    Args:
        t: sample instants (s).
        shocks: shock name -> (node name, FN, VN, PN samples; PN may be None).
        contact: shock name -> the contact signal of a damped shock (see
            :func:`find_impacts`).
        unresolved: the shocks whose contacts are shorter than the samples' spacing (see
            ``resolved`` in :func:`find_impacts`).

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
                             resolved=name not in unresolved)
        for k, imp in enumerate(found, start=1):
            impacts.append({"shock": name, "node": node, "index": k, **imp})
            for f in FIELDS:
                quantities[f"impact.{name}.{k}.{f}"] = imp[f]
        stats[name] = {"node": node, **statistics(found, classes)}
        for key in ("count", "max_abs_force", "mean_max_force", "std_max_force"):
            quantities[f"impact.{name}.{key}"] = float(stats[name][key])
    return impacts, stats, quantities
