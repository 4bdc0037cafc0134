"""Case files on disk and :func:`load_case`.

Shipped cases and variants, TOML reading, ``extends`` and the files each key comes from
(so that an error names the file to edit), :func:`load_case`, and the accessors of what
loading notes on a case (its :class:`~rocking_contact.config.LoadInfo`:
:func:`source_file`, :func:`loaded_as`, ...). Beside it:
:mod:`.kinds` (the schema and runner of each ``case.kind``), :mod:`.layers` (where each
key was given) and :mod:`.refusals` (what a loaded case is refused, and what it leaves
behind).
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rocking_contact.config.kinds import KINDS, case_kind, kind_schema
from rocking_contact.config.layers import Layer, Origins, layers
from rocking_contact.config.names import close_hint
from rocking_contact.config.overrides import (
    anchor_paths,
    apply_overrides,
    dig,
    key_path,
    parse_override,
    set_key,
)
from rocking_contact.config.refusals import first_refusal, first_refusal_of_changes, leave_behind
from rocking_contact.config.schema import (
    DECIMAL_COMMA,
    WITH_UNIT,
    CaseError,
    as_dict,
    build,
    merge,
    short_text,
)
from rocking_contact.config.sections import (
    NOT_LOADED,
    CaseFile,
    LoadInfo,
    whole_steps_unchecked,
)


def cases_dir() -> Path:
    """Directory of the shipped case files (the repository's ``cases/``)."""
    return Path(__file__).resolve().parents[2] / "cases"


def shipped_cases() -> dict[str, Path]:
    """Shipped case names mapped to their files, sorted by name (what ``validate`` runs)."""
    return {p.stem: p for p in sorted(cases_dir().glob("*.toml"))}


def variant_cases() -> dict[str, Path]:
    """Variants of the shipped cases (``cases/variants/``: finer meshes, other steps), by
    name: runnable by name like the shipped ones, but not in ``validate``'s default set."""
    return {p.stem: p for p in sorted((cases_dir() / "variants").glob("*.toml"))}


def resolve_case_path(case: str | Path, *, kinds: bool = False) -> Path:
    """A shipped case or variant name, or a path to a TOML file -> the file's path.

    Args:
        case: the name or path.
        kinds: whether the caller takes a kind's name too (``keys block``): the message of
            a name that is none of them says so, and offers the kinds among close names.

    Raises:
        CaseError: no such case; a directory, or a file that is no case file.

    """
    known = {**variant_cases(), **shipped_cases()}
    if isinstance(case, str) and case in known:
        return known[case]
    path = Path(case)
    if path.suffix == ".toml" and path.is_file():
        return path
    if str(case) and path.is_dir():  # (Path("") is ".")
        raise CaseError(str(case), "", "is a directory, not a case file (allowed: a .toml "
                                       "file, or a shipped case's name)")
    if path.is_file():
        raise CaseError(str(case), "", "not a case file (allowed: a .toml file, or a shipped "
                                       "case's name)")
    names = ", ".join(shipped_cases()) or "none"
    what, allowed = (("case file, shipped case or kind", f"kinds: {', '.join(KINDS)}; ")
                     if kinds else ("case file or shipped case", ""))
    nearest = close_hint(str(case), [*(KINDS if kinds else ()), *known])
    raise CaseError(str(case) or "''", "", f"no such {what} ({allowed}shipped: {names}; "
                                           f"variants: rocking-contact list{nearest})")


def run_first_hint(name: str, parent: Path = Path("results")) -> str:
    """What ``view`` and ``report`` say of a ``name`` without results, ``parent/<name>/``
    missing: how to run it when it names a shipped case or variant, else that it names no
    case, with the closest that do (``report sdnv105`` was told to run ``sdnv105``, which
    no command takes)."""
    known = {**variant_cases(), **shipped_cases()}
    if name in known:
        return f"(run `rocking-contact run {name}` first)"
    return (f"({name} is no shipped case or variant; allowed: a results directory, or the "
            f"name of a case run into {parent}/<case>/{close_hint(name, known)})")


def kind_of(case: str) -> str:
    """The kind of a case name or file (read, not loaded), or ``case`` if it names a kind
    (``rocking-contact keys block``).

    Raises:
        CaseError: no such case, or a file without a valid ``case.kind``.

    """
    if case in KINDS:
        return case
    path = resolve_case_path(case, kinds=True)
    return case_kind(read_case_data(path), str(path))


def read_toml(path: Path) -> dict[str, Any]:
    """Parse a TOML file, turning syntax errors into a one-line CaseError."""
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        text = path.read_text(encoding="utf-8", errors="replace")
        hint = _toml_hint(str(exc)) or _toml_line_hint(str(exc), text)
        raise CaseError(str(path), "", f"not valid TOML: {exc}{hint}") from None
    except UnicodeDecodeError:  # TOML is UTF-8 by definition: a binary or Latin-1 file
        raise CaseError(str(path), "", "not UTF-8 text") from None
    except OSError as exc:
        raise CaseError(str(path), "", f"cannot read: {exc.strerror}") from None


#: a number TOML refuses for a point without a digit on one side (``.5``, ``1.``, ``2.e3``)
BARE_POINT = re.compile(r"[-+]?(?:\.\d+|\d+\.)(?:[eE][-+]?\d+)?")
#: a word TOML refuses unquoted as a value (``newmark``, ``O1``)
BARE_WORD = re.compile(r"[A-Za-z_][\w-]*")


def _toml_line_hint(message: str, text: str) -> str:
    """``; line 3 is 'type = newmark': a text goes in quotes, type = "newmark"``: the
    line a TOML error points at (``(at line L, column C)`` in ``message``; ``text`` the
    file's) and, where it is a mistake a case file's writer makes, the TOML for what it
    meant: a decimal comma (``9,81``), ``True``, a point without a digit on one side
    (``.5``), a number with its unit (``1e-4 s``), an unquoted word, ``key: value``;
    '' for an error that points at no line."""
    at = re.search(r"\(at line (\d+), column \d+\)", message)
    lines = text.splitlines()
    if at is None or not 0 < int(at[1]) <= len(lines):
        return ""
    number, line = int(at[1]), lines[int(at[1]) - 1].strip()
    shown = line if len(line) <= 80 else line[:77] + "..."  # (a line of a long text)
    key, equals, value = (part.strip() for part in line.partition("="))
    value = value.split("#")[0].strip()  # (a quoted '#' parses: no error points here)
    meant = (
        "TOML writes key = value" if not equals and ":" in line else
        f"a number with a decimal point, such as {value.replace(',', '.')} (a comma "
        f"separates the items of a list)"
        if DECIMAL_COMMA.fullmatch(value) else
        f"TOML writes {value.lower()}" if value in ("True", "False", "TRUE", "FALSE") else
        f"TOML writes a digit on both sides of the point, {float(value)!r}"
        if BARE_POINT.fullmatch(value) else
        "a number alone, without its unit (rocking-contact keys CASE gives each key's unit)"
        if WITH_UNIT.fullmatch(value) else
        f'a text goes in quotes, {key} = "{value}"' if BARE_WORD.fullmatch(value) else "")
    return f"; line {number} is {shown!r}" + (f": {meant}" if meant else "")


def _toml_hint(message: str) -> str:
    """What to do about a TOML error that a case file's layout leads to: ``quantity = []``
    and then ``[[quantity]]`` tables (as a child emptying its parent's list might write)
    give one key twice, which TOML refuses as an "immutable namespace"."""
    found = re.match(r"Cannot mutate immutable namespace \(((?:'[^']*',? ?)+)\)", message)
    if found is None:
        return ""
    key = ".".join(re.findall(r"'([^']*)'", found.group(1)))
    return (f"; {key} is given both as a value ({key} = [...]) and as [[{key}]] tables: "
            f"keep one (a child's [[{key}]] tables replace the list it extends; "
            f"{key} = [] alone empties it)")


def _record_origins(data: Mapping[str, Any], chain: tuple[Path, ...], origins: Origins,
                    prefix: tuple[str, ...] = ()) -> None:
    """Note ``chain`` as the origin of every key of ``data`` (tables key by key; a list is
    one value, as :func:`merge` replaces it whole)."""
    for key, value in data.items():
        origins[(*prefix, key)] = chain
        if isinstance(value, Mapping):
            _record_origins(value, chain, origins, (*prefix, key))


def read_case_data(path: Path, _seen: tuple[Path, ...] = (),
                   origins: Origins | None = None) -> dict[str, Any]:
    """Parse a case file, resolving ``extends = "other.toml"`` (relative to the file) or
    ``extends = "sdnv105d"`` (a shipped case or variant, by name: its copy beside the file,
    ``sdnv105d.toml``, if there is one, else the shipped file).

    A case that extends another inherits all its values and overrides some: tables merge,
    lists (``[[reference]]``, ``[[quantity]]``) are replaced when the child gives them.
    ``origins``, when given, is filled with the file each key comes from (see
    :data:`Origins`), so that an error names the file to edit.
    """
    data: dict[str, Any] = anchor_paths(read_toml(path), path.parent)
    parent = data.pop("extends", None)
    if parent is None:
        if origins is not None:
            _record_origins(data, (path, *_seen[::-1]), origins)
        return data
    if not isinstance(parent, str):
        raise CaseError(str(path), "extends", f"got {short_text(parent)}, allowed: a string, a "
                        "case file relative to this file or a shipped case's name")
    base = path.parent / parent  # not resolved: messages name it as the user would
    shipped = {**variant_cases(), **shipped_cases()}
    if not base.is_file() and parent in shipped:
        # a copy beside this file first: the user who copied sdnv105a.toml and
        # sdnv105d.toml, and edited the first, means the copy
        # (not the file itself: ./sdnv105a.toml may extend the shipped sdnv105a)
        sibling = path.parent / f"{parent}.toml"
        base = (sibling if sibling.is_file() and sibling.resolve() != path.resolve()
                else shipped[parent])
    chain = (*_seen, path)
    resolved = [p.resolve() for p in chain]
    if base.resolve() in resolved:
        cycle = [*chain[resolved.index(base.resolve()):], base]
        names = [p.name for p in cycle]
        names = names if len(set(names)) == len(cycle) - 1 else [str(p) for p in cycle]
        raise CaseError(str(path), "extends", f"{parent} closes a cycle: "
                        f"{' -> '.join(names)} (allowed: a chain that ends in a file "
                        "without extends)")
    if base.is_dir():
        raise CaseError(str(path), "extends", f"{parent} is a directory (allowed: a case "
                        "file relative to this file, or a shipped case's name: rocking-contact "
                        "list)")
    if not base.is_file():
        # a shipped case's file as ls shows it (sdnv105d.toml, variants/sdnv105d_fine.toml)
        named = Path(parent).name.removesuffix(".toml")
        hint = (f'; a shipped case is given by its name alone: extends = "{named}"'
                if named != parent and named in shipped else close_hint(parent, shipped))
        raise CaseError(str(path), "extends", f"no such file {parent} (allowed: a path "
                        f"relative to this file, or a shipped case's name: rocking-contact "
                        f"list{hint})")
    merged = merge(read_case_data(base, (*_seen, path), origins), data)
    if origins is not None:  # the child's own keys win, as in the merge
        _record_origins(data, (path, *_seen[::-1]), origins)
    return merged


def _chain(key: str, loaded: Path, origins: Origins) -> tuple[Path, ...]:
    """The files that hold ``key`` or its nearest enclosing table (:data:`Origins`); for a
    table, the latest of those that gave a key inside it (the fewest files: an override
    or the file loaded), which made what is refused of it (a child's ``--set
    time.refine.enabled=true`` under its parent's ``[time.refine]`` is the ``--set``'s)."""
    path = tuple(key_path(key)) if key else ()
    held = next((origins[path[:n]] for n in range(len(path), 0, -1) if path[:n] in origins),
                (loaded,))  # a missing key: the file loaded is the one to complete
    inside = [chain for p, chain in origins.items()
              if len(p) > len(path) and p[:len(path)] == path]
    return min([held, *inside], key=len)  # the first on a tie: the key's own holder


def origin_file(key: str, loaded: Path, origins: Origins) -> str:
    """The file that holds ``key`` (or its nearest enclosing table), as errors name it:
    ``parent.toml (extended by child.toml)`` when it comes from an extended file."""
    chain = _chain(key, loaded, origins)
    if len(chain) == 1:
        return str(chain[0])
    return f"{chain[0]} (extended by {', extended by '.join(map(str, chain[1:]))})"


def load_case(
    case: str | Path, overrides: Mapping[str, Any] | list[str] | str | None = None,
    *, given: str | None = None,
) -> Any:
    """Read, override and validate a case file; returns the kind's schema object.

    The passes, in order:

    1. read the file and the files it extends (:func:`read_case_data`), noting the files
       each key comes from (:data:`Origins`); the case takes its own file's name, never a
       parent's (:func:`_own_name`);
    2. apply the overrides; their keys are the loaded file's, given last (layer 0 of
       :data:`~rocking_contact.config.layers.Layer`);
    3. build the kind's schema (:func:`~rocking_contact.config.build`: types, ranges,
       rules between keys); a refusal names the file that holds the key, and of keys that
       break a rule together the one given last (:func:`_blamed`);
    4. refuse what the run would ignore or never reach
       (:func:`~rocking_contact.config.first_refusal`: a setting its variant does not
       read, a window past the end, two keys of one setting given together, a load
       sampled too seldom);
    5. set back to their defaults the keys a later layer left behind
       (:func:`~rocking_contact.config.leave_behind`: given for an old variant, or
       replaced by the other key of their pair);
    6. note on the object what loading knows and no schema field holds, its
       :class:`~rocking_contact.config.LoadInfo` (``case.load_info``: its file, the file
       of its references, its values with their layers, the overrides' word).

    Args:
        case: shipped case name (``"sdnd101a"``) or path to a TOML file.
        overrides: ``["time.step=1e-4", ...]`` (or one such string) or
            ``{"time.step": 1e-4}``.
        given: what messages call the overrides (``"... (with overrides): time.step:
            ..."``): by default ``--set`` for texts, as the command line gives them, and
            ``overrides`` for a mapping; a Python caller passing texts says ``overrides``.

    """
    path = resolve_case_path(case)
    if isinstance(overrides, str):  # one "section.key=value", not a list of its characters
        overrides = [overrides]
    if given is None:
        given = "overrides" if isinstance(overrides, Mapping) else "--set"
    origins: Origins = {}
    data = read_case_data(path, origins=origins)
    named = _own_name(data, path, origins)
    # the file whose [[reference]] the case uses (a parent's, through extends)
    references_from = origins.get(("reference",), (path,))[0]
    keys: list[str] = []
    if overrides:
        try:
            apply_overrides(data, overrides, Path.cwd())  # typed here: paths from here
        except CaseError as exc:
            raise CaseError(f"{path} (with {given})", exc.key, exc.problem) from None
        keys = overridden_keys(overrides)
        for key in keys:  # an overridden key is the loaded case's, even if a parent had it
            origins[tuple(key_path(key))] = (path,)
    unset = unset_name(data, path)
    layer = layers(origins, keys)
    try:  # (its record paths are absolute: read_case_data and apply_overrides anchored them)
        obj = build(kind_schema(case_kind(data, str(path))), data, file=str(path))
    except CaseError as exc:  # name the file that holds the key, and say --set took part
        if exc.reoffer is not None:
            exc = _offering_what_loads(exc, path, overrides, given)
        _refuse_another_kind(exc, data, path, origins)
        key, problem = _blamed(exc, layer, path, origins)
        if key == "case.name" and (unset or not named and layer(key) > 0):
            why = f"{given} unset it: give a name" if unset else ("the file gives none: "
                                                                  "give [case] name")
            problem += f" (the name of the file {path.name}, taken as the case's name since {why})"
        file = origin_file(key, path, origins) + (f" (with {given})" if overrides else "")
        raise CaseError(file, key, problem) from None

    def given_with(selector: str, key: str) -> tuple[Any, str]:
        # the selector as the file that holds `key` (and the files it extends) sets it
        holder = origins[tuple(key_path(key))][0]
        return dig(read_case_data(holder), selector), str(holder)

    refused = first_refusal(obj, layer)
    if refused is not None:
        key, problem = refused
        overridden = layer(key) == 0 or any(
            tuple(key_path(k))[:len(key_path(key))] == tuple(key_path(key)) for k in keys)
        file = origin_file(key, path, origins) + (f" (with {given})" if overridden else "")
        raise CaseError(file, key, problem)
    leave_behind(obj, layer, given_with)
    obj.load_info = LoadInfo(source_file=path, references_from=references_from,
                             loaded_as=(as_dict(obj), layer),
                             overrides_given=given if keys else None)
    return obj


def _refuse_another_kind(exc: CaseError, data: dict[str, Any], path: Path,
                         origins: Origins) -> None:
    """Raise, for ``exc``, an unknown key of a file that ``path`` extends (``origins``),
    the refusal of what made it unknown: the loaded case's ``case.kind`` (``data``'s)
    is not the kind of that file, whose keys are another kind's (a child of sdnv105d
    with ``kind = "rigid"``, told of sdnv105a's ``mesh`` alone, in the file it did not
    edit). Returns for any other error."""
    holder = origins.get(tuple(key_path(exc.key)), (path,))[0] if exc.key else path
    if not exc.problem.startswith("unknown key") or holder == path:
        return
    kind = case_kind(data, str(path))
    theirs = dig(read_case_data(holder), "case.kind")
    if not isinstance(theirs, str) or theirs == kind:
        return
    twin = (f"; for the rigid block of this block case, keep kind 'block' and run "
            f"rocking-contact rigid {path}" if (theirs, kind) == ("block", "rigid") else "")
    kind_file = origins.get(("case", "kind"), (path,))[0]
    raise CaseError(str(kind_file), "case.kind", f"got {kind!r}, and {holder.name}, which it "
                    f"extends, is a {theirs!r} case: its {exc.key} is no key of kind {kind!r}; "
                    f"allowed: {theirs!r}, or a case file of kind {kind!r} that does not "
                    f"extend it{twin}") from None


def _offering_what_loads(exc: CaseError, path: Path,
                         overrides: Mapping[str, Any] | list[str] | None,
                         given: str) -> CaseError:
    """``exc``, a refusal that offers values (:attr:`CaseError.reoffer`: a step that does
    not divide the run, and the steps and ends that do), after the case's other refusals
    of the values given, offering only the values the case loads with as typed.

    Raises:
        CaseError: the case's first other refusal, which ``exc`` would have hidden: the
            values it offers are no longer than the step given; otherwise a step refused
            as above a stability limit, or sampling a load too seldom, is offered dividing
            steps refused for the same reason (sdnd100a's 0.049 s: 0.0375 and 0.0429).

    """
    assert exc.reoffer is not None
    try:
        with whole_steps_unchecked():
            load_case(path, overrides, given=given)
    except CaseError as other:
        raise other from None

    def loads(key: str, text: str) -> bool:
        # the offered value stands in for the one given: a key given twice is refused
        tried: Mapping[str, Any] | list[str] = (
            {**overrides, key: float(text)} if isinstance(overrides, Mapping)
            else [*(t for t in overrides or [] if set_key(t) != tuple(key_path(key))),
                  f"{key}={text}"])
        try:
            load_case(path, tried, given=given)
        except CaseError:
            return False
        return True

    problems = exc.reoffer(loads)
    return CaseError(exc.file, exc.key, problems[exc.key], problems)


def _own_name(data: dict[str, Any], path: Path, origins: Origins) -> bool:
    """Give the case the name its own file gives it, else the file's stem: a name is
    never inherited through ``extends``, so that a child of ``sdnv105d`` without ``[case]
    name`` does not run as ``sdnv105d``, into ``results/sdnv105d/``, replacing the
    validated run there that ``report`` shows. Returns whether the file names the case
    itself (the stem is
    taken otherwise; ``data`` and ``origins`` are changed in place)."""
    info = data.get("case")
    if not isinstance(info, dict):
        return False  # not a table: the schema refuses it
    if origins.get(("case", "name"), ())[:1] == (path,):
        return True
    info["name"] = path.stem
    origins[("case", "name")] = (path,)
    return False


def unset_name(data: dict[str, Any], path: Path) -> bool:
    """Give the case its file's name (the stem) when ``data`` unsets ``case.name`` (None:
    ``--set case.name=``, an override's None, or one set on a loaded case): an unset key
    reads as if the file did not give it, and a file without a name takes its own
    (:func:`_own_name`). Returns whether it was unset (``data`` is changed in place)."""
    info = data.get("case")
    if not (isinstance(info, dict) and "name" in info and info["name"] is None):
        return False
    info["name"] = path.stem
    return True


def _blamed(exc: CaseError, layer: Layer, loaded: Path, origins: Origins
            ) -> tuple[str, str]:
    """The key an error names, and its problem: of the keys that break a rule together
    (:class:`~rocking_contact.config.Conflict`), the one given last (``--set``, or the file
    that extends the others'), with the files of the others when they are not its own (a
    child's ``time.start = 1`` after its parent's ``time.end = 0.5`` is the child's)."""
    if not exc.alternatives:
        return exc.key, exc.problem
    key = min(exc.alternatives, key=layer)  # the first one on a tie (min keeps it)
    elsewhere: dict[Path, list[str]] = {}
    for other in exc.alternatives:
        holder = _chain(other, loaded, origins)[0]
        if layer(key) < layer(other) < math.inf:  # given, in a file `key` overrides
            elsewhere.setdefault(holder, []).append(other)
    said = "; ".join(f"{', '.join(keys)} from {holder}" for holder, keys in elsewhere.items())
    return key, exc.alternatives[key] + (f" ({said})" if said else "")


def overridden_keys(overrides: Mapping[str, Any] | list[str]) -> list[str]:
    """The dotted keys that overrides set. An inline table merges into the table it is given
    for, so it sets the keys it names and no other: ``--set
    'loading.table_acceleration_x={type="table",path="ux.csv"}'`` on ``sdnv105d_shaking``
    leaves the file's sine ``frequency`` behind (not refused as given with the table)."""
    items = ([(key_path(k), v) for k, v in overrides.items()]
             if isinstance(overrides, Mapping) else [parse_override(t) for t in overrides])
    keys: list[str] = []

    def walk(path: list[str], value: Any) -> None:
        if isinstance(value, Mapping) and value:
            for name, item in value.items():
                walk([*path, str(name)], item)
        else:
            keys.append(".".join(path))

    for path, value in items:
        walk(path, value)
    return keys


def unread_after_loading(case: Any) -> tuple[str, str] | None:
    """The first setting changed on a loaded case (``case.contact.restitution = 0.5``) for
    a variant that does not read it, and why: ``(key, problem)``, as :func:`load_case`
    refuses it in a file. A change after loading is the latest layer, so a variant switched
    there leaves the file's settings behind; but a setting the new variant reads with
    another meaning (a sine's amplitude, once the type is 'table') is on the caller's
    object, and is refused rather than changed behind their back
    (:func:`~rocking_contact.config.first_refusal_of_changes`). None for a case built in
    code."""
    info = _info(case)
    if info.loaded_as is None or info.source_file is None:  # set together by loading
        return None
    return first_refusal_of_changes(case, *info.loaded_as, info.source_file)


# The accessors of what loading notes on a case (its LoadInfo, case.load_info): a case
# built in code has NOT_LOADED, and the post-processing is handed, in tests, stand-ins for
# cases (SimpleNamespace) that carry no record at all.


def _info(case: Any) -> LoadInfo:
    """``case.load_info``; :data:`NOT_LOADED` for an object that has none."""
    info: LoadInfo = getattr(case, "load_info", NOT_LOADED)
    return info


def source_file(case: CaseFile) -> Path | None:
    """The case file ``case`` was loaded from (where its relative paths start); None for
    a case built in code."""
    return _info(case).source_file


def file_label(case: CaseFile, key: str | None = None) -> str:
    """The file a refusal of ``case`` names (:class:`CaseError`'s ``file``): its case
    file, or for one built in code its name (``case.name``); with `` (with --set)`` (or
    the overrides' word) when ``key``, the refused key, was given by the overrides it was
    loaded with, as the refusals of :func:`load_case` say (a refusal made later, when the
    run starts, reads like one made at load)."""
    info = _info(case)
    if info.source_file is None:
        return str(getattr(case.case, "name", "") or "the case")
    if key is None or info.overrides_given is None or info.loaded_as is None:
        return str(info.source_file)
    if info.loaded_as[1](key) == 0:
        return f"{info.source_file} (with {info.overrides_given})"
    return str(info.source_file)


def references_from(case: CaseFile) -> Path | None:
    """The file whose ``[[reference]]`` list ``case`` uses (its own, or a parent's through
    ``extends``); None for a case built in code."""
    return _info(case).references_from


def loaded_as(case: CaseFile) -> tuple[dict[str, Any], Layer] | None:
    """The case's values as :func:`load_case` gave them, with where each key was given
    (:data:`~rocking_contact.config.layers.Layer`); None for a case built in code."""
    return _info(case).loaded_as


def loading_record(case: CaseFile) -> dict[str, Any] | None:
    """What ``rc.load_case`` noted of the case's loading (the case as given, its file, the
    overrides, the files read: :func:`rocking_contact.provenance.load_record`; a rigid
    twin's says it reruns with ``rigid``); None for a case built in code or loaded by
    :func:`load_case` alone."""
    return _info(case).load_record


def twin_of(case: CaseFile) -> str | None:
    """The name of the block case whose rigid twin ``case`` is (``rocking-contact rigid``);
    None for any other case."""
    return _info(case).twin_of


def base_case(case: CaseFile) -> CaseFile | None:
    """The case that ``case``'s changes are taken against: the case a derived case says
    its file defines (the rigid twin of a block's file as written; None for a file run as
    it stands), else its own file's (:func:`file_case`)."""
    info = _info(case)
    return info.base_case if info.twin_of is not None else file_case(case)


def file_case(case: Any) -> Any | None:
    """``case`` as its case file defines it, without overrides; None for a case built in
    code or whose file is gone."""
    source = source_file(case)
    if source is None or not Path(source).is_file():
        return None
    return load_case(source)
