"""Where DOLFINx keeps its compiled forms, made usable before DOLFINx is imported.

FFCx compiles each form once and keeps it under ``$XDG_CACHE_HOME/fenics`` (``~/.cache``
without the variable), a path DOLFINx reads when it is imported. A home that cannot hold it
(a container run with another uid, HOME=/; XDG_CACHE_HOME naming a file, or a read-only
disk) made the first block run stop with a traceback of ``mkdir``. :func:`ensure_form_cache`
tries that directory first and, where it cannot be made or written, points XDG_CACHE_HOME
to a directory of the user's under the system's temporary directory, and returns the
sentence that a block run's warnings say once. This module imports only the standard
library: the import hook of the package calls it before the DOLFINx wheel.
"""

from __future__ import annotations

import functools
import os
import sys
import tempfile
from pathlib import Path


def _writable(directory: Path) -> str | None:
    """None if ``directory`` exists or can be made, and takes a file; else why not."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=directory):
            pass
    except OSError as exc:
        return exc.strerror or type(exc).__name__
    return None


@functools.cache  # the process's environment changes once: later calls say what it did
def ensure_form_cache() -> str | None:
    """Point ``XDG_CACHE_HOME`` to a usable directory if FFCx's default one is not (see
    the module docstring), before DOLFINx is imported: the package's import hook makes the
    first call, which acts; a later one returns its answer.

    Returns:
        What it changed, a sentence for the run's warnings; None: nothing (the default
        directory is usable, none is, or DOLFINx was imported first and has read the
        variable already).

    """
    if "dolfinx" in sys.modules:
        return None  # too late: a change would not be seen
    home = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    why = _writable(Path(home) / "fenics")
    if why is None:
        return None
    fallback = Path(tempfile.gettempdir()) / f"rocking_contact-cache-{os.getuid()}"
    if _writable(fallback / "fenics") is not None:
        return None  # nowhere better: FFCx says what fails
    os.environ["XDG_CACHE_HOME"] = str(fallback)
    return (f"the compiled-form cache {Path(home) / 'fenics'} cannot be used ({why}): forms "
            f"are cached in {fallback / 'fenics'} (set XDG_CACHE_HOME to a writable "
            "directory to keep them elsewhere)")
