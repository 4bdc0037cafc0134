"""The results directories a report reads, and those it has to skip.

A directory the report cannot read (a truncated ``results.json``, a run killed before it
wrote one) is skipped with its reason, so that one damaged run does not hide the others;
the report lists it. A ``history.csv`` that is missing or unreadable does not skip its
run: the run is reported from its ``results.json``, and its section says why it has no
plots. Only a name that is nowhere (a mistyped case) is bad input.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from rocking_contact import results_io
from rocking_contact.config import CaseError
from rocking_contact.config.loading import run_first_hint
from rocking_contact.results_io import read_results


class ReportError(ValueError):
    """Nothing to report on, or a case without results (one line for the user)."""


@dataclass
class CaseResult:
    """A results directory, read.

    Attributes:
        key: what tells this result from the others of the report: its HTML ids and its
            figures directory (the case name, unless another directory holds a run of the
            same case; see :func:`assign_keys`).
        label: its title in the report (the case name, with its directory if another
            directory holds a run of the case too or if the directory has another name).
        history_problem: why ``history`` is empty (``history.csv: missing``), if it is.

    """

    directory: Path
    data: dict[str, Any]
    history: dict[str, np.ndarray]
    key: str = ""
    label: str = ""
    history_problem: str = ""

    def __post_init__(self) -> None:
        self.key, self.label = self.key or self.name, self.label or self.name

    @property
    def name(self) -> str:
        """The case name."""
        return str(self.data["case"])


@dataclass(frozen=True)
class Skipped:
    """A results directory the report could not read, and why."""

    directory: Path
    reason: str


def _slug(text: str) -> str:
    """``text`` reduced to characters safe in an HTML id and a file name."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-") or "x"


def assign_keys(found: Sequence[CaseResult]) -> None:
    """Give every result a unique key and label.

    Two directories may hold runs of one case (``results/sdnd100a`` and a variant run
    written to ``results/sdnd100a_step1e-4``): keyed by the case name alone they would
    share their ids and their figures directory. Those get ``<case>--<directory name>``
    (a number appended if that is still taken) and their directory in their label, as
    does a run in a directory not named after its case.
    """
    shared = {name for name, n in Counter(r.name for r in found).items() if n > 1}
    taken: set[str] = set()
    for r in found:
        key = r.name
        if r.name in shared:
            key = r.name if r.directory.name == r.name else f"{r.name}--{_slug(r.directory.name)}"
        base, k = key, 2
        while key in taken:
            key, k = f"{base}-{k}", k + 1
        taken.add(key)
        r.key = key
        # a directory of another name holds another run than the case's own (a slender
        # block run as `sdnv105d --set geometry.half_width=0.1 --out slender_d`)
        named = r.name in shared or r.directory.name != r.name
        r.label = f"{r.name} ({r.directory})" if named else r.name


def _reason(exc: CaseError) -> str:
    """A load error without its directory: ``results.json: not valid JSON: ...``."""
    where = Path(exc.file).name + (f": {exc.key}" if exc.key else "")
    return f"{where}: {exc.problem}"


def read_result(directory: Path) -> CaseResult:
    """Read one results directory; a bad ``history.csv`` leaves the history empty.

    Raises:
        rocking_contact.config.CaseError: no readable ``results.json``.

    """
    if not (directory / results_io.RESULTS_FILE).is_file():
        killed = (directory / results_io.HISTORY_FILE).is_file()
        runs = [] if killed else _run_dirs(directory)
        raise CaseError(str(directory / results_io.RESULTS_FILE), "", "missing" + (
            " beside history.csv: the run was killed before it wrote its results"
            if killed else
            f" (a parent of {len(runs)} results directories: give it as --results "
            f"{directory})" if runs else " (not a results directory)"))
    try:
        data, history = results_io.load(directory)
    except CaseError as exc:
        if Path(exc.file).name != results_io.HISTORY_FILE:
            raise
        # load() checks results.json before it reads the history: it is valid.
        data = read_results(directory)
        return CaseResult(directory, data, {}, history_problem=_reason(exc))
    missing = "" if history else f"{results_io.HISTORY_FILE}: missing"
    return CaseResult(directory, data, history, history_problem=missing)


def _named_dirs(results_dir: Path, cases: Sequence[str]) -> list[Path]:
    """The directories of the named cases (directories, or names under ``results_dir``).

    Raises:
        ReportError: a name that is neither (a mistyped case).

    """
    dirs = []
    for case in cases:
        # a directory with results first, then any directory of that name, to be skipped
        # with its reason
        candidates = [p for p in (Path(case), results_dir / case) if p.exists()]
        ready = [p for p in candidates if (p / results_io.RESULTS_FILE).is_file()]
        if not candidates and Path(case).name != case:  # a path, not a case name
            raise ReportError(f"{case}: no such directory ({results_io.RESULTS_DIRECTORY}, "
                              f"or a case name under --results {results_dir})")
        if not candidates:
            raise ReportError(f"{case}: no results in {results_dir / case} "
                              f"{run_first_hint(case, results_dir)}")
        dirs.append((ready or candidates)[0])
    return list({d.resolve(): d for d in dirs}.values())  # a directory named twice: once


def _run_dirs(results_dir: Path) -> list[Path]:
    """The subdirectories of ``results_dir`` that hold a run, read or not: a
    ``results.json``, or a ``history.csv`` alone (a run killed before it finished)."""
    return sorted(p for p in Path(results_dir).glob("*/") if p.is_dir() and any(
        (p / name).is_file() for name in (results_io.RESULTS_FILE, results_io.HISTORY_FILE)))


def find_results(results_dir: Path,
                 cases: Sequence[str] = ()) -> tuple[list[CaseResult], list[Skipped]]:
    """The results to report on: the named cases (names or directories), else every
    run directory under ``results_dir`` (or ``results_dir`` itself when it is one run's);
    and those that could not be read.

    Raises:
        ReportError: a named case that is nowhere, no run directory at all, or none that
            could be read.

    """
    if not cases and not Path(results_dir).is_dir():  # not "no results": nothing there
        what = "not a directory" if Path(results_dir).exists() else "no such directory"
        raise ReportError(f"{results_dir}: {what} (allowed: for --results, the directory the "
                          "runs wrote under, `results` by default; no run yet: run "
                          "`rocking-contact validate` first)")
    dirs = _named_dirs(results_dir, cases) if cases else _run_dirs(results_dir)
    if not dirs and not cases and (Path(results_dir) / results_io.RESULTS_FILE).is_file():
        dirs = [Path(results_dir)]  # --results given one run's directory: that run
    if not dirs:
        raise ReportError(f"{results_dir}: no results (run `rocking-contact validate` first)")
    found: list[CaseResult] = []
    skipped: list[Skipped] = []
    for d in dirs:
        try:
            found.append(read_result(d))
        except CaseError as exc:
            skipped.append(Skipped(d, _reason(exc)))
    if not found:
        raise ReportError("no results could be read: " + "; ".join(
            f"{s.directory}: {s.reason}" for s in skipped))
    assign_keys(found)
    return found, skipped
