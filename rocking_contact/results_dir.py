"""An earlier run's files in a results directory: set aside as a new run there starts, put
back if that run computes nothing, deleted once it has computed.

A results directory holds one run: frames or plots left from a longer run would be read as
the new one's. :func:`set_aside` moves the files of the run there (:data:`RUN_FILES`, the
plots its ``results.json`` lists, the reports of that run alone drawn inside the directory,
:func:`~rocking_contact.report.meta.own_reports`) into the hidden folder :data:`REPLACED`;
:func:`restore` puts them back for a run that computed nothing (refused as it set up,
stopped before its runner started, :func:`only_started`), :func:`discard` deletes them when
the computation of the run that replaces them ends. :func:`rocking_contact.api.run` calls
them around a run; the files are those :mod:`rocking_contact.results_io` writes.

A killed run (SIGKILL, out of memory) loses nothing that is to be kept: the folder is
marked (:data:`REPLACED_MARK`) before a file moves, and the next run into the directory
finishes what the killed one left (:func:`set_aside`).

Where a command may write at all (``--out`` writable, made if missing) is checked before the
work by :mod:`rocking_contact.out_paths`, whatever the directory holds; this module is what
a run does with what it holds.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from rocking_contact.report.meta import own_reports
from rocking_contact.results_io import HISTORY_FILE, PARTIAL_SUFFIX, PLOTS_STAGING, RESULTS_FILE

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
    # the plots by their names, not as patterns: a results.json listing "*.txt" would take
    # the user's text files with it
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


def _remove_emptied(report: Path, files: list[Path]) -> None:
    """Remove the folders of ``report`` (itself included) that the report's ``files``,
    removed or moved, leave empty; one holding a file added since stays."""
    for folder in sorted({p.parent for p in files}, key=lambda p: -len(p.parts)):
        while folder != report.parent and folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()
            folder = folder.parent

