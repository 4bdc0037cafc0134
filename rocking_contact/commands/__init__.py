"""The commands of ``rocking-contact``: one row each in :data:`COMMANDS`, which the command
line (:mod:`rocking_contact.cli`) builds its parser from and dispatches by.

A command is a module with ``add_arguments(parser)`` and ``main(args) -> int`` (the exit
code, one of its row's ``exit_codes``): ``list``, ``keys``, ``run``, ``validate``,
``compare`` and ``sweep`` in this package, the others in the package they serve. The
modules are imported to build the parser: their imports are light (no numpy), the heavy
ones inside ``main``. A new command is a module and a row.

The command line imports this table as it builds its parser, after ``cli._load`` has
imported the DOLFINx wheel: like every module of the package outside
:data:`rocking_contact.LIGHT_MODULES`, importing it would import the wheel first
(the import hook of ``rocking_contact/__init__.py``).
"""

from __future__ import annotations

import argparse
import textwrap
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal


@dataclass(frozen=True)
class Command:
    """One command of the command line."""

    #: the module with ``add_arguments(parser)`` and ``main(args) -> int``; a command
    #: whose module is absent (a package left out) is not offered
    module: str
    #: its one line in the top level's ``--help``
    help: str
    #: exit code -> what it means, as the end of its ``--help`` says it
    #: (:func:`exit_codes_text`, which adds :data:`EVERY_COMMAND`'s)
    exit_codes: Mapping[int, str]
    #: whether it runs a case, through the MPI-aware api on every rank under ``mpiexec``
    #: (130 and 143 keep what the run computed); the others run on rank 0 alone
    runs_case: bool = False
    #: what its ``--out`` is, checked before the case is loaded: a directory (``dir``,
    #: when given), a ``.msh`` file (``msh``); None, not checked early
    out: Literal["dir", "msh"] | None = None
    #: the case names it runs (empty: every shipped case), for the commands that may run
    #: an elastic block, whose PETSc starts before the command
    block_cases: Callable[[argparse.Namespace], Sequence[str]] | None = field(
        default=None, compare=False)

    @property
    def serial(self) -> bool:
        """Whether under ``mpiexec`` rank 0 runs it once while the others wait."""
        return not self.runs_case


#: what a run that stopped says of its results
_STOPPED = ("the run stopped (a solver failure, or a block that overturned or slid off its "
            "table: the results so far are written), or its results could not be written "
            "(disk full, read-only)")

#: every command, in the order the top level's ``--help`` lists them
COMMANDS: dict[str, Command] = {
    "list": Command(
        "rocking_contact.commands.list_cases",
        "list the shipped cases and their variants with their titles",
        {0: "listed", 2: "a syntax error (list takes no argument): one line 'error: ...'"}),
    "keys": Command(
        "rocking_contact.commands.keys",
        "every case-file key of a kind: type, default, unit, meaning; a case's own values",
        {0: "listed (a case file whose values do not load too: its error in a note, the "
            "defaults alone)",
         2: "bad input (no such case file, shipped case or kind; a case file it cannot "
            "read; a --set the case refuses; an option): one line 'error: ...'"}),
    "run": Command(
        "rocking_contact.commands.run", "run one case and write its results",
        {0: "the run reached its end, whatever its checks say (validate grades them)",
         1: _STOPPED},
        runs_case=True, out="dir", block_cases=lambda args: [args.case]),
    "validate": Command(
        "rocking_contact.commands.validate",
        "run cases and compare them with their references",
        {0: "every case passes its reference checks",
         1: "a case failed a check (FAILED), or had no check that applies at the "
            "settings given (NOT GRADED: a reference that holds for another "
            "time.step; the case is not validated, nor failed), or checks the run "
            "did not reach and none failed (INCOMPLETE: a time.end before what they "
            "measure; not validated, nor failed), or its run stopped "
            "(a solver failure, a block that overturned: the next cases still run), "
            "or results could not be written (disk full, read-only)"},
        runs_case=True, out="dir", block_cases=lambda args: args.cases),
    "compare": Command(
        "rocking_contact.commands.compare",
        "one table of several runs' collisions, changes and quantities (reads results.json)",
        {0: "the table is printed (and its CSV written)",
         1: "the disk filled up as the CSV was written",
         2: "bad input (an option, a path; a directory without a results.json a run "
            "writes, a quantity no run has, a CSV file it cannot write): one line "
            "'error: ...'"}),
    "sweep": Command(
        "rocking_contact.commands.sweep",
        "run a case once per value (or combination) of --set keys, then compare the runs",
        {0: "every run reached its end, whatever its checks say",
         1: "a run stopped (a solver failure, a block that overturned or slid off its "
            "table: what it computed is written and the sweep went on with the next), or "
            "results could not be written (disk full, read-only)",
         2: "also a value the case refuses, or more runs than one sweep takes (before "
            "any run starts); a run refused as it set up (the others ran)"},
        runs_case=True, out="dir", block_cases=lambda args: [args.case]),
    "mesh": Command(
        "rocking_contact.geometry.cli", "write the block-on-table mesh for inspection",
        {0: "the mesh is written"}, out="msh"),
    "rigid": Command(
        "rocking_contact.analytic.rigid_cli", "rigid-block rocking reference solution",
        {0: "the run reached its end, whatever its checks say (a rigid block that "
            "overturns is an outcome)",
         1: "the run stopped (a solver failure: the results so far are written), or "
            "its results could not be written (disk full, read-only)"},
        runs_case=True),
    "view": Command(
        "rocking_contact.viz.cli", "look at a result: pyvista scene, screenshot, movie",
        {0: "shown, or the files written",
         2: "bad input (an option, a path; results it cannot read, a file it cannot "
            "write): one line 'error: ...'"}),
    "report": Command(
        "rocking_contact.report.cli", "HTML/Markdown validation report",
        {0: "written (a results directory it cannot read is skipped, with a warning)",
         2: "bad input (an option, a path; no results directory it can read, a file it "
            "cannot write): one line 'error: ...'"}),
}

#: the top level's exit codes: what every command can say
TOP_EXIT_CODES = {
    0: "done; run and rigid whatever their checks say, validate when every case passes",
    1: f"{_STOPPED}; validate: also a failed check, a case no check graded, or checks a "
       "shortened run did not reach (each COMMAND --help says its own)"}
#: the codes every command has; a command's own text for 2 that starts with "also " is
#: added after this one's (what else is bad input to it); one that reads no case file
#: (compare, view, report) says its own whole
EVERY_COMMAND = {2: "bad input (case file, --set, option, path): one line 'error: ...'",
                 130: "stopped by Ctrl-C (what a run computed is written)",
                 143: "stopped by SIGTERM (docker stop, kill, a batch scheduler), the same"}
#: 130 and 143 of a command that runs no case: nothing computed to keep
NO_RUN = {130: "stopped by Ctrl-C: one line, 'interrupted'",
          143: "stopped by SIGTERM (docker stop, kill, a batch scheduler), the same"}


def exit_codes_text(name: str | None = None, width: int = 79) -> str:
    """The ``exit codes:`` paragraph of a command's ``--help`` (None: the top level's,
    with ``make demo``'s), wrapped to ``width`` columns: only what the command can say."""
    command = None if name is None else COMMANDS[name]
    own = TOP_EXIT_CODES if command is None else command.exit_codes
    runs_case = command is None or command.runs_case  # the top level says every command's
    codes = {**EVERY_COMMAND, **({} if runs_case else NO_RUN), **own}
    if 2 in own and own[2].startswith("also "):
        codes[2] = f"{EVERY_COMMAND[2]}; {own[2]}"
    lines = ["exit codes:"]
    for code in sorted(codes):
        lines += textwrap.wrap(codes[code], width, initial_indent=f"  {code:<4} ",
                               subsequent_indent=" " * 7)
    if command is None:
        lines += textwrap.wrap("`make demo` exits 0 when every case passes, otherwise 2, make's "
                               "own code for a failed recipe (its last line names validate's, "
                               "'Error 1').", width)
    return "\n".join(lines)
