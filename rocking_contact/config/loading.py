"""Case files on disk and :func:`load_case`.

Shipped cases and variants, the kinds (schema and runner of each ``case.kind``), TOML
reading, ``extends`` and the file each key comes from (so that an error names the file to
edit), and the refusal of settings that the chosen variant does not read or that no schema
key holds; the same walk lists the keys a run does not read (:func:`unread_keys`).
"""

from __future__ import annotations

import dataclasses
import math
import re
import tomllib
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rocking_contact.config.names import close_hint
from rocking_contact.config.overrides import (
    anchor_paths,
    apply_overrides,
    dig,
    key_path,
    parse_override,
)
from rocking_contact.config.reach import given_layer, never_reached
from rocking_contact.config.schema import (
    CaseError,
    as_dict,
    build,
    differences,
    dotted_key,
    merge,
    short_text,
    toml_text,
    unknown_key,
)
from rocking_contact.config.sections import whole_steps_unchecked

if TYPE_CHECKING:
    from rocking_contact.config.sections import CaseFile


@dataclasses.dataclass(frozen=True)
class Kind:
    """A case kind: where its schema and its runner are (imported when a case of the kind
    is loaded, run: :func:`kind_schema` here, ``rocking_contact.api.kind_runner`` above
    the kinds' modules)."""

    #: its schema, ``module:Class`` (light: no DOLFINx; loading and checking a case never
    #: imports a solver)
    schema: str
    #: the module that runs it, a ``rocking_contact.api.KindRunner``
    runner: str
    #: whether the runner writes into the results directory as it runs (the history
    #: streamed row by row, the fields): a ``rocking_contact.api.StreamingRunner``
    streams: bool = False


#: kind -> its :class:`Kind`
KINDS: dict[str, Kind] = {
    "discrete": Kind("rocking_contact.discrete.case:DiscreteCase",
                     "rocking_contact.discrete.runner"),
    "rigid": Kind("rocking_contact.analytic.rigid_case:RigidCase",
                  "rocking_contact.analytic.rigid_runner"),
    "block": Kind("rocking_contact.fem.case:BlockCase", "rocking_contact.fem.runner",
                  streams=True),
}


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


def _check_kind(kind: Any, file: str) -> Kind:
    if not isinstance(kind, str) or kind not in KINDS:
        raise CaseError(file, "case.kind", f"got {short_text(kind)}, allowed: {', '.join(KINDS)}")
    return KINDS[kind]


def case_kind(data: Mapping[str, Any], file: str) -> str:
    """The checked ``case.kind`` of parsed case data (one of :data:`KINDS`)."""
    info = data.get("case")
    if not isinstance(info, Mapping) or "kind" not in info:
        raise CaseError(file, "case.kind", f"missing (allowed: {', '.join(KINDS)})")
    _check_kind(info["kind"], file)
    kind: str = info["kind"]
    return kind


def kind_schema(kind: str, file: str = "") -> type[Any]:
    """The schema (case dataclass) of a case kind."""
    from rocking_contact.lazy import imported

    schema: type[Any] = imported(_check_kind(kind, file).schema)
    return schema


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
        raise CaseError(str(path), "", f"not valid TOML: {exc}{_toml_hint(str(exc))}"
                        ) from None
    except UnicodeDecodeError:  # TOML is UTF-8 by definition: a binary or Latin-1 file
        raise CaseError(str(path), "", "not UTF-8 text") from None
    except OSError as exc:
        raise CaseError(str(path), "", f"cannot read: {exc.strerror}") from None


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


#: key path (components, as :func:`key_path` gives them) -> the files that set it, the file
#: holding the value first, then the files that extend it up to the one loaded
Origins = dict[tuple[str, ...], tuple[Path, ...]]


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
        raise CaseError(str(path), "extends", f"expected a file name, got {short_text(parent)}")
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
        raise CaseError(str(path), "extends", f"no such file {parent} (allowed: a path "
                        "relative to this file, or a shipped case's name: rocking-contact list)")
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
    layer = _layers(origins, keys)
    try:  # (its record paths are absolute: read_case_data and apply_overrides anchored them)
        obj = build(kind_schema(case_kind(data, str(path))), data, file=str(path))
    except CaseError as exc:  # name the file that holds the key, and say --set took part
        if exc.reoffer is not None:
            exc = _offering_what_loads(exc, path, overrides, given)
        key, problem = _blamed(exc, layer, path, origins)
        if key == "case.name" and not named and layer(key) > 0:
            problem += (f" (the name of the file {path.name}, taken as the case's name since "
                        "the file gives none: give [case] name)")
        file = origin_file(key, path, origins) + (f" (with {given})" if overrides else "")
        raise CaseError(file, key, problem) from None

    def given_with(selector: str, key: str) -> tuple[Any, str]:
        # the selector as the file that holds `key` (and the files it extends) sets it
        holder = origins[tuple(key_path(key))][0]
        return dig(read_case_data(holder), selector), str(holder)

    # a setting its variant does not read; a window or instant its own run never reaches;
    # two keys that give one setting, given together
    refused = (_unread_settings(obj, layer) or never_reached(obj, layer)
               or _replacing_together(obj, layer) or _aliased(obj, layer))
    if refused is not None:
        key, problem = refused
        overridden = layer(key) == 0 or any(
            tuple(key_path(k))[:len(key_path(key))] == tuple(key_path(key)) for k in keys)
        file = origin_file(key, path, origins) + (f" (with {given})" if overridden else "")
        raise CaseError(file, key, problem)
    for table, name, _, _ in _old_meanings(obj, layer, given_with):
        setattr(table, name, _defaults(table)[name])  # left behind with its variant
    for table, name in _replaced(obj, layer):
        setattr(table, name, _defaults(table)[name])  # left behind by a later key
    obj.source_file = path  # relative paths inside the case (records, meshes) start here
    obj.references_from = references_from
    obj.loaded_as = (as_dict(obj), layer)  # for unread_after_loading
    obj.overrides_given = given if keys else None  # for file_label's later refusals
    return obj


def _offering_what_loads(exc: CaseError, path: Path,
                         overrides: Mapping[str, Any] | list[str] | None,
                         given: str) -> CaseError:
    """``exc``, a refusal that offers values (:attr:`CaseError.reoffer`: a step that does
    not divide the run, and the steps and ends that do), after the case's other refusals
    of the values given, offering only the values the case loads with as typed.

    Raises:
        CaseError: the case's first other refusal, which ``exc`` would have hidden: the
            values it offers are no longer than the step given, so that a step refused
            as above a stability limit, or sampling a load too seldom, was offered dividing
            steps refused for the same reason (sdnd100a's 0.049 s, 0.0375 and 0.0429).

    """
    assert exc.reoffer is not None
    try:
        with whole_steps_unchecked():
            load_case(path, overrides, given=given)
    except CaseError as other:
        raise other from None

    def loads(key: str, text: str) -> bool:
        tried: Mapping[str, Any] | list[str] = (
            {**overrides, key: float(text)} if isinstance(overrides, Mapping)
            else [*(overrides or []), f"{key}={text}"])
        try:
            load_case(path, tried, given=given)
        except CaseError:
            return False
        return True

    problems = exc.reoffer(loads)
    return CaseError(exc.file, exc.key, problems[exc.key], problems)


def _own_name(data: dict[str, Any], path: Path, origins: Origins) -> bool:
    """Give the case the name its own file gives it, else the file's stem: a name is
    never inherited through ``extends``. A child of ``sdnv105d`` without ``[case] name``
    ran as ``sdnv105d``, into ``results/sdnv105d/``, replacing the validated run there
    that ``report`` shows. Returns whether the file names the case itself (the stem is
    taken otherwise; ``data`` and ``origins`` are changed in place)."""
    info = data.get("case")
    if not isinstance(info, dict):
        return False  # not a table: the schema refuses it
    if origins.get(("case", "name"), ())[:1] == (path,):
        return True
    info["name"] = path.stem
    origins[("case", "name")] = (path,)
    return False


def _blamed(exc: CaseError, layer: Callable[[str], float], loaded: Path, origins: Origins
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
    leaves the file's sine ``frequency`` behind (it was refused as given with the table)."""
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
    another meaning (:func:`_old_meanings`: a sine's amplitude, once the type is 'table') is
    on the caller's object, and is refused rather than changed behind their back. None for
    a case built in code."""
    loaded = loaded_as(case)
    if loaded is None:
        return None
    params, layer = loaded
    changed = [".".join(p) for p in differences(params, as_dict(case))]

    def later(key: str) -> float:
        # a key is changed if it, a table holding it or a value inside it is
        if any(k == key or k.startswith(key + ".") or key.startswith(k + ".")
               for k in changed):
            return -1
        return layer(key)

    def given_with(selector: str, key: str) -> tuple[Any, str]:
        return dig(params, selector), f"{case.source_file} (as loaded)"

    old = _old_meanings(case, later, given_with)
    # a replaced key changed while the key that replaces it stands (its file's) would be
    # ignored: refused, the caller's object left as they made it
    left = [(id(table), name) for table, name in _replaced(case, later)]
    replaced = [(other_key, f"{toml_text(getattr(table, other))} has no effect: {key} = "
                            f"{toml_text(getattr(table, name))} of {case.source_file} (as "
                            f"loaded) replaces it; allowed: set {key} = None too")
                for table, name, other, key, other_key in replacements(case)
                if (id(table), name) in left]
    return (_unread_settings(case, later) or (old[0][2:] if old else None)
            or _replacing_together(case, later) or (replaced[0] if replaced else None)
            or _aliased(case, later))


def _layers(origins: Origins, overridden: Iterable[str]) -> Callable[[str], float]:
    """Where a key was given: 0 an override, 1 the loaded file, 2 the file it extends, ...;
    infinity when nowhere (its default)."""
    overrides = {tuple(key_path(k)) for k in overridden}

    def layer(key: str) -> float:
        path = tuple(key_path(key))  # (``quantity[1].time`` too)
        if any(path[:n] in overrides for n in range(1, len(path) + 1)):  # or its table
            return 0
        return len(origins[path]) if path in origins else math.inf

    return layer


def unread_override(obj: Any, overridden: Iterable[str]) -> tuple[str, str] | None:
    """For a schema built from overrides alone: the first override its variant does not
    read, and why (as :func:`load_case` refuses it), or None."""
    return _unread_settings(obj, _layers({}, overridden))


def _defaults(table: Any) -> dict[str, Any]:
    """Each field of a schema table with its default value (MISSING for a required one)."""
    return {f.name: f.default if f.default_factory is dataclasses.MISSING
            else f.default_factory() for f in dataclasses.fields(table)}


def _tables(obj: Any, prefix: str = "") -> Iterator[tuple[Any, str]]:
    """``obj`` and every table it holds, depth first, each with its dotted key ("" for
    ``obj``); the items of lists of tables are not walked."""
    yield obj, prefix
    for f in dataclasses.fields(obj):
        child = getattr(obj, f.name)
        if dataclasses.is_dataclass(child) and not isinstance(child, type):
            yield from _tables(child, dotted_key(prefix, f.name))


def _unread_settings(obj: Any, layer: Callable[[str], float]) -> tuple[str, str] | None:
    """The first key given for a variant that does not read it, and why: ``(key, problem)``.

    A schema class declares ``VARIANTS = {selector: {value: (fields it reads), ...}}``; the
    fields named for any value of a selector are governed by it. A governed field given
    (in a file or an override) away from its default while the chosen value does not read
    it would be silently ignored, so it is refused, unless it was given in an earlier layer
    than the selector (an override or an extending file that switches variant leaves the
    old variant's settings behind, e.g. ``--set contact.treatment=lagrange --set
    scheme.type=newmark`` on a theta case leaves its ``theta`` behind).
    """
    return next((found for table, prefix in _tables(obj)
                 if (found := _unread_in(table, layer, prefix)) is not None), None)


def _aliased(obj: Any, layer: Callable[[str], float]) -> tuple[str, str] | None:
    """The first function of time that the run's steps sample too seldom to see, and why:
    ``(key, problem)``, the key given last of the function's and ``time.step`` (a
    :class:`~rocking_contact.config.Conflict`'s rule). A table that declares
    ``aliasing(key, step)`` (a time function: a sine of half a period a step or more)
    says it; the step is ``time.step``, every kind's longest (a block's windows and
    refinement take shorter ones, a rigid block's history rows are that far apart). A
    section set as a dict on a loaded case (``case.time = {...}``) is read as such."""
    time = obj.time
    step = time.get("step") if isinstance(time, Mapping) else time.step
    if not isinstance(step, float | int):
        return None  # a step of another type: the schema refuses it
    for table, prefix in _tables(obj):
        aliasing = getattr(table, "aliasing", None)
        found = aliasing(prefix, step) if callable(aliasing) else None
        if found:
            key = min(found, key=lambda k: given_layer(layer, k))  # the first on a tie
            return key, found[key]
    return None


def unread_keys(case: Any) -> list[str]:
    """The dotted keys of ``as_dict(case)`` (results.json ``parameters``) that the variants
    the case chooses do not read, sorted: the fields a schema's ``VARIANTS`` governs that
    the chosen value of their selector does not name (:func:`_unread_settings`), given or
    not. SDNV105 A (``scheme.type = 'alpha_newmark'``, ``contact.treatment = 'lagrange'``)
    lists ``scheme.beta``, ``scheme.gamma``, ``scheme.theta``, ``contact.restitution`` and
    ``contact.spring``, among others: its steps' beta and gamma are derived from the
    alphas. A list of tables is one key (``contact.spring``), its items are not walked.
    Of two keys that give one setting (:func:`replacements`), the one not read is listed
    too (``sdnv105_rigid``'s ``preload.tilt``, beside its ``preload.angle``)."""
    replaced = {other_key if getattr(table, name) is not None else key
                for table, name, other, key, other_key in replacements(case)}
    return sorted({dotted_key(prefix, name) for table, prefix in _tables(case)
                   for name, _, _ in _not_read(table)} | replaced)


def _attribute(obj: Any, dotted: str) -> Any:
    """``obj.a.b`` for ``dotted`` = ``"a.b"``."""
    for name in dotted.split("."):
        obj = getattr(obj, name)
    return obj


def _variants(obj: Any) -> dict[str, dict[Any, tuple[str, ...]]]:
    """A table's ``VARIANTS`` and its ``TABLE_VARIANTS``: a selector (dotted, inside the
    table) that decides whether whole tables of it are read, each such table given as the
    dotted keys of its fields (``initial.state = 'rest'`` reads no ``preload.tilt``)."""
    out = dict(getattr(obj, "VARIANTS", {}))
    for selector, variants in getattr(obj, "TABLE_VARIANTS", {}).items():
        out[selector] = {value: tuple(f"{table}.{f.name}" for table in tables
                                      for f in dataclasses.fields(getattr(obj, table)))
                         for value, tables in variants.items()}
    return out


def _not_read(obj: Any) -> Iterator[tuple[str, str, dict[Any, tuple[str, ...]]]]:
    """The fields of one table that a selector of its ``VARIANTS`` (or ``TABLE_VARIANTS``)
    governs and its chosen value does not read: ``(field, selector, the selector's
    variants)`` for each, dotted inside the table, in the order the selectors and their
    variants name them."""
    for selector, variants in _variants(obj).items():
        reads = variants[_attribute(obj, selector)]
        governed = dict.fromkeys(name for fields in variants.values() for name in fields)
        for name in governed:
            if name not in reads:
                yield name, selector, variants


def _unread_in(obj: Any, layer: Callable[[str], float], prefix: str
               ) -> tuple[str, str] | None:
    """:func:`_unread_settings` for the keys of one table (``prefix``: its dotted key)."""
    defaults = _defaults(obj)
    for name, selector, variants in _not_read(obj):
        key = dotted_key(prefix, name)
        value_given = _attribute(obj, name)
        table, _, field = name.rpartition(".")
        default = getattr(defaults[table], field) if table else defaults[name]
        if layer(key) == math.inf or value_given == default:
            continue  # not given, or given as its default (no effect either way)
        if layer(key) > layer(dotted_key(prefix, selector)):
            continue  # left behind by a later choice of variant
        value = _attribute(obj, selector)
        readers = [toml_text(v) for v, fields in variants.items() if name in fields]
        if isinstance(value_given, list) and value_given and all(
                dataclasses.is_dataclass(v) for v in value_given):
            text = f"{len(value_given)} [[{key}]] table(s)"
        else:
            text = toml_text(value_given)
        return key, (f"{text} has no effect with "
                     f"{dotted_key(prefix, selector)} = {toml_text(value)}, which does not "
                     f"read it; "
                     f"allowed: leave it out, or {selector} {' or '.join(readers)}")
    return None


def _old_meanings(obj: Any, layer: Callable[[str], float],
                  given_with: Callable[[str, str], tuple[Any, str]]
                  ) -> list[tuple[Any, str, str, str]]:
    """The keys whose meaning their variant decides, given for another variant than the
    one chosen later: ``(table, field name, the selector's dotted key, why)`` for each.

    A schema class declares ``MEANINGS = {selector: {field: {value: what the field means
    for it}}}``: a time function's ``amplitude`` is a sine's peak and a table's factor on
    its values. Such a field given in an earlier layer (an extended file; the file under
    ``--set``) than a choice of another value of its selector belongs to the old variant,
    as the settings the new one does not read (:func:`_unread_settings`) do: it is left
    behind (:func:`load_case` sets the default), not read with its new meaning (a sine's
    peak of 6 m/s^2 scaled a record by 6). ``given_with(selector_key, key)`` is the
    selector's value (``dataclasses.MISSING`` when not given) where ``key`` was given,
    and the name of that place.
    """
    found = []
    for table, prefix in _tables(obj):
        defaults = _defaults(table)
        for selector, fields in getattr(table, "MEANINGS", {}).items():
            chosen, chosen_key = getattr(table, selector), dotted_key(prefix, selector)
            for name, meanings in fields.items():
                key, value = dotted_key(prefix, name), getattr(table, name)
                if (chosen not in meanings or value == defaults[name]
                        or not layer(chosen_key) < layer(key) < math.inf):
                    continue  # not read, its default, or given with the variant (or later)
                then, where = given_with(chosen_key, key)
                then = defaults[selector] if then is dataclasses.MISSING else then
                if then == chosen:
                    continue
                found.append((table, name, chosen_key, (
                    f"{toml_text(chosen)} reads {name} as {meanings[chosen]}, and the "
                    f"{name} = {toml_text(value)} of {where} was given for {selector} "
                    f"{toml_text(then)}"
                    + (f", as {meanings[then]}" if then in meanings else "")
                    + f"; allowed: set {key} with the new {selector}")))
    return found


def replacements(obj: Any) -> Iterator[tuple[Any, str, str, str, str]]:
    """The pairs of keys that give one setting in two ways: a table declares ``REPLACES =
    {field: other}``, ``field`` (None by default) replacing, when given, the reading of
    ``other`` (the rigid block's ``preload.angle`` and the ``preload.tilt`` of a FEM
    block's pull). ``(table, field, other, field's dotted key, other's)`` for each."""
    for table, prefix in _tables(obj):
        for name, other in getattr(table, "REPLACES", {}).items():
            yield table, name, other, dotted_key(prefix, name), dotted_key(prefix, other)


def _replaced(obj: Any, layer: Callable[[str], float]) -> list[tuple[Any, str]]:
    """The keys of :func:`replacements` given in an earlier layer than the other of
    their pair, ``(table, field)`` for each: left behind, as a variant's settings are
    (:func:`_old_meanings`): ``--set preload.tilt=0.3`` on a file that gives
    ``preload.angle`` releases the block from the tilt, and a child's ``angle`` replaces
    its parent's ``tilt``. Pairs given in one layer are :func:`_replacing_together`'s."""
    found = []
    for table, name, other, key, other_key in replacements(obj):
        if getattr(table, name) is None or layer(other_key) == math.inf:
            continue  # the other is read, or the field is and the other is not given
        if layer(key) < layer(other_key):
            found.append((table, other))
        elif layer(other_key) < layer(key):
            found.append((table, name))
    return found


def _replacing_together(obj: Any, layer: Callable[[str], float]) -> tuple[str, str] | None:
    """``(key, problem)`` for the first pair of :func:`replacements` given both in one
    layer (one file, or both as overrides): the field would be read and the other
    ignored."""
    for table, name, other, key, other_key in replacements(obj):
        value = getattr(table, name)
        if value is not None and layer(key) == layer(other_key) < math.inf:
            return other_key, (f"{toml_text(getattr(table, other))} has no effect with "
                               f"{key} = {toml_text(value)} given with it, which replaces "
                               f"it; allowed: one of {other_key} and {key}")
    return None


def stray_attribute(obj: Any, prefix: str = "", exempt: Iterable[str] = ()
                    ) -> tuple[str, str] | None:
    """An attribute set on a loaded case that is no key of its schema (``case.time.stpe =
    1e-3``, which the run would ignore): ``(key, problem)``, or None."""
    names = [f.name for f in dataclasses.fields(obj)]
    for name in vars(obj):
        if name not in names and name not in exempt:
            return dotted_key(prefix, name), unknown_key(name, names)
    for name in names:
        values = getattr(obj, name)
        for i, value in enumerate(values if isinstance(values, list) else [values]):
            if dataclasses.is_dataclass(value) and not isinstance(value, type):
                key = dotted_key(prefix, name) + (f"[{i}]" if isinstance(values, list) else "")
                found = stray_attribute(value, key)
                if found is not None:
                    return found
    return None


# Loading notes on a case object what no schema field holds (load_case: source_file,
# references_from, loaded_as; rc.load_case: load_record; the rigid twin: base_case,
# twin_of): as attributes, so that as_dict and results.json's parameters leave them out.
# A case built in code has none; the accessors below say what that means for each.


def source_file(case: CaseFile) -> Path | None:
    """The case file ``case`` was loaded from (where its relative paths start); None for
    a case built in code."""
    source: Path | None = getattr(case, "source_file", None)
    return source


def file_label(case: CaseFile, key: str | None = None) -> str:
    """The file a refusal of ``case`` names (:class:`CaseError`'s ``file``): its case
    file, or for one built in code its name (``case.name``); with `` (with --set)`` (or
    the overrides' word) when ``key``, the refused key, was given by the overrides it was
    loaded with, as the refusals of :func:`load_case` say (a refusal made later, when the
    run starts, reads like one made at load)."""
    source = source_file(case)
    if source is None:
        return str(getattr(case.case, "name", "") or "the case")
    given: str | None = getattr(case, "overrides_given", None)
    loaded = loaded_as(case)
    if key is None or given is None or loaded is None:
        return str(source)
    return f"{source} (with {given})" if loaded[1](key) == 0 else str(source)


def references_from(case: CaseFile) -> Path | None:
    """The file whose ``[[reference]]`` list ``case`` uses (its own, or a parent's through
    ``extends``); None for a case built in code."""
    source: Path | None = getattr(case, "references_from", None)
    return source


def loaded_as(case: CaseFile) -> tuple[dict[str, Any], Callable[[str], float]] | None:
    """The case's values as :func:`load_case` gave them, with where each key was given
    (:func:`_layers`); None for a case built in code."""
    loaded: tuple[dict[str, Any], Callable[[str], float]] | None = getattr(
        case, "loaded_as", None)
    return loaded


def loading_record(case: CaseFile) -> dict[str, Any] | None:
    """What ``rc.load_case`` noted of the case's loading (the case as given, its file, the
    overrides, the files read: :func:`rocking_contact.provenance.load_record`; a rigid
    twin's says it reruns with ``rigid``); None for a case built in code or loaded by
    :func:`load_case` alone."""
    record: dict[str, Any] | None = getattr(case, "load_record", None)
    return record


def twin_of(case: CaseFile) -> str | None:
    """The name of the block case whose rigid twin ``case`` is (``rocking-contact rigid``);
    None for any other case."""
    block: str | None = getattr(case, "twin_of", None)
    return block


def base_case(case: CaseFile) -> CaseFile | None:
    """The case that ``case``'s changes are taken against: the case a derived case says
    its file defines (the rigid twin of a block's file as written; None for a file run as
    it stands), else its own file's (:func:`file_case`)."""
    if hasattr(case, "base_case"):
        derived: CaseFile | None = case.base_case
        return derived
    return file_case(case)


def case_dir(case: Any) -> Path | None:
    """The folder of the file ``case`` was loaded from (where its relative paths start);
    None for a case built in code."""
    source = source_file(case)
    return None if source is None else Path(source).parent


def file_case(case: Any) -> Any | None:
    """``case`` as its case file defines it, without overrides; None for a case built in
    code or whose file is gone."""
    source = source_file(case)
    if source is None or not Path(source).is_file():
        return None
    return load_case(source)
