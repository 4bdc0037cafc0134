"""The ``rocking-contact`` command line.

Subcommands: ``list``, ``run``, ``validate`` here, and the ones in :data:`PLUGINS`, each a
module with ``add_arguments(parser)`` and ``main(args) -> int`` (imported only when used,
so that ``--help`` stays fast). Bad input (case file, ``--set``) and a syntax error
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
import errno
import os
import signal
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NoReturn

from rocking_contact import interrupt  # light (no numpy): main takes the signals at once
from rocking_contact.options import add_case_options

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT = 0, 1, 2
#: the shell's code for a process stopped by SIGINT (128 + 2); by SIGTERM, 143
EXIT_INTERRUPTED = 130
#: the write errors that are the machine's (a full disk or quota, a file system gone
#: read-only or failing), said in one line; any other OSError is a bug's, with its traceback
FULL_DISK = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EIO})

#: subcommand -> (module, one-line help). A module that is absent is not offered.
PLUGINS: dict[str, tuple[str, str]] = {
    "mesh": ("rocking_contact.geometry.cli", "write the block-on-table mesh for inspection"),
    "rigid": ("rocking_contact.analytic.rigid_cli", "rigid-block rocking reference solution"),
    "view": ("rocking_contact.viz.cli", "look at a result: pyvista scene, screenshot, movie"),
    "report": ("rocking_contact.report.cli", "HTML/Markdown validation report"),
}


#: exit code -> what it means, for each command, as :func:`main` returns it: the end of
#: the command's ``--help``. The codes of :data:`EVERY_COMMAND` are added, a command's own
#: text for 2 after its first sentence (what else is bad input to it); a command that runs
#: no case (:data:`RUNS` lists those that do) takes the second sentences of 130 and 143.
_STOPPED = ("the run stopped (a solver failure, or a block that overturned or slid off its "
            "table: the results so far are written), or its results could not be written "
            "(disk full, read-only)")
EXIT_CODES: dict[str | None, dict[int, str]] = {
    None: {0: "done; run and rigid whatever their checks say, validate when every case "
              "passes",
           1: f"{_STOPPED}; validate: also a failed check, a case no check graded, or "
              "checks a shortened run did not reach (each COMMAND --help says its own)"},
    "list": {0: "listed",
             2: "a syntax error (list takes no argument): one line 'error: ...'"},
    "keys": {0: "listed",
             2: "bad input (no such case file, shipped case or kind; a case file it cannot "
                "read; an option): one line 'error: ...'"},
    "run": {0: "the run reached its end, whatever its checks say (validate grades them)",
            1: _STOPPED},
    "validate": {0: "every case passes its reference checks",
                 1: "a case failed a check (FAILED), or had no check that applies at the "
                    "settings given (NOT GRADED: a reference that holds for another "
                    "time.step; the case is not validated, nor failed), or checks the run "
                    "did not reach and none failed (INCOMPLETE: a time.end before what they "
                    "measure; not validated, nor failed), or its run stopped "
                    "(a solver failure, a block that overturned: the next cases still run), "
                    "or results could not be written (disk full, read-only)"},
    "rigid": {0: "the run reached its end, whatever its checks say (a rigid block that "
                 "overturns is an outcome)",
              1: "the run stopped (a solver failure: the results so far are written), or "
                 "its results could not be written (disk full, read-only)"},
    "mesh": {0: "the mesh is written"},
    "view": {0: "shown, or the files written",
             2: "also results it cannot read and files it cannot write"},
    "report": {0: "written (a results directory it cannot read is skipped, with a warning)",
               2: "also no results directory it can read, a file it cannot write"},
}
EVERY_COMMAND = {2: "bad input (case file, --set, option, path): one line 'error: ...'",
                 130: "stopped by Ctrl-C (what a run computed is written)",
                 143: "stopped by SIGTERM (docker stop, kill, a batch scheduler), the same"}
#: 130 and 143 of a command that runs no case: nothing computed to keep
NO_RUN = {130: "stopped by Ctrl-C: one line, 'interrupted'",
          143: "stopped by SIGTERM (docker stop, kill, a batch scheduler), the same"}
#: the commands that run a case (None: the top level, which says every command's codes)
RUNS = (None, "run", "validate", "rigid")


def exit_codes_text(command: str | None = None, width: int = 79) -> str:
    """The ``exit codes:`` paragraph of a command's ``--help`` (None: the top level's,
    with ``make demo``'s), wrapped to ``width`` columns: only what the command can say."""
    import textwrap

    own = EXIT_CODES[command]
    codes = {**EVERY_COMMAND, **({} if command in RUNS else NO_RUN), **own}
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


def _subparser(sub: argparse._SubParsersAction[_Parser], name: str, help_text: str
               ) -> argparse.ArgumentParser:
    """A subcommand's parser, its ``--help`` ending with its exit codes."""
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
        --help)``, exit code 2 (argparse printed its whole usage block before it)."""
        command = self.prog.partition(" ")[2]
        self.exit(EXIT_BAD_INPUT, f"error: {command + ': ' if command else ''}{message} "
                                  f"({self.prog} --help)\n")


def _parser() -> _Parser:
    from rocking_contact import __version__

    p = _Parser(
        prog="rocking-contact",
        description="Impact, rocking and friction dynamics, validated against references.",
        epilog=exit_codes_text(), formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--version", action="version", version=f"rocking-contact {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    _subparser(sub, "list", "list the shipped cases and their variants with their titles")

    k = _subparser(sub, "keys", "every case-file key of a kind: type, default, meaning")
    k.add_argument("case", help="a case name or file (its kind is described), or a kind")

    r = _subparser(sub, "run", "run one case and write its results")
    r.add_argument("case", help="shipped case name or path to a case TOML file")
    r.add_argument("--out", type=Path, help="results directory (default results/<case>/)")
    add_case_options(r, "no progress bar and no table of the checks (the summary line, "
                        "warnings and errors are still printed)")

    v = _subparser(sub, "validate", "run cases and compare them with their references")
    v.add_argument("cases", nargs="*", help="case names or files (default: every shipped "
                                            "case); one given twice runs once")
    v.add_argument("--out", type=Path, default=Path("results"),
                   help="parent directory of the per-case results (default results/)")
    add_case_options(v, "no progress bar (the tables of the checks, the summary lines, "
                        "warnings and errors are still printed)")

    import importlib.util

    for name, (module, help_text) in PLUGINS.items():
        try:
            present = importlib.util.find_spec(module) is not None
        except ModuleNotFoundError:  # its parent package is not there either
            present = False
        if present:
            sp = _subparser(sub, name, help_text)
            sp.set_defaults(plugin=module)
            importlib.import_module(module).add_arguments(sp)
    p.subcommands = sub.choices
    return p


def _print_cases(cases: dict[str, Path], width: int) -> None:
    from rocking_contact.config import CaseError, read_toml

    for name, path in cases.items():
        try:
            info = read_toml(path).get("case", {})
            title, kind = info.get("title", "?"), info.get("kind", "?")
        except CaseError as exc:
            title, kind = f"(unreadable: {exc.problem})", "?"
        print(f"{name.ljust(width)}  [{kind}]  {title}")


def _cmd_list() -> int:
    from rocking_contact.config import shipped_cases, variant_cases

    shipped, variants = shipped_cases(), variant_cases()
    width = max((len(n) for n in (*shipped, *variants)), default=0)
    _print_cases(shipped, width)
    if variants:
        print("\nvariants (run by name; not in validate's default set):")
        _print_cases(variants, width)
    return EXIT_OK


def _kind(case: str) -> str:
    """The kind of a case name or file (read, not loaded), or ``case`` if it names a kind.

    Raises:
        CaseError: no such case, or a file without a valid ``case.kind``.

    """
    from rocking_contact.config import KINDS, case_kind, read_case_data, resolve_case_path

    if case in KINDS:
        return case
    path = resolve_case_path(case, kinds=True)
    return case_kind(read_case_data(path), str(path))


def _cmd_keys(args: argparse.Namespace) -> int:
    from rocking_contact.config import kind_schema, schema_doc

    kind = _kind(args.case)
    rows = schema_doc(kind_schema(kind, args.case))
    width = max(len(r[0]) for r in rows)
    print(f"case-file keys of kind {kind!r} (override any with --set KEY=VALUE); "
          "N indexes a list of tables")
    print(f"  {'extends'.ljust(width)}  a string, optional; a case file (path relative to this "
          "one) whose values this file overrides, tables merged key by key")
    tables = {r[0] for r in rows if r[1].endswith("table") or r[1] == "list of tables"}
    heading = ""
    for key, type_name, default, doc in rows:
        if key in tables:
            heading = key
            print(f"\n[{key}]  ({type_name})" + (f"  {doc}" if doc else ""))
            continue
        parent = key.rpartition(".")[0].removesuffix(".N")
        if parent != heading:  # back in an enclosing table after a nested one
            heading = parent
            print(f"\n[{parent}]  (continued)" if parent else "")
        text = f"{type_name}, default {default}" if default != "(required)" else \
            f"{type_name}, required"
        print(f"  {key.ljust(width)}  {text}" + (f"; {doc}" if doc else ""))
    return EXIT_OK


def _cmd_run(args: argparse.Namespace) -> int:
    import rocking_contact as rc
    from rocking_contact.api import default_out_dir
    from rocking_contact.out_paths import check_dir
    from rocking_contact.results import RunStopped
    from rocking_contact.summary import show_result

    case = rc.load_case(args.case, args.overrides)
    out = args.out or default_out_dir(case)
    check_dir("--out", out)  # made here: rc.run's error would name its argument, out=
    try:
        result = rc.run(case, out=out, quiet=args.quiet, plots=not args.no_plots)
    except RunStopped as exc:  # Ctrl-C too: what it computed, then _command's one line
        show_result(exc.partial, out, table=not args.quiet)
        raise
    show_result(result, out, table=not args.quiet)
    return EXIT_OK


def _cmd_validate(args: argparse.Namespace) -> int:
    import rocking_contact as rc
    from rocking_contact.api import mpi_rank
    from rocking_contact.config import (
        CaseError,
        grading_changes,
        physics_changes,
        shipped_cases,
    )
    from rocking_contact.out_paths import check_dir
    from rocking_contact.results import Interrupted, SolverFailure
    from rocking_contact.summary import print_verdicts, show_result, validation_verdict

    names = args.cases or list(shipped_cases())
    cases = _distinct([rc.load_case(name, args.overrides) for name in names])  # all checked
    check_dir("--out", args.out)
    for case in cases:
        changed = physics_changes(case)
        if changed:
            raise CaseError(f"{case.source_file} (with --set)", changed[0],
                            "changes the physics the references describe; validate takes only "
                            "keys of the method (time but time.start, scheme, solver, mesh, "
                            "kinematics, ...: "
                            "rocking_contact.config.METHOD_KEYS); run shows other physics "
                            "next to the references")
        changed = grading_changes(case)
        if changed:
            raise CaseError(f"{case.source_file} (with --set)", changed[0],
                            "changes what the case is graded on (its references, quantities "
                            "and collision or impact measures: rocking_contact.config."
                            "GRADING_KEYS); validate grades with the case file's, run shows "
                            "the checks with yours")
    verdicts: dict[str, list[str]] = {}  # validate's word -> "case (why)"
    for i, case in enumerate(cases):
        out = args.out / case.case.name
        check_dir("--out", out)
        try:
            result = rc.run(case, out=out, quiet=args.quiet, plots=not args.no_plots)
        except Interrupted as exc:  # what it computed, then _command's one line
            show_result(exc.partial)
            skipped = [c.case.name for c in cases[i + 1:]]
            rest = f"; not run: {', '.join(skipped)}" if skipped else ""
            raise Interrupted(f"{case.case.name}: {exc}{rest}", exc.partial, exc.signal
                              ) from None
        except SolverFailure as exc:  # what it computed, then the error
            show_result(exc.partial)
            # the next cases still run; this one failed
            verdicts.setdefault("FAILED", []).append(
                f"{case.case.name} ({exc.describe().split(':')[0]})")
            if mpi_rank() == 0:
                print(f"{case.case.name}: error: {exc.describe()} (results so far were "
                      "written)\n", file=sys.stderr)
            continue
        said = validation_verdict(result)
        if said is not None:
            verdicts.setdefault(said[0], []).append(f"{case.case.name} ({said[1]})")
        show_result(result)
        if mpi_rank() == 0:
            print()
    if mpi_rank() == 0:
        print_verdicts(len(cases), verdicts)
    return EXIT_FAILED if verdicts else EXIT_OK


def _distinct(cases: list[Any]) -> list[Any]:
    """The cases ``validate`` runs: a case file given twice (``validate sdnd101a
    sdnd101a``, a name and its path) once, said on stderr; two files of one
    ``case.name``, whose results would go into one directory, refused.

    Raises:
        CaseError: two case files of the same name.

    """
    from rocking_contact.api import mpi_rank
    from rocking_contact.config import CaseError

    kept: dict[str, Any] = {}
    counts: dict[str, int] = {}
    for case in cases:
        name, first = case.case.name, kept.get(case.case.name)
        if first is not None and Path(first.source_file).resolve() != Path(
                case.source_file).resolve():
            raise CaseError(str(case.source_file), "case.name",
                            f"{name!r} is the name of {first.source_file} too: their results "
                            f"would go into one directory (allowed: cases of distinct names; "
                            f"validate them one at a time, each with its --out)")
        kept.setdefault(name, case)
        counts[name] = counts.get(name, 0) + 1
    for name, count in counts.items():
        if count > 1 and mpi_rank() == 0:
            print(f"warning: {name}: given {count} times, validated once", file=sys.stderr)
    return list(kept.values())


def _check_out(args: argparse.Namespace) -> None:
    """``--out`` of run, validate and mesh checked before the case is loaded (seconds of
    imports, then meshing): a path under a file, unwritable or of the wrong kind is one line
    at once. Nothing is created yet, so that a case refused afterwards leaves nothing."""
    from rocking_contact.out_paths import check_dir, check_file

    if args.command in ("run", "validate") and args.out is not None:
        check_dir("--out", args.out, create=False)
    elif args.command == "mesh":
        check_file("--out", args.out, "a .msh", (".msh",), create=False)


#: commands that run in one process: under ``mpiexec`` rank 0 does them once (``run``,
#: ``validate`` and ``rigid`` go through the MPI-aware api, on every rank)
SERIAL_COMMANDS = ("list", "keys", "mesh", "view", "report")


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
            parser.subcommands[args.command].error(  # exits with code 2
                f"unrecognized arguments: {' '.join(unknown)}")
    finally:
        if quiet:
            sys.stdout.close()
            sys.stdout, sys.stderr = streams
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``rocking-contact``; returns the process exit code.

    Its module and the package's ``__init__`` import nothing heavy: a Ctrl-C or SIGTERM
    that comes while the command starts is taken from here on (it came while Python
    imported the package, a traceback; on every rank under ``mpiexec``)."""
    if launcher_rank() is None:
        # Outside a run a signal stops the command at once, SIGTERM too (as rank 0's
        # command under mpiexec): one line, exit code 130 or 143; a run defers it again.
        with interrupt.deferred(), interrupt.abandoning():
            try:
                _load(argv)
                args = _parse(_parser(), argv)
                _start_petsc_for_a_block(args)
            except (KeyboardInterrupt, Exception) as exc:
                return _interrupted(exc)
            return _ended(_command(args))
    # mpiexec forwards a Ctrl-C to every rank, where, raised at once, it let one rank leave
    # while another waited for it in a collective call (the barrier after the results
    # directory is cleared, the one that ends a command rank 0 runs alone), and both hung.
    # Asked for from here on every rank, it stops a run after its first step.
    try:
        with interrupt.deferred():
            _load(argv)
            args = _parse(_parser(), argv)
            if args.command in SERIAL_COMMANDS:
                return _once(args)
            _start_petsc_for_a_block(args)
            return _command(args)
    finally:
        # Done, the exit code known: a signal forwarded late killed a rank that waited
        # in MPI_Finalize for a slower one (Python restores the default action as it
        # exits), and mpiexec said BAD TERMINATION (1 report in 30 under Ctrl-C).
        for signum in interrupt.SIGNALS:
            signal.signal(signum, signal.SIG_IGN)


def _load(argv: Sequence[str] | None) -> None:
    """Import what every command needs (the DOLFINx wheel and MPI, numpy, the package's
    API: a third of a second) with a Ctrl-C or SIGTERM held until it is done: it comes
    after, where it stops the command as any other. Raised in the middle of an import it
    left the modules half started (MPI's too), or an extension module's "ImportError:
    initialization failed". The runs' results record ``argv`` as their command line
    (one run in-process, ``main([...])``, as well as the console script)."""
    with interrupt.python_handlers_kept():
        import rocking_contact.api  # noqa: F401
        from rocking_contact.provenance import note_command_line
    note_command_line(argv)


def _start_petsc_for_a_block(args: argparse.Namespace) -> None:
    """Start PETSc now for a block run, with the Python handlers of Ctrl-C and SIGTERM put
    back at once: started by the run, it took a signal that came before the run deferred
    them (its crash report, MPI_Abort(59), exit code 15), and under mpiexec it replaced
    the handler deferring them from the command line's start."""
    if _runs_a_block(args):
        with interrupt.python_handlers_kept():
            from petsc4py import PETSc  # noqa: F401


def _runs_a_block(args: argparse.Namespace) -> bool:
    """Whether ``run`` or ``validate`` runs an elastic block (the kind that starts PETSc;
    others do not, and their results' ``stack`` says so). A case that cannot be read is
    for the command to say: False here."""
    from rocking_contact.config import CaseError, shipped_cases

    if args.command not in ("run", "validate"):
        return False
    names = [args.case] if args.command == "run" else args.cases or list(shipped_cases())
    try:
        return any(_kind(name) == "block" for name in names)
    except CaseError:
        return False


def _once(args: argparse.Namespace) -> int:
    """A serial command under ``mpiexec``: rank 0 runs it (two ranks printed everything
    twice and wrote the same mesh file at once) while the others wait for it, inside MPI:
    a rank that left before MPI started would hang the others' start."""
    import petsc4py
    from mpi4py import MPI

    # PETSc starts collectively on its world: here rank 0 alone may start it (provenance)
    petsc4py.init(comm=MPI.COMM_SELF)
    try:
        if MPI.COMM_WORLD.rank != 0:
            return EXIT_OK
        # Rank 0's command stops at once on a Ctrl-C or SIGTERM, as serially, and says so
        # (PETSc, just started, took SIGTERM: its error banner, MPI_Abort, exit code 15)
        with interrupt.deferred(), interrupt.abandoning():
            return _interrupted() if interrupt.requested() else _ended(_command(args))
    finally:
        # The others wait for it with the signal deferred (main), over PETSc's handler: a
        # Ctrl-C raised as the barrier returned was a traceback and mpiexec's "BAD
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


def _command(args: argparse.Namespace) -> int:
    """Run the parsed command; returns the process exit code."""
    from rocking_contact.api import mpi_rank
    from rocking_contact.config import CaseError
    from rocking_contact.results import Interrupted, SolverFailure

    try:
        _check_out(args)
        if args.command == "list":
            return _cmd_list()
        if args.command == "keys":
            return _cmd_keys(args)
        if args.command == "run":
            return _cmd_run(args)
        if args.command == "validate":
            return _cmd_validate(args)
        if hasattr(args, "plugin"):
            import importlib

            return int(importlib.import_module(args.plugin).main(args))
    except CaseError as exc:
        if not launcher_rank():  # every rank read the same input: rank 0 says it
            print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except Interrupted as exc:  # before KeyboardInterrupt below, which it is
        if mpi_rank() == 0:  # every rank stopped at the same step: one line is enough
            print(f"{exc} (results so far were written)", file=sys.stderr)
        return exc.exit_code
    except SolverFailure as exc:
        if mpi_rank() == 0:
            print(f"error: {exc.describe()} (results so far were written)",
                  file=sys.stderr)
        return EXIT_FAILED
    except BrokenPipeError:  # output piped into `head` and the like
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115  (no flush error at exit)
        return EXIT_OK
    except OSError as exc:
        if exc.errno not in FULL_DISK:
            raise
        # the disk, not the run: what was written before stays (a streamed history's rows)
        print(f"error: cannot write {exc.filename or 'the results'}: {exc.strerror}",
              file=sys.stderr)
        return EXIT_FAILED
    except (KeyboardInterrupt, Exception) as exc:  # a second Ctrl-C or SIGTERM, or one
        return _interrupted(exc)                      # outside a run
    raise AssertionError(args.command)


if __name__ == "__main__":
    sys.exit(main())
