"""Where a run came from: the software stack it was computed with (what a report was made
with too), and its inputs, checkout and command line, so that it can be run again.

Installed distributions are read from their metadata (no import). PETSc and SLEPc, whose
library versions differ from their Python bindings', are asked the library itself: a run
records them only if it loaded them (a discrete case never imports PETSc, and recording its
stack must not change that); the report imports them (after ``dolfinx_solver``, as the
package requires) to describe the machine it was made on.

A run's ``provenance`` (:func:`run_record`) says when it ran, from which command line and
checkout, the files it read with their SHA-256, the overrides in order, and ``rerun``: the
command line that runs the same inputs again (``docs/outputs.md``); as it ends
(:func:`ended`), an interrupted run's ``rerun_note`` says that the rerun runs to its end.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.metadata as metadata
import os
import platform
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rocking_contact.blas import cpu_model, openblas_kernels

#: (shown name, distribution) in the order the report lists them
DISTRIBUTIONS: tuple[tuple[str, str], ...] = (
    ("rocking-contact", "rocking-contact"),
    ("numpy", "numpy"),
    ("scipy", "scipy"),
    ("numba", "numba"),
    ("dolfinx (dolfinx-solver-real)", "dolfinx-solver-real"),
    ("basix", "fenics-basix"),
    ("ufl", "fenics-ufl"),
    ("ffcx", "fenics-ffcx"),
    ("mpi4py", "mpi4py"),
    ("gmsh", "gmsh"),
    ("matplotlib", "matplotlib"),
    ("pyvista", "pyvista"),
    ("vtk", "vtk"),
    ("imageio", "imageio"),
    ("imageio-ffmpeg", "imageio-ffmpeg"),
)


#: what a run that never loaded a compiled library records for it
NOT_LOADED = "not loaded by this run"

#: the stack's component of the OpenBLAS kernels (results.json ``stack``)
KERNELS = "OpenBLAS kernels"


def _library_version(module: str, attribute: str) -> str | None:
    """``module.attribute.Sys.getVersion()`` as a dotted string, or None."""
    try:
        importlib.import_module("dolfinx_solver")
        lib = importlib.import_module(f"{module}.{attribute}")
        return ".".join(str(p) for p in lib.Sys.getVersion())
    except Exception:  # noqa: BLE001  (any failure means: not available here)
        return None


def _mpi_library(load: bool) -> str:
    """The MPI library mpi4py runs on, as its first line names it ("MPICH 5.0.2", "Open MPI
    v4.1.5"); :data:`NOT_LOADED` if this process has not started MPI and ``load`` is False
    (importing ``mpi4py.MPI`` starts it)."""
    if not load and "mpi4py.MPI" not in sys.modules:
        return NOT_LOADED
    try:
        importlib.import_module("dolfinx_solver")
        text = importlib.import_module("mpi4py.MPI").Get_library_version()
    except Exception:  # noqa: BLE001  (any failure means: not available here)
        return "not available"
    first = text.strip().splitlines()[0].split(",")[0] if text.strip() else ""
    return " ".join(first.replace("Version:", "").split()) or "not available"


def stack_versions(*, load_libraries: bool = True) -> list[tuple[str, str]]:
    """(component, version) pairs of the stack this process runs on: Python, the
    platform, the distributions of :data:`DISTRIBUTIONS`, PETSc's and SLEPc's libraries,
    the MPI library under mpi4py, the CPU (:func:`~rocking_contact.blas.cpu_model`) and the
    OpenBLAS kernels (:func:`~rocking_contact.blas.openblas_kernels`).

    Args:
        load_libraries: import petsc4py / slepc4py to ask their libraries; if False, a
            library this process has not loaded is recorded as :data:`NOT_LOADED`.

    """
    rows = [("Python", platform.python_version()),
            ("platform", f"{platform.system()} {platform.release()} {platform.machine()}")]
    for shown, dist in DISTRIBUTIONS:
        try:
            rows.append((shown, metadata.version(dist)))
        except metadata.PackageNotFoundError:
            rows.append((shown, "not installed"))
    for shown, module, attribute in (("PETSc (library)", "petsc4py", "PETSc"),
                                     ("SLEPc (library)", "slepc4py", "SLEPc")):
        if not load_libraries and f"{module}.{attribute}" not in sys.modules:
            rows.append((shown, NOT_LOADED))
            continue
        version = _library_version(module, attribute)
        rows.append((shown, version or "not available"))
    rows.append(("MPI (library)", _mpi_library(load_libraries)))
    # the CPU and the kernels decide the order of BLAS sums, which the impacts amplify
    # (rocking_contact.blas): a number reproduces on the same CPU model with the same kernels
    rows.append(("CPU", cpu_model()))
    rows.append((KERNELS, openblas_kernels() or NOT_LOADED))
    return rows


# -- where a run came from, and how to run it again (results.json ``provenance``) --------

#: the program that runs a case again, as :func:`rerun_command` writes it
PROGRAM = "rocking-contact"

#: the most changed files of a dirty checkout that a run lists (``git status`` lines)
DIRTY_LISTED = 20

#: the command line of the ``rocking-contact`` command under way in this context
#: (:func:`commanded`); None outside one
_COMMAND_LINE: ContextVar[list[str] | None] = ContextVar("command_line", default=None)


@contextmanager
def commanded(argv: Sequence[str] | None) -> Iterator[None]:
    """Within it, this context runs ``rocking-contact`` with the arguments ``argv`` (None:
    ``sys.argv[1:]``), what its runs' :func:`command_line` says: the entry point runs its
    command inside, so that a command run in-process (``cli.main([...])`` in a test)
    records its own, and a run after it in the same process (``rc.run``) not that one."""
    token = _COMMAND_LINE.set([PROGRAM, *(sys.argv[1:] if argv is None else argv)])
    try:
        yield
    finally:
        _COMMAND_LINE.reset(token)


def command_line() -> list[str] | None:
    """The command line this run was started with: that of the command under way
    (:func:`commanded`), else ``sys.argv`` when the process is the ``rocking-contact``
    command (its console script, ``python -m rocking_contact.cli``); None for a Python
    script or a notebook, whose ``sys.argv`` says nothing about the run."""
    commanding = _COMMAND_LINE.get()
    if commanding is not None:
        return list(commanding)
    program = Path(sys.argv[0]).name if sys.argv and sys.argv[0] else ""
    if program == PROGRAM or sys.argv[0].endswith("rocking_contact/cli.py"):
        return [PROGRAM, *sys.argv[1:]]
    return None


def utc_now() -> str:
    """The current UTC date and time, ISO 8601 to the millisecond
    (``2026-11-23T11:30:00.123+00:00``)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def sha256(path: Path) -> str | None:
    """The SHA-256 of a file's bytes (hex), or None if it cannot be read."""
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                digest.update(block)
    except OSError:
        return None
    return digest.hexdigest()


def files_read(case_file: Path, parameters: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every file a case was loaded from, with its SHA-256: the case file, the files of its
    ``extends`` chain (child first) and each record its ``path`` keys name (a CSV table,
    the only file key of the schemas), in that order, each once.

    The chain is read again from the case file (:func:`~rocking_contact.config.
    read_case_data`, the loader's own reading): the longest chain of files that set a key
    runs from the root to the file loaded, the files that only extend another included.

    Args:
        case_file: the case file loaded.
        parameters: the loaded case's resolved parameters (``as_dict``), whose record
            paths are absolute (a relative one is taken from the case file's folder).

    Returns:
        ``{"path": absolute path, "sha256": hex or None (unreadable), "read_as": "case
        file" | "extended" | "record"}`` per file.

    """
    from rocking_contact.config import Origins, read_case_data

    origins: Origins = {}
    read_case_data(case_file, origins=origins)
    chain = max(origins.values(), key=len, default=(case_file,))[::-1]
    records = [case_file.parent / p for p in _record_paths(parameters)]
    found: dict[Path, str] = {}
    for path, role in ([(case_file, "case file")] + [(p, "extended") for p in chain[1:]]
                       + [(p, "record") for p in records]):
        found.setdefault(path.resolve(), role)
    return [{"path": str(p), "sha256": sha256(p), "read_as": role} for p, role in found.items()]


def _record_paths(data: Any) -> list[str]:
    """The non-empty ``path`` values in parsed case data or parameters, in order."""
    if isinstance(data, Mapping):
        return [p for key, value in data.items()
                for p in ([value] if key == "path" and isinstance(value, str) and value
                          else _record_paths(value))]
    if isinstance(data, list):
        return [p for value in data for p in _record_paths(value)]
    return []


#: the bytes one word of a command line may hold on Linux, its closing NUL included
#: (MAX_ARG_STRLEN, 32 pages of 4 KiB): ``execve`` refuses a longer one ("Argument list too
#: long"), a --set of a table of some 6000 samples given in Python
ARGUMENT_BYTES = 131072


def override_texts(overrides: Mapping[str, Any] | Sequence[str] | None
                   ) -> tuple[list[str] | None, str]:
    """The ``--set`` texts that give the same overrides, in order: the texts themselves,
    or ``key=value`` of a mapping, its values spelled in TOML (None, which unsets a key,
    as ``key=``: :func:`~rocking_contact.config.parse_override`). Returns ``(texts, "")``, or
    ``(None, why)`` when a value has no ``--set`` spelling that reads back as itself (a
    Python object TOML cannot write) or has one too long for a word of a command line
    (:data:`ARGUMENT_BYTES`: the samples of a long record given as arrays). A table of 151
    samples given as arrays has one, of 4.4 kB, which runs it again byte for byte."""
    from rocking_contact.config import parse_override, plain, toml_text

    if overrides is None:
        return [], ""
    if not isinstance(overrides, Mapping):
        return list(overrides), ""
    texts = []
    for key, value in overrides.items():
        given = os.fspath(value) if isinstance(value, os.PathLike) else plain(value)
        text = f"{key}={'' if given is None else toml_text(given)}"  # None: key= unsets it
        if parse_override(text)[1] != given:
            return None, (f"the override {key} = {value!r} has no --set spelling that reads "
                          "back as the same value")
        size = len(text.encode()) + 1
        if size > ARGUMENT_BYTES:
            return None, (f"the override {key}, given in Python, is {size} bytes as a --set "
                          f"word, more than the {ARGUMENT_BYTES} a word of a command line may "
                          "hold (Linux): no command gives it; only its parameters say what "
                          "ran")
        texts.append(text)
    return texts, ""


def load_record(case: str | os.PathLike[str],
                overrides: Mapping[str, Any] | Sequence[str] | None,
                loaded: Any) -> dict[str, Any]:
    """What a case was loaded from, taken as it is loaded (``rc.load_case``): the case as
    given (name or path), its file, the overrides as given and in order, and the files
    read with their SHA-256 (:func:`files_read`)."""
    from rocking_contact.config import as_dict

    case_file = Path(loaded.load_info.source_file)
    return {"case": os.fspath(case), "case_file": str(case_file.resolve()),
            "overrides": overrides if overrides is not None else [],
            "set": override_texts(overrides),
            "files": files_read(case_file, as_dict(loaded))}


def rerun_command(case: str, texts: Sequence[str], out: Path | None, ranks: int = 1,
                  command: str = "run") -> str:
    """``rocking-contact run <case> --set k=v ... --out <out>``, quoted for a POSIX shell,
    after ``mpiexec -n <ranks>`` for more than one rank (a mesh partitioned otherwise sums
    in another order: the same numbers to round-off, not to the byte); ``command`` in
    place of ``run`` (``rigid``: the rigid twin of a block case)."""
    launcher = ["mpiexec", "-n", str(ranks)] if ranks > 1 else []
    words = [*launcher, PROGRAM, command, case, *[w for t in texts for w in ("--set", t)]]
    return shlex.join(words + (["--out", str(out)] if out is not None else []))


def checkout() -> dict[str, Any] | None:
    """The git commit of the checkout this package is imported from, and whether its
    tracked files differ from it (``dirty``; untracked files are not counted, the first
    :data:`DIRTY_LISTED` changed ones listed); None when the package is not in a
    checkout or git is not there. Two ``git`` calls of a few ms; a git that fails or
    hangs (5 s) gives ``commit`` None, never a failed run."""
    root = Path(__file__).resolve().parents[1]
    git = shutil.which("git")
    if git is None or not (root / ".git").exists():
        return None
    try:
        commit = subprocess.run([git, "-C", str(root), "rev-parse", "HEAD"], check=True,
                                capture_output=True, text=True, timeout=5).stdout.strip()
        status = subprocess.run([git, "-C", str(root), "status", "--porcelain",
                                 "--untracked-files=no"], check=True, capture_output=True,
                                text=True, timeout=5).stdout.splitlines()
    except (OSError, subprocess.SubprocessError) as exc:
        return {"root": str(root), "commit": None, "error": str(exc).splitlines()[0]}
    return {"root": str(root), "commit": commit, "dirty": bool(status),
            "changed": status[:DIRTY_LISTED]}


def run_record(case: Any, out: Path | None, *, ranks: int, changed_after_loading: bool,
               started: str) -> dict[str, Any]:
    """The ``provenance`` of a run as it starts (its ``ended`` is set as it ends): when it
    started (UTC), the command line (:func:`command_line`), the working directory, what
    the case was loaded from (:func:`load_record`, None for a case built in code), the
    package's version and checkout (:func:`checkout`), the MPI ranks, and ``rerun``: the
    ``rocking-contact run`` command line that runs the same inputs into ``out`` again
    (``rigid`` for a loading record whose ``command`` says so: a rigid twin), from the
    same working directory (None, with ``rerun_note`` saying why, when there is
    none: a case built in code, changed after loading, or given overrides that ``--set``
    cannot spell)."""
    from rocking_contact.config import loading_record, source_file

    loaded = loading_record(case)
    if loaded is None:
        source = source_file(case)
        loaded = {"case": None, "case_file": None if source is None else str(source),
                  "overrides": None, "files": [],
                  "set": (None, "the case was not loaded by rc.load_case (built in code, or "
                                "derived from another case): its inputs are unknown")}
    texts, why = loaded["set"]
    if changed_after_loading:
        texts, why = None, ("the case was changed after loading (an attribute set in "
                            "Python): only its parameters say what ran")
    record: dict[str, Any] = {
        "started": started, "ended": None,
        "rerun": None if texts is None else rerun_command(
            loaded["case"], texts, out, ranks, loaded.get("command", "run")),
        **({"rerun_note": why} if texts is None else {}),
        "argv": command_line(), "cwd": os.getcwd(),
        **{k: v for k, v in loaded.items() if k != "set"},
        "version": package_version(), "checkout": checkout(), "mpi_ranks": ranks}
    return record


#: how the status of a run stopped by Ctrl-C or SIGTERM begins
#: (:class:`rocking_contact.interrupt.Stop`)
INTERRUPTED = "interrupted at t = "


def ended(provenance: Mapping[str, Any], result: Any) -> dict[str, Any]:
    """The ``provenance`` of a run as it ends: the record it started with
    (:func:`run_record`), ``ended`` now (UTC) and, for a run interrupted (Ctrl-C, SIGTERM:
    its ``status`` ``interrupted at t = ... s``) that has a ``rerun``, a ``rerun_note``
    saying what that command does not reproduce: the stop, which no input records. The
    rerun runs to ``time.end``; its ``history.csv`` starts with this run's rows, byte for
    byte, up to the stop, the row of the stop itself only where ``output.every`` records
    that step (so on SDNV105 D and A and SDND101 A). A run that failed or overturned stops
    at the same step again.

    Args:
        provenance: the record the run started with.
        result: the :class:`~rocking_contact.results.RunResult` (``status``, ``history``
            and ``parameters``).

    """
    out = {**provenance, "ended": utc_now()}
    history = getattr(result, "history", None) or {}
    if (out.get("rerun") is None or not str(result.status).startswith(INTERRUPTED)
            or not len(history.get("time", ()))):
        return out
    stop = float(history["time"][-1])
    end = result.parameters.get("time", {}).get("end")
    to_end = f" (time.end = {end:g} s)" if isinstance(end, int | float) else ""
    out["rerun_note"] = (f"this run was interrupted at t = {stop:.9g} s; rerun runs it to its "
                         f"end{to_end}: its history.csv starts with this one's rows, byte for "
                         f"byte, up to t = {stop:.9g} s (the row of the stop itself where "
                         "output.every records that step)")
    return out


def package_version() -> str:
    """The installed version of the package (its metadata's), or ``not installed``."""
    try:
        return metadata.version("rocking-contact")
    except metadata.PackageNotFoundError:
        return "not installed"
