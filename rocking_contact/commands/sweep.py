"""``rocking-contact sweep``: run a case once per value of its ``--set`` keys, in one process,
then print the table of the runs (``compare``'s) and write it as ``sweep.csv``.

``--set KEY=V1,V2,...`` gives a key its values, each read as ``run --set`` reads one value
(:func:`~rocking_contact.config.overrides.parse_override`: a TOML literal, else a bare
text); a comma inside brackets, braces or quotes belongs to the value
(``collisions.windows=[],[[0.0, 0.1]]`` is two values). Several keys run every combination
of their values (at most :data:`MOST_RUNS` runs). Each run writes into
``DIR/<key>=<value>[,<key>=<value>...]/``, named by the keys that take several values
(every key when none does); its ``results.json`` records its own ``rerun``,
``rocking-contact run CASE --set KEY=VALUE ... --out DIR/<name>``.

Every combination is loaded before the first run: a value the case refuses stops the sweep
before it starts (one line naming the key). A run that fails, or whose block overturns or
slides off its table, is written as ``run`` writes it and the sweep goes on; Ctrl-C or
SIGTERM stops the sweep after the step under way, as it stops ``run``. Under ``mpiexec``
every rank runs the runs one after another (each run is collective, as ``run`` is) and
rank 0 prints and writes.

This module is imported to build the command line: keep its imports light.
"""

from __future__ import annotations

import argparse
import itertools
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rocking_contact.commands.compare import add_collisions_option
from rocking_contact.options import add_case_options, path_argument

#: the most runs one sweep starts: a typo in a list of values (a grid of 3 keys of 20
#: values is 8000 FEM runs) is refused at once rather than found hours later
MOST_RUNS = 200
#: the table of the runs, written into the sweep's directory
TABLE_FILE = "sweep.csv"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``rocking-contact sweep``."""
    parser.add_argument("case", help="shipped case name or path to a case TOML file")
    parser.add_argument("--out", type=path_argument, required=True,
                        help="the sweep's directory: a run per value (or combination) in "
                             "DIR/<key>=<value>[,...]/, replacing the results there, and "
                             f"the table of the runs in DIR/{TABLE_FILE}")
    parser.add_argument("--rigid", action="store_true",
                        help="run the rigid twin of a block case (as the rigid command "
                             "does) instead of its FEM block; a rigid case runs as rigid "
                             "without it")
    add_case_options(parser, "no progress bar of each run (its line, the warnings and the "
                             "table of the runs are still printed)",
                     f"the values of a case-file key (repeatable), each read as run --set "
                     f"reads one (a comma inside [], {{}} or quotes belongs to the value); "
                     f"several keys: every combination, at most {MOST_RUNS} runs; e.g. "
                     f"contact.mu=0.3,0.6,0.9")
    # the shared option's spelling, with the values a sweep takes in its placeholder
    parser._option_string_actions["--set"].metavar = "SECTION.KEY=V1,V2,..."
    add_collisions_option(parser)


def split_values(text: str) -> list[str]:
    """The values of ``V1,V2,...``, split at the commas outside brackets, braces and
    quotes (``[], [[0, 0.1]]`` is two values), each stripped."""
    values, depth, quote, start = [], 0, "", 0
    for i, char in enumerate(text):
        if quote:
            quote = "" if char == quote else quote
        elif char in "\"'":
            quote = char
        elif char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
        elif char == "," and depth == 0:
            values.append(text[start:i].strip())
            start = i + 1
    values.append(text[start:].strip())
    return values


def sweep_sets(texts: Sequence[str], case: str | None = None) -> list[tuple[str, list[str]]]:
    """``--set KEY=V1,V2,...`` texts as (key as given, its value texts), each value read
    as ``run --set`` reads it. ``case``: the case swept, whose kind says what a text
    without ``=`` may give (:func:`~rocking_contact.config.malformed_override`).

    Raises:
        CaseError: no ``--set``, a text without ``=``, an empty value, a key given twice,
            a value given twice for a key (the runs would share a directory).

    """
    from rocking_contact.config import (
        CaseError,
        kind_of,
        malformed_override,
        parse_override,
        refuse_repeated_keys,
        set_key,
    )

    if not texts:
        raise CaseError("--set", "", "none given (allowed: one or more --set KEY=V1,V2,...)")
    sets: list[tuple[str, list[str]]] = []
    malformed = next((text for text in texts if set_key(text) is None), None)
    if malformed is not None:
        try:
            kind = kind_of(case) if case is not None else None
        except CaseError:  # a case not found: refused on its own once the texts are mended
            kind = None
        raise malformed_override(malformed, kind, value="V1,V2,...")
    refuse_repeated_keys(texts, "its values in one --set {key}=V1,V2,...")
    for text in texts:
        key, _, raw = text.partition("=")
        key = key.strip()
        values = split_values(raw)
        parsed: dict[str, str] = {}
        for value in values:
            if not value:
                raise CaseError("--set", key, f"an empty value in {raw!r} (allowed: "
                                "values separated by single commas)")
            read = repr(parse_override(f"{key}={value}")[1])
            if read in parsed:
                raise CaseError("--set", key, f"the value {value!r} given twice (as "
                                f"{parsed[read]!r}; allowed: each value once)")
            parsed[read] = value
        sets.append((key, values))
    return sets


def combinations(sets: Sequence[tuple[str, list[str]]]) -> list[tuple[str, list[str]]]:
    """Every combination of the keys' values, in the order given (the last key's values
    vary fastest): (its directory name, its ``--set`` texts). The name holds the keys that
    take several values (every key when none does), ``/`` in a value read ``_``.

    Raises:
        CaseError: more than :data:`MOST_RUNS` combinations; two with the same name.

    """
    from rocking_contact.config import CaseError

    count = 1
    for _, values in sets:
        count *= len(values)
    if count > MOST_RUNS:
        sizes = " x ".join(str(len(v)) for _, v in sets)
        raise CaseError("--set", "", f"{sizes} = {count} runs, more than {MOST_RUNS} "
                        f"(allowed: at most {MOST_RUNS} runs in one sweep; split it into "
                        "several)")
    named = [k for k, v in sets if len(v) > 1] or [k for k, _ in sets]
    runs = []
    for chosen in itertools.product(*(values for _, values in sets)):
        texts = [f"{key}={value}" for (key, _), value in zip(sets, chosen, strict=True)]
        name = ",".join(f"{key}={value}".replace("/", "_")
                        for (key, _), value in zip(sets, chosen, strict=True) if key in named)
        runs.append((name, texts))
    names = [name for name, _ in runs]
    twice = next((n for n in names if names.count(n) > 1), None)
    if twice is not None:  # values that differ by a '/' and a '_' alone
        raise CaseError("--set", "", f"two runs would share the directory {twice!r} (allowed: "
                        "values whose names differ other than by '/' read as '_')")
    return runs


def load_runs(case: str, runs: Sequence[tuple[str, list[str]]], *, rigid: bool
              ) -> list[Any]:
    """The case loaded with each run's ``--set`` texts, every one before the first run
    starts (the rigid twin of a block case with ``rigid``).

    Raises:
        CaseError: a value the case refuses (one line naming the key), a case ``--rigid``
            cannot run.

    """
    import rocking_contact as rc
    from rocking_contact.config import CaseError

    loaded = []
    for _, texts in runs:
        if rigid:  # a block case's [rigid] key refused with where its twin takes it
            from rocking_contact.analytic.rigid_cli import load_for_rigid
            from rocking_contact.analytic.rigid_runner import rigid_twin

            one: Any = load_for_rigid(case, texts)
        else:
            one = rc.load_case(case, texts)
        if rigid and one.case.kind == "block":
            one = rigid_twin(one)
        elif rigid and one.case.kind != "rigid":
            raise CaseError(case, "case.kind", f"got {one.case.kind!r}, --rigid needs kind = "
                            "'block' (its rigid twin runs) or 'rigid'")
        loaded.append(one)
    return loaded


#: the ``--set`` a sweep gives every run when some of its runs would set their case
#: file's collision windows aside and others keep them (:func:`measured_alike`)
AT_THE_LANDINGS = "collisions.windows=[]"


def measured_alike(case: str, runs: Sequence[tuple[str, list[str]]], cases: Sequence[Any]
                   ) -> tuple[list[tuple[str, list[str]]], list[Any], str | None]:
    """The runs and cases of a sweep, their collisions measured one way. A run that
    changes the physics its case file placed its collision windows for sets them aside
    and takes its collisions at each landing
    (:func:`~rocking_contact.post.collisions.windows_set_aside`); a run of the file's own
    values keeps them. When a sweep has both, every run is given :data:`AT_THE_LANDINGS`
    (what the first take anyway), so that one table does not mix collisions in windows
    with collisions at landings, the table's ``collisions.windows`` is one value, and each
    run's ``rerun`` repeats it. Returns them with the line that says so; None for a sweep
    left as it is (its runs measured alike already: windows given by ``--set``, numerics
    keys only, every run of other physics, a rigid or discrete case).

    Raises:
        CaseError: a run the case refuses with its collisions at the landings.

    """
    from rocking_contact.post.collisions import windows_set_aside

    aside = [windows_set_aside(one) if one.case.kind == "block" else None for one in cases]
    set_aside = [a for a in aside if a is not None]
    if not set_aside or len(set_aside) == len(cases):
        return list(runs), list(cases), None
    runs = [(name, [*texts, AT_THE_LANDINGS]) for name, texts in runs]
    changes = sorted({key for a in set_aside for key in a["changes"]})
    kept = [name for (name, _), a in zip(runs, aside, strict=True) if a is None]
    line = (f"sweep: {len(set_aside)} of {len(runs)} runs change {', '.join(changes)}, for "
            f"which the collision windows of {Path(set_aside[0]['file']).name} were not "
            f"placed, and take their collisions at each landing; so that {', '.join(kept)} "
            f"{'is' if len(kept) == 1 else 'are'} measured alike, every run is given --set "
            f"{AT_THE_LANDINGS} (to measure in windows instead: --set "
            f"collisions.windows=[[t0, t1], ...])")
    return runs, load_runs(case, runs, rigid=False), line


def main(args: argparse.Namespace) -> int:
    """Run every combination, one progress line each, then the table; returns the exit
    code: 0 every run reached its end, 1 one stopped (the others ran), 2 bad input (before
    any run; or a run refused as it set up, the others run)."""
    import time

    import rocking_contact as rc
    from rocking_contact.api import mpi_rank
    from rocking_contact.commands.compare import short_status
    from rocking_contact.out_paths import make_dir
    from rocking_contact.stops import Interrupted, SolverFailure

    runs = combinations(sweep_sets(args.overrides, args.case))
    cases = load_runs(args.case, runs, rigid=args.rigid)
    runs, cases, alike = measured_alike(args.case, runs, cases)
    make_dir("--out", args.out)
    rank0 = mpi_rank() == 0
    if rank0 and alike is not None:
        print(alike, flush=True)
    code, started = 0, time.perf_counter()
    done: list[str] = []
    for i, ((name, _), case) in enumerate(zip(runs, cases, strict=True), 1):
        out = args.out / name
        try:
            result = rc.run(case, out=out, quiet=args.quiet, plots=not args.no_plots)
            said = short_status(result.status)
        except rc.CaseError as exc:  # found by its runner as it set up: nothing written
            result, said, code = None, f"refused: {exc}", 2
        except SolverFailure as exc:  # written as far as it went (a failure before its
            result, said = exc.partial, short_status(exc.status)  # first step: nothing)
            code = max(code, 1)
            if rank0:
                print(f"error: {name}: {exc.describe()} {exc.written}", file=sys.stderr)
        except Interrupted:
            if rank0:
                print(f"sweep: stopped in run {i} of {len(runs)}, {name}; the runs before "
                      f"it are in {args.out}/", file=sys.stderr)
            raise
        if result is not None:
            done.append(name)
        if rank0:
            print(f"[{i}/{len(runs)}] {name}: {said}{_counted(result)}", flush=True)
    if rank0:
        _table(args.out, runs, done, time.perf_counter() - started, args.collisions)
    return code


def _counted(result: Any) -> str:
    """``, 2 collisions, 4.1 s``: what a progress line adds of a run that computed (a
    rigid run's outcome first: ``, overturned at t = 1.30214 s, 0 collisions, 0.1 s``)."""
    if result is None:
        return ""
    from rocking_contact.commands.compare import outcome
    from rocking_contact.post.collisions import interior
    from rocking_contact.results import counted

    if result.kind == "discrete":
        what = counted(len(result.impacts), "impact")
    else:
        what = counted(len(interior(result.collisions)), "collision")
    ended = outcome(result.extra)
    what = f"{ended}, {what}" if ended else what
    return f", {what}, {float(result.timing.get('wall_s', float('nan'))):.3g} s"


def _table(out: Path, runs: Sequence[tuple[str, list[str]]], done: Sequence[str],
           wall: float, shown: int) -> None:
    """The table of the runs that wrote results (``compare``'s, the run column their names
    in ``out``), written as ``out/sweep.csv`` too; the runs without results named."""
    from rocking_contact.commands.compare import study
    from rocking_contact.results import counted

    print(f"\nsweep: {counted(len(runs), 'run')} in {wall:.3g} s, results in {out}/")
    missing = [name for name, _ in runs if name not in done]
    if missing:
        print(f"no results (refused, or failed before their first step): "
              f"{', '.join(missing)}")
    if not done:
        return
    table = study([out / name for name in done], shown=shown)
    table.columns[0].cells = list(done)
    print(table.text())
    table.write_csv(out / TABLE_FILE)
    print(f"written: {out / TABLE_FILE}")
