"""The runs a figure is drawn from, however a script holds them: a
:class:`~rocking_contact.results.RunResult` (what ``rc.run`` and ``rc.load_result``
return), a results directory, or the ``(results.json content, history)`` pair the plots
work on (:func:`rocking_contact.results_io.load` reads one).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

import numpy as np

from rocking_contact.results import RunResult

#: the ``results.json`` content and the history columns of a run
Pair = tuple[Mapping[str, Any], Mapping[str, np.ndarray]]
#: what the plotting functions take for a run
Run = RunResult | str | os.PathLike[str] | Pair


def as_pair(run: Any, where: str = "run") -> Pair:
    """``run`` (:data:`Run`) as its ``(results.json content, history)``.

    Args:
        run: a :class:`RunResult`, a results directory, or such a pair (returned as is).
        where: what the error calls the argument (``compare_kinetic_energy: members[1]``).

    Raises:
        CaseError: anything else, or a directory without the results a run writes; one
            line.

    """
    from rocking_contact.config import CaseError
    from rocking_contact.results_io import load

    if isinstance(run, RunResult):
        return run.to_json(), run.history
    if isinstance(run, str | os.PathLike):
        return load(run)
    if (isinstance(run, tuple) and len(run) == 2 and isinstance(run[0], Mapping)
            and isinstance(run[1], Mapping)):
        return run[0], run[1]
    text = repr(run)
    raise CaseError("rocking_contact.viz", where, f"got {type(run).__name__} "
                    f"{text if len(text) <= 40 else text[:37] + '...'}, allowed: a RunResult, "
                    "a results directory, or (results.json content, history)")
