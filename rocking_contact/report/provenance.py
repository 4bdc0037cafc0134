"""Where the report and its runs came from, in words.

The report's own line (:func:`generated_text`: when, by which version and commit); a run's
provenance (results.json ``provenance``, docs/outputs.md: its version and commit, when it
ran, the command that runs it again: :func:`provenance_block`), the ``--set`` overrides it
was given as ``--set`` spells them (:func:`overrides_text`) and the stack it was computed
with against the report's (:func:`stack_note`). The stack itself and the records come from
:mod:`rocking_contact.provenance`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rocking_contact.blas import same_kernels
from rocking_contact.provenance import KERNELS, NOT_LOADED, override_texts
from rocking_contact.report.document import Cell, Paragraph, Table
from rocking_contact.results import STARTED
from rocking_contact.viz.changes import value_text


def generated_text(repository: Mapping[str, Any] | None, when: str, version: str) -> str:
    """When the report was made (``when``: UTC, ISO 8601) and from which code: ``Generated
    2026-11-24T03:10:00.000+00:00 by rocking-contact 0.1.0, commit 0575957..., with
    uncommitted changes``; each run's own commit is in its section's provenance."""
    return (f"Generated {when} by rocking-contact {version}, "
            f"{_commit_text(repository)}; each case's run gives its own in its provenance.")


def provenance_block(case: str, provenance: Mapping[str, Any]) -> Table | Paragraph:
    """Where a run came from (results.json ``provenance``, docs/outputs.md), compactly: the
    package version and the git commit it ran from, when it ran (UTC), and the command
    that runs it again, or why there is none; a run written before runs recorded their
    provenance says so."""
    if not provenance:
        return Paragraph("Provenance: not recorded by this run (results written before runs "
                         "recorded it).")
    rerun = provenance.get("rerun")
    rows = [[Cell("version"), Cell(f"rocking-contact {provenance.get('version', '?')}, "
                                   f"{_commit_text(provenance.get('checkout'))}")],
            [Cell("ran (UTC)"), Cell(_ran_text(provenance))]]
    if rerun:
        long = long_overrides(provenance)
        # a command of thousands of numbers (a record given as arrays): where it is
        shown = Cell(f"a command of {len(rerun)} characters, which writes out the value of "
                     f"{', '.join(long)}: results.json provenance.rerun") if long \
            else Cell(rerun, "code")
        # its case path, --out and records are relative to the directory it ran in
        rows += [[Cell("rerun"), shown],
                 [Cell("rerun in"), Cell(str(provenance.get("cwd", "?")), "code")]]
        if provenance.get("rerun_note"):  # an interrupted run: what the rerun reproduces
            rows.append([Cell("rerun note"), Cell(str(provenance["rerun_note"]))])
    else:
        rows.append([Cell("rerun"),
                     Cell(f"none: {provenance.get('rerun_note', 'not recorded')}")])
    return Table(f"provenance-{case}", "Provenance (results.json provenance)", ["", "value"],
                 rows)


#: the digits of a commit the report shows (git takes them for the commit)
COMMIT_DIGITS = 12


def _commit_text(checkout: Mapping[str, Any] | None) -> str:
    """The checkout a run was imported from in words: ``commit 0575957...`` with ``, with
    uncommitted changes`` when its tracked files differed."""
    if not checkout:
        return "not from a git checkout"
    commit = checkout.get("commit")
    if not commit:
        return f"commit unknown ({checkout.get('error', 'git failed')})"
    dirty = ", with uncommitted changes" if checkout.get("dirty") else ""
    return f"commit {str(commit)[:COMMIT_DIGITS]}{dirty}"


def _ran_text(provenance: Mapping[str, Any]) -> str:
    """``started to ended`` (ISO 8601, as recorded), on ``N`` MPI ranks if more than one;
    a run that never ended (killed, or running) says so."""
    ended = provenance.get("ended") or "not ended (still running, or killed)"
    ranks = provenance.get("mpi_ranks") or 1
    on = f", on {ranks} MPI ranks" if ranks > 1 else ""
    return f"{provenance.get('started', '?')} to {ended}{on}"


#: the longest value of an override the report writes out; a longer one (the samples of a
#: record given as arrays in Python) is said in words (:func:`~rocking_contact.viz.changes.
#: value_text`), and the run's rerun command, which spells it, is not printed
OVERRIDE_CHARS = 80


def long_overrides(provenance: Mapping[str, Any]) -> list[str]:
    """The keys of the overrides of a run whose value is longer than
    :data:`OVERRIDE_CHARS` as ``--set`` spells it."""
    return [key for key, text, _ in _given(provenance.get("overrides") or [])
            if len(text) > OVERRIDE_CHARS]


def overrides_text(provenance: Mapping[str, Any]) -> str:
    """The overrides of a run (results.json ``provenance.overrides``: the ``--set`` texts,
    or the mapping given to ``rc.run``) as ``--set key=value ...``, values spelled as
    ``--set`` reads them, one longer than :data:`OVERRIDE_CHARS` in words between angle
    brackets (``--set loading.table_acceleration_x=<table of 151 samples over 0-0.15 s>``,
    not its 302 numbers); empty for a run of its case file as written."""
    overrides = provenance.get("overrides")
    if not overrides:
        return ""
    given = _given(overrides)
    words = [f"--set {key}={text}" if len(text) <= OVERRIDE_CHARS
             else f"--set {key}=<{value_text(value)}>" for key, text, value in given]
    said = (" (<...>: a value too long to write here, in full in results.json "
            "provenance.overrides)") if any(len(t) > OVERRIDE_CHARS for _, t, _ in given) else ""
    return " ".join(words) + said


def _given(overrides: Mapping[str, Any] | Sequence[str]) -> list[tuple[str, str, Any]]:
    """(key, value as --set spells it, value) of each override, in order: the texts
    of ``--set``, or of the mapping given to ``rc.run`` (``provenance.override_texts``);
    a value --set cannot spell, as Python writes it."""
    from rocking_contact.config import parse_override

    texts, _ = override_texts(overrides)
    if isinstance(overrides, Mapping):
        spelled = texts or [f"{key}={value}" for key, value in overrides.items()]
        return [(str(k), t.partition("=")[2], v)
                for (k, v), t in zip(overrides.items(), spelled, strict=True)]
    out = []
    for text in overrides:
        key, _, raw = str(text).partition("=")
        out.append((key.strip(), raw.strip(), parse_override(str(text))[1]))
    return out


def stack_note(run: dict[str, str] | None, report: dict[str, str],
               status: str = "completed") -> str:
    """One sentence on the stack a run was computed with, against the report's own. The
    OpenBLAS kernels differ only where a library both processes loaded chose other ones
    (:func:`~rocking_contact.blas.same_kernels`): each records only the libraries it loaded."""
    if not run and status == STARTED:
        return ("Stack: not recorded: the run stopped (or is still running) before it wrote "
                "its results.")
    if not run:
        return "Stack: not recorded by this run (results written before runs recorded it)."
    differ = [f"{name} {version} (report: {report.get(name, 'absent')})"
              for name, version in run.items()
              if version != NOT_LOADED and not _same(name, version, report.get(name))]
    if not differ:
        return "Stack: the run was computed with the versions listed at the end of the report."
    return "Stack: the run was computed with another stack: " + "; ".join(differ) + "."


def _same(name: str, run: str, report: str | None) -> bool:
    """Whether a run's stack component ``name`` is the report's."""
    if name == KERNELS and report not in (None, NOT_LOADED):
        return same_kernels(run, str(report))
    return run == report
