"""Where each key of a loaded case was given: the files (:data:`Origins`) and the layer
(:data:`Layer`).

A case file may extend another, and overrides (``--set``) come on top: the later a key
was given, the lower its layer. What is refused of a key depends on it: a setting given
before the choice of a variant that does not read it (a parent's ``scheme.theta``, then
its child's ``scheme.type = "newmark"``) is left behind, one given with that choice or
after it is refused (:mod:`.refusals`, :mod:`.reach`); of keys that break a rule
together, an error names the one given last.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from rocking_contact.config.overrides import key_path

#: key path (components, as :func:`key_path` gives them) -> the files that set it, the file
#: holding the value first, then the files that extend it up to the one loaded
Origins = dict[tuple[str, ...], tuple[Path, ...]]


#: where a key was given: 0 an override (``--set``), 1 the loaded file, 2 the file it
#: extends, ...; infinity nowhere (its default); -1 a change to the loaded case
#: (:func:`~rocking_contact.config.unread_after_loading`), the latest of all
Layer = Callable[[str], float]


def layers(origins: Origins, overridden: Iterable[str]) -> Layer:
    """The :data:`Layer` of a case read with ``origins`` (filled by
    :func:`~rocking_contact.config.read_case_data`) and overridden at the dotted keys
    ``overridden``: 0 for those keys and any key inside them."""
    return _FileLayer(origins, frozenset(tuple(key_path(k)) for k in overridden))


@dataclass(frozen=True)
class _FileLayer:
    """The :data:`Layer` that :func:`layers` makes. A class, not a closure: a loaded case
    holds it (``load_info.loaded_as``), and pickles with it (``ProcessPoolExecutor``
    over loaded cases) and compares equal to its copy."""

    origins: Origins
    #: the key paths overridden
    overrides: frozenset[tuple[str, ...]]

    def __call__(self, key: str) -> float:
        path = tuple(key_path(key))  # (``quantity[1].time`` too)
        if any(path[:n] in self.overrides for n in range(1, len(path) + 1)):  # or its table
            return 0
        return len(self.origins[path]) if path in self.origins else math.inf


def given_layer(layer: Layer, key: str) -> float:
    """The layer of ``key`` or of the nearest table or list holding it."""
    parts = key.replace("[", ".").replace("]", "").split(".")
    for n in range(len(parts), 0, -1):
        found = layer(".".join(parts[:n]))
        if found < math.inf:
            return found
    return math.inf
