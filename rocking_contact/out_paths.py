"""Where a command writes (``--out``, ``--screenshot``, ``--movie``): checked before the work.

A path that cannot be written would fail only after the run or the rendering, with a
traceback that does not name the option; here it is one :class:`~.config.CaseError` naming
the option, what is wrong and what is allowed, and the directory is created.
"""

from __future__ import annotations

import os
from pathlib import Path

from rocking_contact import interrupt
from rocking_contact.config import CaseError


def check_dir(option: str, path: Path, allowed: str = "a writable directory, created if "
              "missing", *, create: bool = True, key: str = "") -> None:
    """``path`` is a writable directory, made if missing (with its parents). Without
    ``create`` nothing is made: the check a command makes before its work (loading, meshing),
    so that a bad path is said at once and a bad case leaves no empty directory behind.

    The error names ``option`` (``--out``), or for the Python API the function and its
    argument: ``check_dir("rc.run", path, key="out")`` says ``rc.run: out: cannot create
    ...``, not a command-line option the caller never gave."""
    existing = next(p for p in (path, *path.parents, Path.cwd()) if _exists(p))
    if not existing.is_dir():
        raise CaseError(option, key, f"{existing} is a file, not a directory "
                        f"(allowed: {allowed})")
    if not create:
        if not os.access(existing, os.W_OK | os.X_OK):
            raise CaseError(option, key, f"{existing} is not writable (allowed: {allowed})")
        return
    made = missing_dirs(path)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        remove_made(made)  # the parents it made before the name it could not make
        raise CaseError(option, key, f"cannot create {path}: {exc.strerror} (allowed: "
                        f"{allowed})") from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise CaseError(option, key, f"{path} is not writable (allowed: {allowed})")


def make_dir(option: str, path: Path, *, key: str = "") -> None:
    """:func:`check_dir` for a command every rank runs: rank 0 alone makes the directories
    (made by another rank first, they would be missing from rank 0's :func:`missing_dirs`
    and stay after a refusal) and tells the others whether it could, so that every rank
    raises the same :class:`CaseError` or none does (rank 0 alone refusing a path it
    could not make would leave the others waiting for it)."""
    world = interrupt.world()
    if world is None or world.size == 1:
        check_dir(option, path, key=key)
        return
    problem = None
    if world.rank == 0:
        try:
            check_dir(option, path, key=key)
        except CaseError as exc:
            problem = (exc.file, exc.key, exc.problem)
    problem = world.bcast(problem, root=0)
    if problem is not None:
        raise CaseError(*problem)


def _exists(path: Path) -> bool:
    """Whether ``path`` exists; False for a path the system cannot even look up (a name
    longer than 255 bytes: ``Path.exists`` raises), which making it then says."""
    try:
        return path.exists()
    except OSError:
        return False


def missing_dirs(path: Path) -> list[Path]:
    """``path`` and those of its parents that do not exist, deepest first: the directories
    :func:`check_dir` makes for it, which :func:`remove_made` takes away again."""
    return [p for p in (path, *path.parents) if not _exists(p)]


def remove_made(made: list[Path]) -> None:
    """Remove the directories ``made`` (:func:`missing_dirs` before :func:`check_dir`),
    deepest first, while they are empty: a run refused as it set up leaves no directory
    it made; one holding a file, and those above it, stay."""
    for directory in made:
        try:
            directory.rmdir()
        except OSError:
            if _exists(directory):
                return  # not empty: the ones above hold it
            # never made (its name too long to make), or gone: go on to its parent


def check_file(option: str, path: Path, what: str,
               suffixes: tuple[str, ...] | None = None, *, create: bool = True) -> Path:
    """``path`` is a file ``option`` may write: not a directory, its suffix one of
    ``suffixes`` (the first is added to a name without one, so that the messages name the
    file written), in a writable directory (made if missing, with ``create``: see
    :func:`check_dir`). Returns the path."""
    # one rule for every such option: a missing suffix is added, any other refused
    added = f" (a name without a suffix gets {suffixes[0]})" if suffixes else ""
    allowed = f"{what} file path{added}, in a directory that exists or can be created"
    if path.is_dir():
        raise CaseError(option, "", f"{path} is a directory (allowed: {allowed})")
    if suffixes is not None:
        path = path if path.suffix else path.with_suffix(suffixes[0])
        if path.suffix not in suffixes:
            raise CaseError(option, "", f"{path}: not a {'/'.join(suffixes)} file "
                            f"(allowed: {allowed})")
    check_dir(option, path.parent, allowed, create=create)
    return path
