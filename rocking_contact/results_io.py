"""The files a run's results are written to, and read back from.

:func:`write` puts a :class:`~rocking_contact.results.RunResult` in a directory as

- ``results.json``: ``case``, ``kind``, ``status``, ``parameters`` (fully resolved),
  ``quantities`` (name -> value), ``impacts``, ``collisions``, ``checks``, ``timing``
  (``wall_s``, ``steps``, ...), kind-specific ``extra`` data and the ``stack`` it ran on
  (component -> version, :mod:`rocking_contact.provenance`), ``warnings`` (sentences
  about the run that no reference check covers, e.g. energy created by the numerics) and
  its ``provenance`` (dates, command line, input files and their SHA-256, checkout, the
  ``rerun`` command line);
- ``history.csv``: a ``time`` column then one column per recorded quantity, named
  ``<COMPONENT>_<NODE>`` in Code_Aster style (``DX_NO2``, ``VX_NO2``, ``FN_NO1``);
- plots of the main time histories (PNG, SVG).

A block run streams its field frames too; :class:`FieldIndex` keeps their index
``fields.pvd`` current as they are written (:func:`collection_xml`).

:func:`load` reads a directory back as JSON content and columns
(:func:`~rocking_contact.results.load_result`, as the :class:`RunResult`); :func:`set_aside`
moves an earlier run's files out of the way as a new run starts (:func:`restore` puts them
back if it computes nothing, :func:`discard` deletes them once it has computed).

``results.json`` and ``history.csv`` are written first, each through a temporary file and
:func:`os.replace`, so that a run stopped while its plots are drawn (a second Ctrl-C, a
scheduler's kill after its grace period) keeps its results whole; the plots follow.
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import time
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from rocking_contact.results import RunResult

RESULTS_FILE = "results.json"
HISTORY_FILE = "history.csv"
#: what a file is written to before it replaces the file of its name (an atomic rename)
PARTIAL_SUFFIX = ".partial"
#: the folder the plots are drawn in before they are moved beside results.json
PLOTS_STAGING = "plots" + PARTIAL_SUFFIX
#: how ``history.csv`` writes a value (printf style): eleven significant digits. The block's
#: history is streamed row by row (:class:`~rocking_contact.solvers.history.History`) and
#: rewritten by :func:`write_history_csv` at the end of the run: both use this format and
#: :func:`history_names`, so that the two texts agree byte for byte
HISTORY_FORMAT = "%.10e"


def history_names(keys: Iterable[str]) -> list[str]:
    """The columns of ``history.csv`` in their order: ``time``, then the other ``keys`` as
    they come."""
    return ["time"] + [k for k in keys if k != "time"]


def write_history_csv(history: dict[str, np.ndarray], path: Path) -> None:
    """Write the history columns (``time`` first) as CSV with full precision."""
    names = history_names(history)
    data = np.column_stack([np.asarray(history[k], dtype=float) for k in names])
    np.savetxt(path, data, delimiter=",", header=",".join(names), comments="",
               fmt=HISTORY_FORMAT)


def read_history_csv(path: Path) -> dict[str, np.ndarray]:
    """Read a ``history.csv`` back into columns."""
    with open(path) as fh:
        names = fh.readline().strip().split(",")
    data = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2)
    return {name: data[:, i] for i, name in enumerate(names)}


def write(result: RunResult, out_dir: Path, *, plots: bool = True) -> Path:
    """Write ``history.csv`` and ``results.json`` into ``out_dir``, then the plots
    (:func:`write_plots`, which lists them in ``results.json``)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    if result.history:
        partial = partial_path(out_dir / HISTORY_FILE)
        write_history_csv(result.history, partial)
        os.replace(partial, out_dir / HISTORY_FILE)
    _write_json(result, out_dir, plots=[])
    if plots:
        write_plots(result, out_dir)
    return out_dir


def write_plots(result: RunResult, out_dir: Path) -> list[str]:
    """Draw the plots of a result whose ``results.json`` is written and list them in it
    (``plots``), so that the next run into the same directory takes them (:func:`set_aside`).

    They are drawn in :data:`PLOTS_STAGING` and moved beside ``results.json`` when all are
    drawn: a drawing cut short (``KeyboardInterrupt``) leaves no plot that ``results.json``
    does not list, and a killed one only that folder, which the next run removes.
    Returns the plots' file names.
    """
    if not result.history:
        return []
    from rocking_contact.post import plots as plotting

    staging = out_dir / PLOTS_STAGING
    shutil.rmtree(staging, ignore_errors=True)
    try:
        drawn = plotting.plot_run(result, staging)
        for path in drawn:
            os.replace(path, out_dir / path.name)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    names = ordered_plots(p.name for p in drawn)
    _write_json(result, out_dir, plots=names)
    return names


#: the plots of a run in the order a reader takes them (``results.json`` ``plots``, the
#: report): what the block does (its kinetic energy, the contact forces, the motion, the
#: energy balance, the impulses), then the other recorded quantities (``history_THETA``),
#: then the solver's diagnostics (:data:`SOLVER_DIAGNOSTICS`). A stem not named here is
#: one of the other quantities
PLOT_ORDER = ("kinetic_energy", "reactions", "shock_force", "displacement", "velocity",
              "energy_balance", "impulses")
#: the history components whose plots (``history_<C>``) tell how the solver worked, not
#: what the block did: the time step, the iteration counts, the contact counts and the
#: smallest gap, in that order, after every other plot
SOLVER_DIAGNOSTICS = ("DT", "NEWTON", "CONTACT_ITERATIONS", "CONTACTS", "SLIDING", "GAP_MIN")
#: stems drawn after the other quantities and before the diagnostics
_LAST_OF_RUN = ("impact_histogram",)


def is_solver_diagnostic(stem: str) -> bool:
    """Whether the plot ``stem`` (``history_DT``) is one of the solver's diagnostics."""
    return stem.startswith("history_") and stem.removeprefix("history_") in SOLVER_DIAGNOSTICS


def plot_rank(name: str) -> tuple[int, int, str, bool, str]:
    """Sort key of a plot file name (``reactions.png``) in :data:`PLOT_ORDER`: the named
    figures first in that order, the other quantities by name, :data:`_LAST_OF_RUN`, the
    diagnostics in :data:`SOLVER_DIAGNOSTICS` order; a figure's PNG before its SVG."""
    path = Path(name)
    stem, suffix = path.stem, path.suffix
    if stem in PLOT_ORDER:
        group, place = 0, PLOT_ORDER.index(stem)
    elif is_solver_diagnostic(stem):
        group, place = 3, SOLVER_DIAGNOSTICS.index(stem.removeprefix("history_"))
    elif stem in _LAST_OF_RUN:
        group, place = 2, _LAST_OF_RUN.index(stem)
    else:
        group, place = 1, 0
    return group, place, stem, suffix != ".png", suffix


def ordered_plots(names: Iterable[str]) -> list[str]:
    """Plot file names in the order a reader takes them (:func:`plot_rank`), whether
    drawn by the run or by the report, whatever order they come in."""
    return sorted(names, key=plot_rank)


def partial_path(path: Path) -> Path:
    """Where ``path`` is written before it replaces the file of its name."""
    return path.with_name(path.name + PARTIAL_SUFFIX)


def _write_json(result: RunResult, out_dir: Path, *, plots: list[str]) -> None:
    """``results.json``, atomically: a reader or a kill never meets half a file."""
    partial = partial_path(out_dir / RESULTS_FILE)
    with open(partial, "w", encoding="utf-8") as fh:
        json.dump({**result.to_json(), "plots": plots}, fh, indent=2)
        fh.write("\n")
    os.replace(partial, out_dir / RESULTS_FILE)


class FieldIndex:
    """The VTK collection ``fields.pvd`` of the frames that DOLFINx's ``VTKFile`` of that
    name writes (``<stem>NNNNNN.pvtu`` in order), kept current while the run goes: DOLFINx
    writes it only when the file is closed, which a killed run never does.

    Rewritten atomically after a frame, at most once per ``interval`` (s of wall time): a
    rewrite takes 0.3 ms, plus 1 ms per thousand frames, and a frame every step would
    make it grow with the square of the steps. A kill loses the last ``interval`` of
    frames from the index, not their files.
    """

    def __init__(self, path: Path, interval: float = 1.0):
        self.path, self.interval = path, interval
        self.times: list[float] = []
        self._due = 0.0

    def add(self, t: float) -> None:
        """A frame at ``t`` (s) was written; rewrite the index if it is due."""
        self.times.append(float(t))
        now = time.monotonic()
        if now >= self._due:
            self._due = now + self.interval
            self.write()

    def write(self) -> None:
        """Rewrite the index with every frame so far.

        Raises:
            OSError: it could not be written (a full disk), naming ``fields.pvd`` (the
                flush's error names no file); the index already there stays, the partial
                one goes.

        """
        partial = partial_path(self.path)
        try:
            partial.write_text(collection_xml(
                [(t, f"{self.path.stem}{i:06d}.pvtu") for i, t in enumerate(self.times)]),
                encoding="utf-8")
        except OSError as exc:
            partial.unlink(missing_ok=True)
            if exc.filename is None:
                exc.filename = str(self.path)
            raise
        os.replace(partial, self.path)


def collection_xml(entries: list[tuple[float, str]]) -> str:
    """A VTK collection (``.pvd``) of ``(time (s), dataset file)`` entries."""
    lines = ['<?xml version="1.0"?>', '<VTKFile type="Collection" version="1.0">',
             "  <Collection>"]
    lines += [f'    <DataSet timestep="{t!r}" part="0" file="{name}" />' for t, name in entries]
    lines += ["  </Collection>", "</VTKFile>", ""]
    return "\n".join(lines)


#: what a run writes besides its plots: results, history, the field series (VTK: the
#: ``fields.pvd`` index, a ``fieldsNNNNNN.pvtu`` per frame and a ``fields_pR_NNNNNN.vtu`` per
#: rank and frame; XDMF: ``fields.xdmf`` and ``fields.h5``), and the files a killed run may
#: leave half written. Patterns as narrow as those names: a user's ``fields_survey.csv``
#: beside the results stays.
RUN_FILES = (RESULTS_FILE, HISTORY_FILE, "fields.pvd", "fields.xdmf", "fields.h5",
             "fields[0-9]*.pvtu", "fields[0-9]*.vtu", "fields_p[0-9]*_[0-9]*.vtu",
             *(name + PARTIAL_SUFFIX for name in (RESULTS_FILE, HISTORY_FILE, "fields.pvd")))


#: the hidden folder of a results directory that holds an earlier run's files while a new
#: run computes (:func:`set_aside`): back in place if that run computes nothing
#: (:func:`restore`), deleted when its computation ends, however (:func:`discard`); one a
#: killed run left goes with the next run's :func:`set_aside`, or comes back if the killed
#: run left nothing it computed (:func:`only_started`). A name no
#: user picks, and marked (:data:`REPLACED_MARK`): a folder of that name without the mark
#: is the user's, and stays
REPLACED = ".rocking-contact-replaced"
#: the file :func:`set_aside` writes first in :data:`REPLACED`: the folder is a run's
REPLACED_MARK = "set-aside-by-rocking-contact"
#: what the mark says while the earlier run's files move into the folder or back out of
#: it: a run killed then left them in two halves, which the next run joins again in the
#: results directory (:func:`set_aside`)
MOVING = ("moving: an earlier run's results, on their way into this folder or back out "
          "of it; the next run into this directory puts them back\n")
#: what it says once they are all in the folder (any text but :data:`MOVING`: an empty
#: mark too)
SET_ASIDE = ("an earlier run's results, set aside by a new run into this directory; "
             "deleted as it ends\n")


def _earlier_run(out_dir: Path) -> tuple[list[Path], list[tuple[Path, list[Path]]]]:
    """The files of the run in ``out_dir``, which the next run there takes
    (:func:`set_aside`; the results directory holds one run: frames or plots left from a
    longer run would be read as this one's), and only those a run writes: the entries of
    ``out_dir`` (:data:`RUN_FILES`, the plots its ``results.json`` lists, the folder of
    plots a killed run was drawing, :data:`PLOTS_STAGING`), and each report of that run
    alone drawn inside it (:func:`own_reports`) with the files it wrote that are there."""
    names: list[str] = []
    try:
        with open(out_dir / RESULTS_FILE, encoding="utf-8") as fh:
            listed = json.load(fh).get("plots", [])
        names = [n for n in listed if isinstance(n, str) and Path(n).name == n]
    except (OSError, ValueError, AttributeError):
        pass  # no earlier results.json, or not one a run wrote: its plots are unknown
    # the plots by their names, not as patterns: a results.json listing "*.txt" took the
    # user's text files with it
    entries = list(dict.fromkeys([*(p for pattern in RUN_FILES for p in out_dir.glob(pattern)
                                    if p.is_file()),
                                  *(out_dir / n for n in names if (out_dir / n).is_file())]))
    if (out_dir / PLOTS_STAGING).is_dir():
        entries.append(out_dir / PLOTS_STAGING)
    reports = []
    for report, files in own_reports(out_dir):
        root = report.resolve()
        reports.append((report, [p for p in (report / f for f in files)
                                 if p.is_file() and root in p.resolve().parents]))
    return entries, reports


def _remove_run(out_dir: Path) -> list[Path]:
    """Remove what :func:`_earlier_run` finds; returns it."""
    entries, reports = _earlier_run(out_dir)
    for path in entries:
        if path.is_dir():
            shutil.rmtree(path)
        else:
            path.unlink()
    for report, files in reports:
        for path in files:
            path.unlink()
        _remove_emptied(report, files)
    return entries + [p for _, files in reports for p in files]


def set_aside(out_dir: Path) -> list[Path]:
    """Move an earlier run's files (:func:`_earlier_run`) into :data:`REPLACED`
    inside ``out_dir``, each at its path relative to ``out_dir``: renames on the same file
    system, which a full disk does not stop. All or none: stopped as it moves them (a
    second Ctrl-C, an error), it moves back those it moved. Returns the files and folders
    moved, where they were.

    What a killed run left is dealt with first. A folder whose mark says :data:`MOVING`
    (killed as its files went in, or came back out: :func:`restore`) is put back, the two
    halves joined. Another marked folder is removed with the run beside it, or put back
    (:func:`restore`) when that run left nothing it computed (:func:`only_started`, or
    no file at all: killed before it wrote the ``results.json`` saying it started): they
    are then the results the directory holds, and are set aside in turn. A folder of that
    name holding nothing (killed before its mark was written) is removed.

    SIGKILL at any point loses nothing that is to be kept: the mark is written (through a
    rename) before the first file moves and says :data:`SET_ASIDE` after the last. One
    thing may stay of the run whose results were put back by a :func:`restore` killed
    before it removed that run's files: a file of it that the earlier run does not have
    (a ``history.csv`` without rows beside results of a run that stopped before its
    first step); its ``results.json`` is replaced by the earlier one."""
    aside = out_dir / REPLACED
    _drop_unmarked_empty(aside)
    if _marked(aside):
        if _moving(aside):
            _put_back(aside, out_dir)
        elif only_started(out_dir) or not any(_earlier_run(out_dir)):
            restore(out_dir)  # killed before its run started, or before it computed
        else:
            discard(out_dir)
    entries, reports = _earlier_run(out_dir)
    moved = entries + [p for _, files in reports for p in files]
    if not moved:
        return []
    if aside.exists():  # the user's (discard removed a run's): the earlier run goes
        _remove_run(out_dir)
        return []
    aside.mkdir()
    _mark(aside, MOVING)
    try:
        for path in moved:
            target = aside / path.relative_to(out_dir)
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(path, target)
    except BaseException:
        _put_back(aside, out_dir)
        raise
    _mark(aside, SET_ASIDE)
    for report, files in reports:
        _remove_emptied(report, files)
    return moved


def restore(out_dir: Path) -> list[Path]:
    """Undo :func:`set_aside` for a run that computed nothing (refused as it set up,
    stopped before its runner started, or :func:`only_started`): remove what that run
    wrote (its ``results.json`` saying it started; :func:`_earlier_run`'s selection), then
    move the earlier run's files back, as they were. Returns the files moved back."""
    aside = out_dir / REPLACED
    if not _marked(aside):
        _remove_run(out_dir)
        return []
    # said before anything goes: killed from here on, the next run puts them back
    _mark(aside, MOVING)
    _remove_run(out_dir)
    back = sorted(p.relative_to(aside) for p in aside.rglob("*") if p.is_file())
    _put_back(aside, out_dir)
    return [out_dir / p for p in back if p.as_posix() not in _MARKS]


#: the mark and the file it is written through
_MARKS = (REPLACED_MARK, REPLACED_MARK + PARTIAL_SUFFIX)


def _mark(aside: Path, text: str) -> None:
    """Write ``text`` as the mark of ``aside``, through a rename: a kill leaves the
    mark there before it, or this one, whole."""
    partial = aside / _MARKS[1]
    partial.write_text(text, encoding="utf-8")
    os.replace(partial, aside / REPLACED_MARK)


def _moving(aside: Path) -> bool:
    """Whether the mark of ``aside`` says its files are moving (:data:`MOVING`)."""
    try:
        return (aside / REPLACED_MARK).read_text(encoding="utf-8") == MOVING
    except (OSError, ValueError):
        return False


def _put_back(aside: Path, out_dir: Path) -> None:
    """Move what the marked folder ``aside`` holds back into ``out_dir``, the mark last
    (killed on the way, the next run goes on with it), the folder removed."""
    for entry in sorted(aside.iterdir()):
        if entry.name not in _MARKS:
            _move_back(entry, out_dir / entry.name)
    _unmark(aside)


def _unmark(aside: Path) -> None:
    """Remove the mark of ``aside``, emptied, and the folder."""
    for name in reversed(_MARKS):
        (aside / name).unlink(missing_ok=True)
    aside.rmdir()


def _drop_unmarked_empty(aside: Path) -> None:
    """Remove ``aside`` if it holds nothing but the file its mark is written through: a
    run killed between making it and marking it, or after emptying it."""
    if aside.is_dir() and {p.name for p in aside.iterdir()} <= {_MARKS[1]}:
        _unmark(aside)


def _move_back(source: Path, target: Path) -> None:
    """Move ``source`` to ``target``; a folder into a folder of that name that exists
    (a report's, which still holds files of its own), entry by entry."""
    if source.is_dir() and target.is_dir():
        for entry in sorted(source.iterdir()):
            _move_back(entry, target / entry.name)
        source.rmdir()
    else:
        os.replace(source, target)


def discard(out_dir: Path) -> list[Path]:
    """Delete the earlier run's files that :func:`set_aside` moved, when the computation
    of the run that replaces them ends, whichever way (or, that run killed, as the next
    one starts). Returns the folder if there was one; a folder of that name without
    :data:`REPLACED_MARK` is not a run's and stays."""
    aside = out_dir / REPLACED
    if not _marked(aside):
        return []
    # the mark last: killed on the way, the folder is still a run's, for the next to delete
    for entry in aside.iterdir():
        if entry.name in _MARKS:
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry)
        else:
            entry.unlink()
    _unmark(aside)
    return [aside]


def only_started(out_dir: Path) -> bool:
    """Whether the run in ``out_dir`` left nothing it computed: its ``results.json`` is the
    one written as it started (status :data:`~rocking_contact.results.STARTED`) and, of
    the run's files (:func:`_earlier_run`), nothing else but a ``history.csv`` without a row
    (opened, its first rows not yet flushed). So is a run killed (SIGKILL, out of memory)
    or ended by an error as it set up, and a discrete or rigid run, which writes its
    history as it ends, killed or ended by an error during its steps."""
    from rocking_contact.results import STARTED

    entries, reports = _earlier_run(out_dir)
    if any(files for _, files in reports) or out_dir / RESULTS_FILE not in entries:
        return False
    for path in entries:
        if path.name == HISTORY_FILE:
            with open(path, "rb") as fh:
                if len(fh.read(1 << 16).splitlines()) > 1:
                    return False
        elif path.name != RESULTS_FILE:
            return False
    try:
        with open(out_dir / RESULTS_FILE, encoding="utf-8") as fh:
            return bool(json.load(fh).get("status") == STARTED)
    except (OSError, ValueError, AttributeError):  # not a results.json a run wrote
        return False


def _marked(aside: Path) -> bool:
    """Whether ``aside`` is a folder :func:`set_aside` made (it holds the mark)."""
    return aside.is_dir() and (aside / REPLACED_MARK).is_file()


#: the page of a report (``rocking-contact report``), whose head names what it was drawn
#: from and the files it wrote in a ``<meta name=REPORT_META content=...>`` (JSON)
REPORT_INDEX = "index.html"
REPORT_META = "rocking-contact-report"
_REPORT_HEAD = re.compile(r'<meta name="' + REPORT_META + r'" content="([^"]*)">')
#: how much of a page is read for its meta: it comes first in the head
_REPORT_HEAD_CHARS = 1 << 20


def report_meta(results: list[Path], files: list[str]) -> str:
    """The ``<meta>`` of a report drawn from the results directories ``results`` that wrote
    ``files`` (relative to the report directory, ``/``-separated)."""
    content = json.dumps({"results": [str(Path(r).resolve()) for r in results],
                          "files": files})
    return f'<meta name="{REPORT_META}" content="{html.escape(content)}">'


def own_reports(out_dir: Path) -> list[tuple[Path, list[str]]]:
    """The reports drawn inside ``out_dir`` of the run there alone (the Ctrl-C hint's
    ``report DIR --out DIR/report``), with the files each wrote: a subdirectory whose
    :data:`REPORT_INDEX` carries the report's meta naming ``out_dir`` as its only results.
    A report of several runs, a page without the meta (a user's) is none."""
    reports = []
    subdirectories = sorted(p for p in out_dir.iterdir() if p.is_dir()) if out_dir.is_dir() \
        else []
    for sub in subdirectories:
        try:
            with open(sub / REPORT_INDEX, encoding="utf-8") as fh:
                m = _REPORT_HEAD.search(fh.read(_REPORT_HEAD_CHARS))
            meta = json.loads(html.unescape(m.group(1))) if m else None
        except (OSError, ValueError):
            continue
        if not isinstance(meta, dict) or meta.get("results") != [str(out_dir.resolve())]:
            continue
        files = meta.get("files")
        if isinstance(files, list) and all(isinstance(f, str) for f in files):
            reports.append((sub, files))
    return reports


def _remove_emptied(report: Path, files: list[Path]) -> None:
    """Remove the folders of ``report`` (itself included) that the report's ``files``,
    removed or moved, leave empty; one holding a file added since stays."""
    for folder in sorted({p.parent for p in files}, key=lambda p: -len(p.parts)):
        while folder != report.parent and folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()
            folder = folder.parent


#: entries of results.json that the viewer and the report read as JSON objects / arrays
RESULTS_OBJECTS = ("parameters", "quantities", "timing", "extra", "stack", "provenance")
RESULTS_ARRAYS = ("checks", "collisions", "impacts", "warnings")


#: what a results directory is, as the errors of :func:`read_results` say it
RESULTS_DIRECTORY = "allowed: a results directory written by run, rigid, sweep or rc.run"


def read_results(result_dir: str | os.PathLike[str]) -> dict[str, Any]:
    """The ``results.json`` content of a results directory: a JSON object with its case
    name, whose entries that are tables and arrays (:data:`RESULTS_OBJECTS`,
    :data:`RESULTS_ARRAYS`) are so. The reader of :func:`load` (the viewer, the report,
    :func:`~rocking_contact.results.load_result`) and of ``rocking-contact compare``.

    Raises:
        CaseError: no such directory, no ``results.json`` in it, or one that is not what a
            run writes: one line naming the directory or the file.

    """
    from rocking_contact.config import CaseError

    folder = Path(result_dir)
    if not folder.is_dir():
        what = "a file, not a directory" if folder.exists() else "no such directory"
        raise CaseError(str(result_dir), "", f"{what} ({RESULTS_DIRECTORY})")
    path = folder / RESULTS_FILE
    what = "allowed: the results.json a run writes"
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except FileNotFoundError:
        raise CaseError(str(result_dir), "", f"no {RESULTS_FILE} in it: not a results "
                        f"directory ({RESULTS_DIRECTORY})") from None
    except OSError as exc:
        raise CaseError(str(path), "", f"cannot read: {exc.strerror}") from None
    except ValueError as exc:  # JSONDecodeError, UnicodeDecodeError
        raise CaseError(str(path), "", f"not valid JSON: {exc} ({what})") from None
    if not isinstance(data, dict):
        raise CaseError(str(path), "", f"a JSON {json_type(data)}, not an object ({what})")
    if not isinstance(data.get("case"), str):
        got = "missing" if "case" not in data else f"a JSON {json_type(data['case'])}"
        raise CaseError(str(path), "case", f"{got}, expected the case name ({what})")
    for key, kind, wanted in ([(k, dict, "object") for k in RESULTS_OBJECTS]
                              + [(k, list, "array") for k in RESULTS_ARRAYS]):
        if data.get(key) is not None and not isinstance(data[key], kind):
            raise CaseError(str(path), key, f"a JSON {json_type(data[key])}, expected an "
                            f"{wanted} ({what})")
    for key in ("checks", "collisions", "impacts"):
        if not all(isinstance(item, dict) for item in data.get(key) or []):
            raise CaseError(str(path), key, f"expected an array of objects ({what})")
    return data


def load(result_dir: str | os.PathLike[str]) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """Read a results directory: the ``results.json`` content (:func:`read_results`) and
    the history columns (empty without a ``history.csv``).

    A ``results.json`` or ``history.csv`` that is not what a run writes (edited, truncated,
    another program's) is a one-line :class:`~rocking_contact.config.CaseError` naming the
    file, where a traceback would come later from whatever reads it.
    """
    from rocking_contact.config import CaseError

    data = read_results(result_dir)
    path = Path(result_dir) / HISTORY_FILE
    if not path.exists():
        return data, {}
    what = "allowed: the history.csv a run writes, a header time,... then rows of numbers"
    try:
        with open(path, encoding="utf-8") as fh:
            header, first_row = fh.readline().strip(), fh.readline().strip()
    except (OSError, ValueError) as exc:  # ValueError: not UTF-8
        raise CaseError(str(path), "", f"cannot read: {getattr(exc, 'strerror', exc)}"
                        ) from None
    if header.split(",")[0] != "time":
        raise CaseError(str(path), "", f"header {header[:40]!r} does not start with time "
                        f"({what})")
    if not first_row:  # numpy would only warn, and every reader fail on empty columns
        raise CaseError(str(path), "", f"no rows after the header ({what})")
    try:
        history = read_history_csv(path)
    except OSError as exc:
        raise CaseError(str(path), "", f"cannot read: {exc.strerror}") from None
    except ValueError as exc:  # a value that is not a number, rows of unequal lengths
        reason = str(exc).split(";")[0]  # not numpy's advice on its own options
        raise CaseError(str(path), "", f"not a table of numbers: {reason} ({what})") from None
    except IndexError:  # rows shorter than the header
        raise CaseError(str(path), "", f"fewer values per row than header columns ({what})"
                        ) from None
    return data, history


def json_type(value: Any) -> str:
    """The JSON name of a parsed value's type, for messages."""
    names = {dict: "object", list: "array", str: "string", bool: "true/false",
             type(None): "null"}
    return names.get(type(value), "number")
