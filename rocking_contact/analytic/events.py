"""Typed events for scipy's :func:`~scipy.integrate.solve_ivp`.

``solve_ivp`` reads an event's options from attributes of the function, ``direction`` and
``terminal``, which a plain function type does not declare: :func:`ivp_event` sets them
behind the :class:`IvpEvent` protocol, so that the callers need no ``type: ignore``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, cast

import numpy as np


class IvpEvent(Protocol):
    """An event function of ``solve_ivp``: its value at ``(t, y)`` (s, the state) crosses
    zero at the event."""

    #: the crossings that count: > 0 upward only, < 0 downward only, 0 both
    direction: float
    #: whether the event ends the integration
    terminal: bool

    def __call__(self, t: float, y: np.ndarray) -> float: ...


def ivp_event(fun: Callable[[float, np.ndarray], float], direction: float,
              terminal: bool) -> IvpEvent:
    """``fun`` as a ``solve_ivp`` event crossing zero in ``direction`` (> 0 upward, < 0
    downward, 0 both), ending the integration when ``terminal``. It sets the attributes on
    ``fun`` itself and returns it: calling it again on the same function changes them."""
    event = cast(IvpEvent, fun)
    event.direction = direction
    event.terminal = terminal
    return event
