"""The ``rocking-contact`` command line: the parser, the dispatch, MPI and the signals.

Its commands are the rows of :data:`rocking_contact.commands.COMMANDS`, each a module with
``add_arguments(parser)`` and ``main(args) -> int`` (imported to build the parser, light;
what they run is imported when used, so that ``--help`` stays fast); their exit codes are
said at the end of their ``--help``. Bad input (case file, ``--set``) and a syntax error
print one line and exit with code 2; a solver failure keeps the results computed so far
on disk, shows their table and summary line as a completed run's, then says where it
happened and exits with code 1 (``validate`` goes on with the next case);
``validate`` exits with 1 when a check fails or a case has no check that applies at its
settings (said "NOT GRADED", not "FAILED": nothing was validated). Ctrl-C stops a run after
the step under way, writes and shows what it computed and exits with 130 (a second Ctrl-C
stops at once);
SIGTERM does the same and exits with 143. Outside a run, from :func:`main`'s first line,
either stops the command at once: one line, ``interrupted``.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import time
import traceback
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from rocking_contact import interrupt  # light (no numpy): main takes the signals at once
from rocking_contact.stops import FULL_DISK, say_once

if TYPE_CHECKING:  # the table is imported by main (its package's import loads the wheel)
    from rocking_contact.commands import Command

#: the process exit codes of a command that returned (a command's main returns them)
EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT = 0, 1, 2
#: the shell's code for a process stopped by SIGINT (128 + 2); by SIGTERM, 143
EXIT_INTERRUPTED = 130


def _subparser(sub: argparse._SubParsersAction[_Parser], name: str, help_text: str
               ) -> argparse.ArgumentParser:
    """A subcommand's parser, its ``--help`` ending with its exit codes."""
    from rocking_contact.commands import exit_codes_text

    parser: argparse.ArgumentParser = sub.add_parser(
        name, help=help_text, epilog=exit_codes_text(name),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    return parser


class _Parser(argparse.ArgumentParser):
    """The command line's parser, the top level's and (argparse makes them of its class)
    every subcommand's; the top level keeps its subcommands' parsers (to say an unknown
    option with the subcommand's name)."""

    subcommands: Mapping[str, argparse.ArgumentParser]

    def error(self, message: str) -> NoReturn:
        """A syntax error in one line, naming the subcommand and where its help is:
        ``error: run: the following arguments are required: case (rocking-contact run
        --help)``, exit code 2, instead of argparse's whole usage block. A value outside
        an argument's choices gets the close ones (``runn``: ``close: run``), as a
        misspelt option does (:func:`_close_options`)."""
        import re

        from rocking_contact.config.names import close_hint

        command = self.prog.partition(" ")[2]
        choice = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)$", message)
        if choice is not None:
            message += close_hint(choice[1], re.findall(r"'([^']*)'", choice[2]))
        self.exit(EXIT_BAD_INPUT, f"error: {command + ': ' if command else ''}{message} "
                                  f"({self.prog} --help)\n")


def _parser() -> _Parser:
    """The top level's parser and a subparser per command of
    :data:`~rocking_contact.commands.COMMANDS` whose module
    is there, its options added by the module (``command_module`` in the parsed
    arguments)."""
    import importlib
    import importlib.util

    from rocking_contact import __version__
    from rocking_contact.commands import COMMANDS, exit_codes_text

    p = _Parser(
        prog="rocking-contact",
        description="Impact, rocking and friction dynamics, validated against references.",
        epilog=exit_codes_text(), formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--version", action="version", version=f"rocking-contact {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, command in COMMANDS.items():
        try:
            present = importlib.util.find_spec(command.module) is not None
        except ModuleNotFoundError:  # its parent package is not there either
            present = False
        if present:
            sp = _subparser(sub, name, command.help)
            sp.set_defaults(command_module=command.module)
            importlib.import_module(command.module).add_arguments(sp)
    p.subcommands = sub.choices
    return p


def _check_out(args: argparse.Namespace) -> None:
    """``--out`` of the commands whose :attr:`~rocking_contact.commands.Command.out` says
    what it is (run, validate, mesh), checked before the case is loaded (seconds of
    imports, then meshing): a path under a file, unwritable or of the wrong kind is one line
    at once. Nothing is created yet, so that a case refused afterwards leaves nothing."""
    from rocking_contact.out_paths import check_dir, check_file

    out = _parsed_command(args).out
    if out == "dir" and args.out is not None:
        check_dir("--out", args.out, create=False)
    elif out == "msh":
        check_file("--out", args.out, "a .msh", (".msh",), create=False)


def _parsed_command(args: argparse.Namespace) -> Command:
    """The :class:`~rocking_contact.commands.Command` parsed."""
    from rocking_contact.commands import COMMANDS

    return COMMANDS[args.command]


def launcher_rank() -> int | None:
    """The rank ``mpiexec`` gave this process (read from MPICH's or Open MPI's environment),
    None outside a launcher: known before MPI starts, or without starting it."""
    for name in ("PMI_RANK", "OMPI_COMM_WORLD_RANK"):
        value = os.environ.get(name, "")
        if value.isdigit():
            return int(value)
    return None


def _parse(parser: _Parser,
           argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line; a usage error (stderr), ``--help`` and ``--version`` (stdout) are
    said by rank 0 alone (every rank exits)."""
    quiet = bool(launcher_rank())
    streams = sys.stdout, sys.stderr
    if quiet:
        sys.stdout = sys.stderr = open(os.devnull, "w")  # noqa: SIM115  (restored below)
    try:
        args, unknown = parser.parse_known_args(argv)
        if unknown:  # say it with the subcommand's name, not the top level's
            sub = parser.subcommands[args.command]
            sub.error(  # exits with code 2
                f"unrecognized arguments: {' '.join(unknown)}{_close_options(sub, unknown)}"
                f"{_set_in_two_words(args, unknown)}")
    finally:
        if quiet:
            sys.stdout.close()
            sys.stdout, sys.stderr = streams
    return args


def _set_in_two_words(args: argparse.Namespace, unknown: Sequence[str]) -> str:
    """``"; --set takes KEY=VALUE as one word: --set time.step=1e-4"``: what a stray
    argument means after a ``--set`` given a key without its value (``--set time.step
    1e-4``, as other tools take an option's value); "" otherwise."""
    bare = next((text for text in getattr(args, "overrides", None) or []
                 if "=" not in text), None)
    if bare is None or not unknown or unknown[0].startswith("-"):
        return ""
    return f"; --set takes KEY=VALUE as one word: --set {bare}={unknown[0]}"


def _close_options(parser: argparse.ArgumentParser, unknown: Sequence[str]) -> str:
    """``"; close: --set"``: the options of ``parser`` nearest the first unknown option of
    ``unknown`` (``--sett x``, ``--sett=x``), as a misspelt key gets its close names; ""
    when none is near or no option is unknown (a stray positional argument)."""
    from rocking_contact.config.names import close_names

    given = next((u.partition("=")[0] for u in unknown if u.startswith("-")), None)
    if given is None:
        return ""
    # compared without their dashes, which every option shares: "--bogus" is not near
    # "--out"
    names = [o.removeprefix("--") for o in parser._option_string_actions
             if o.startswith("--")]
    found = close_names(given.lstrip("-"), names)
    return f"; close: {', '.join('--' + n for n in found)}" if found else ""


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``rocking-contact``; returns the process exit code.

    Its module and the package's ``__init__`` import nothing heavy, so that a Ctrl-C or
    SIGTERM that comes while the command starts is taken from here on, not as a traceback
    from the middle of the package's import (on every rank under ``mpiexec``)."""
    if launcher_rank() is None:
        # Outside a run a signal stops the command at once, SIGTERM too (as rank 0's
        # command under mpiexec): one line, exit code 130 or 143; a run defers it again.
        with interrupt.deferred(), interrupt.abandoning():
            try:
                _load()
                args = _parse(_parser(), argv)
                _start_petsc_for_a_block(args)
            except (KeyboardInterrupt, Exception) as exc:
                return _interrupted(exc)
            return _ended(_command(args, argv))
    # mpiexec forwards a Ctrl-C to every rank; raised at once, it would let one rank leave
    # while another waits for it in a collective call (the barrier after the results
    # directory is cleared, the one that ends a command rank 0 runs alone), and both hang.
    # Asked for from here on every rank, it stops a run after its first step.
    try:
        with interrupt.deferred():
            _load()
            args = _parse(_parser(), argv)
            if _parsed_command(args).serial:
                return _once(args, argv)
            _start_petsc_for_a_block(args)
            return _command(args, argv)
    except Exception:
        # One rank's error (a bug) leaves the others waiting for it in their next collective
        # call, and mpiexec does not return, even on SIGTERM: say it, then stop every rank
        _stop_every_rank(EXIT_FAILED, say=traceback.print_exc)
        raise
    finally:
        # Done, the exit code known: a signal forwarded late would kill a rank that waits
        # in MPI_Finalize for a slower one (Python restores the default action as it
        # exits), and mpiexec would say BAD TERMINATION.
        for signum in interrupt.SIGNALS:
            signal.signal(signum, signal.SIG_IGN)


#: seconds a rank waits, its output flushed, before MPI_Abort (:func:`_stop_every_rank`)
ABORT_GRACE = 0.25


def _stop_every_rank(code: int, say: Callable[[], object] | None = None) -> None:
    """Under ``mpiexec``, ``say`` what happened and end every rank with exit code ``code``
    (``MPI_Abort``, mpiexec adding its own line; this process leaves at once, past
    ``finally`` blocks and ``MPI_Finalize``) after an error on this rank alone, which
    the others would wait for in their next collective call, spinning until killed (a full
    disk for the files rank 0 alone writes). What was written before stays on disk.
    Nothing on one process."""
    world = interrupt.world()  # None before MPI was imported: nothing to end
    mpi = sys.modules.get("mpi4py.MPI")
    if world is not None and mpi is not None and mpi.Is_initialized() \
            and not mpi.Is_finalized() and world.size > 1:
        if say is not None:
            say()
        sys.stdout.flush()
        sys.stderr.flush()
        # mpiexec forwards a rank's output through its proxy, which the abort ends: without
        # this pause the error line just said, or mpiexec's own abort line, may be lost
        time.sleep(ABORT_GRACE)
        world.Abort(code)
        os._exit(code)  # MPICH's abort returns, the process killed moments later


def _load() -> None:
    """Import what every command needs (the DOLFINx wheel and MPI, numpy, the package's
    API: a third of a second) with a Ctrl-C or SIGTERM held until it is done: it comes
    after, where it stops the command as any other. Raised in the middle of an import it
    would leave the modules half started (MPI's too), or raise an extension module's
    "ImportError: initialization failed"."""
    with interrupt.signals_held_for_python():
        import rocking_contact.api  # noqa: F401


def _start_petsc_for_a_block(args: argparse.Namespace) -> None:
    """Start PETSc now for a block run, with the Python handlers of Ctrl-C and SIGTERM put
    back at once. Started by the run, PETSc would take a signal that comes before the run
    defers them (its crash report, MPI_Abort(59), exit code 15), and under mpiexec it would
    replace the handler deferring them from the command line's start."""
    if _runs_a_block(args):
        with interrupt.signals_held_for_python():
            from petsc4py import PETSc  # noqa: F401


def _runs_a_block(args: argparse.Namespace) -> bool:
    """Whether the command runs an elastic block (the kind that starts PETSc; others do
    not, and their results' ``stack`` says so): one of its
    :attr:`~rocking_contact.commands.Command.block_cases`. A case that cannot be read is
    for the command to say: False here."""
    from rocking_contact.config import CaseError, kind_of, shipped_cases

    cases = _parsed_command(args).block_cases
    if cases is None:
        return False
    names = list(cases(args)) or list(shipped_cases())
    try:
        return any(kind_of(name) == "block" for name in names)
    except CaseError:
        return False


def _once(args: argparse.Namespace, argv: Sequence[str] | None) -> int:
    """A serial command under ``mpiexec``: rank 0 runs it (so that its output is printed
    once and its files written once) while the others wait for it, inside MPI: a rank that
    left before MPI started would hang the others' start."""
    import petsc4py
    from mpi4py import MPI

    # PETSc starts collectively on its world: here rank 0 alone may start it (provenance)
    petsc4py.init(comm=MPI.COMM_SELF)
    try:
        if MPI.COMM_WORLD.rank != 0:
            return EXIT_OK
        # Rank 0's command stops at once on a Ctrl-C or SIGTERM, as serially, and says so
        # (not PETSc, just started: its error banner, MPI_Abort, exit code 15)
        with interrupt.deferred(), interrupt.abandoning():
            return _interrupted() if interrupt.requested() else _ended(_command(args, argv))
    finally:
        # The others wait for it with the signal deferred (main), over PETSc's handler: a
        # Ctrl-C raised as the barrier returns would be a traceback and mpiexec's "BAD
        # TERMINATION", exit code 2
        with interrupt.deferred():
            MPI.COMM_WORLD.Barrier()


def _interrupted(exc: BaseException | None = None) -> int:
    """A Ctrl-C or SIGTERM that stopped the command outside a run: said once (rank 0).
    ``exc``, what stopped it, is raised again if it does not stand for one
    (:func:`~rocking_contact.interrupt.stands_for_a_signal`)."""
    if exc is not None and not interrupt.stands_for_a_signal(exc):
        raise exc
    if not launcher_rank():
        print("interrupted", file=sys.stderr)
    return interrupt.exit_code()


def _ended(code: int) -> int:
    """The exit code of a command that returned ``code``: one that went on after a Ctrl-C
    or SIGTERM (its ``KeyboardInterrupt`` dropped in a weakref callback, or turned into an
    error that was caught: a view the report skipped) ends as interrupted."""
    return _interrupted() if code == EXIT_OK and interrupt.requested() else code


def _command(args: argparse.Namespace, argv: Sequence[str] | None) -> int:
    """Run the parsed command (its module's ``main``); returns the process exit code. Its
    runs' results record ``argv`` (None: ``sys.argv[1:]``) as their command line, one
    command run in-process (``main([...])``) as well as the console script; a run after
    it in the same process does not (:func:`~rocking_contact.provenance.commanded`)."""
    import importlib

    from rocking_contact.api import mpi_rank
    from rocking_contact.config import CaseError
    from rocking_contact.provenance import commanded
    from rocking_contact.stops import Interrupted, SolverFailure

    try:
        _check_out(args)
        with commanded(argv):
            code = int(importlib.import_module(args.command_module).main(args))
        if code == EXIT_OK:
            _few_dofs_note(args)
        return code
    except CaseError as exc:
        if not launcher_rank():  # every rank read the same input: rank 0 says it
            print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except Interrupted as exc:  # before KeyboardInterrupt below, which it is
        if mpi_rank() == 0:  # every rank stopped at the same step: one line is enough
            print(f"{exc} {exc.written}", file=sys.stderr)
        return exc.exit_code
    except SolverFailure as exc:
        if mpi_rank() == 0:
            print(f"error: {exc.describe()} {exc.written}", file=sys.stderr)
        return EXIT_FAILED
    except BrokenPipeError:  # output piped into `head` and the like
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115  (no flush error at exit)
        return EXIT_OK
    except OSError as exc:
        if exc.errno not in FULL_DISK:
            raise
        # the disk, not the run: what was written before stays (a streamed history's rows)
        line = f"error: cannot write {exc.filename or 'the results'}: {exc.strerror}"
        if _parsed_command(args).serial:  # rank 0 alone runs it: no rank to tell
            print(line, file=sys.stderr)
            return EXIT_FAILED
        say_once(line)
        if launcher_rank() is not None:
            # rank 0 alone writes the results: the others wait for it in the next step
            _stop_every_rank(EXIT_FAILED)
        return EXIT_FAILED
    except (KeyboardInterrupt, Exception) as exc:  # a second Ctrl-C or SIGTERM, or one
        code = _interrupted(exc)                      # outside a run
        if launcher_rank() is not None and not _parsed_command(args).serial:
            # under mpiexec, a second signal sent to this rank alone (kill on its pid): the
            # others would wait for it in their next collective call, and mpiexec not return
            _stop_every_rank(code)
        return code


#: dofs per rank below which a block ``run`` or ``sweep`` under mpiexec says that fewer
#: ranks may be faster: the coarse SDNV105 mesh (50 dofs, 25 per rank on 2) gains nothing
#: from a second rank and loses on a loaded machine, the 0.02 m mesh (1928 dofs, 964 per
#: rank) gains (README, the wall times under mpiexec)
FEW_DOFS_PER_RANK = 100


def _few_dofs_note(args: argparse.Namespace) -> None:
    """After a block ``run`` or ``sweep`` under ``mpiexec`` whose mesh leaves each rank
    fewer than :data:`FEW_DOFS_PER_RANK` dofs (a sweep's largest mesh), rank 0 says so
    once, in a line ``note: ...``: its ranks wait for each other more than they compute.
    Nothing otherwise (one rank, another command or kind, a larger mesh)."""
    world = interrupt.world()
    if args.command not in ("run", "sweep") or world is None or world.size < 2 or \
            world.rank != 0:
        return
    from rocking_contact.config import CaseError
    from rocking_contact.fem.case import BlockCase
    from rocking_contact.geometry.layout import expected_size

    try:
        blocks = [case for case in _cases_run(args) if isinstance(case, BlockCase)]
    except CaseError:
        return
    sizes = {2 * expected_size(case.geometry, case.mesh)[0] for case in blocks}  # u_x, u_y
    if not sizes or max(sizes) >= FEW_DOFS_PER_RANK * world.size:
        return
    dofs, its = max(sizes), "its mesh" if len(sizes) == 1 else "its largest mesh"
    print(f"note: {blocks[0].case.name}: {its} has {dofs} dofs, {dofs / world.size:.0f} per "
          f"rank on {world.size} ranks: so few that the ranks wait for each other more "
          "than they compute; fewer ranks may be faster", file=sys.stderr, flush=True)


def _cases_run(args: argparse.Namespace) -> list[Any]:
    """The cases a ``run`` or ``sweep`` command ran, loaded again as it loaded them (a
    sweep's ``--rigid`` twins: none, they have no mesh).

    Raises:
        CaseError: input the command refused (it ran none then).

    """
    import rocking_contact as rc

    if args.command == "run":
        return [rc.load_case(args.case, args.overrides)]
    if args.rigid:
        return []
    from rocking_contact.commands.sweep import combinations, load_runs, sweep_sets

    return load_runs(args.case, combinations(sweep_sets(args.overrides, args.case)),
                     rigid=False)


if __name__ == "__main__":
    sys.exit(main())
