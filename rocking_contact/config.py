"""Case files: typed, validated, overridable.

A case file is TOML data (never code). Its schema is a tree of dataclasses: every field is
typed, may carry a default, a unit, a short doc and a constraint. :func:`build` turns the
parsed TOML into that tree and reports the first problem as a :class:`CaseError` naming the
file, the key, what is wrong and what is allowed, so that the command line can print one
line and exit with code 2.

Constraints are declared with :func:`param`::

    step: float = param(doc="time step", unit="s", check=POSITIVE)

Overrides ``section.key=value`` (``--set`` on the command line) are applied to the parsed
TOML before validation, so they are checked exactly like the file; list items are addressed
by index, written as the error messages write it (``model.shock[0].kn=2e6``) or dotted
(``model.shock.0.kn=2e6``).
"""

from __future__ import annotations

import dataclasses
import math
import numbers
import re
import tomllib
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

#: The folder a case file's relative paths (CSV records) start from, while the case is built:
#: a ``validate`` that reads such a file finds it here (None: the current directory).
CASE_FOLDER: ContextVar[Path | None] = ContextVar("case_folder", default=None)


class CaseError(ValueError):
    """A problem in a case file or an override: one line for the user.

    Attributes:
        file: the case file (or ``"--set"``) the problem comes from.
        key: dotted key of the offending value (``time.step``); empty for the whole file.
        problem: what is wrong and what is allowed.

    """

    def __init__(self, file: str, key: str, problem: str):
        self.file, self.key, self.problem = file, key, problem
        where = f"{file}: {key}: " if key else f"{file}: "
        super().__init__(where + problem)


@dataclass(frozen=True)
class Check:
    """A constraint on a scalar value, with the words used to explain it."""

    test: Callable[[Any], bool]
    allowed: str


POSITIVE = Check(lambda x: x > 0, "a number > 0")
NONNEGATIVE = Check(lambda x: x >= 0, "a number >= 0")
FINITE = Check(lambda x: math.isfinite(x), "a finite number")
#: a name that is one directory name (results/<name>/), not a path
DIRECTORY_NAME = Check(lambda x: re.fullmatch(r"[A-Za-z0-9_][A-Za-z0-9_.+-]*", x) is not None,
                       "letters, digits and _ . + - (not starting with . + -), no path")


def in_range(lo: float, hi: float) -> Check:
    """Closed interval constraint ``lo <= x <= hi``."""
    return Check(lambda x: lo <= x <= hi, f"a number in [{lo:g}, {hi:g}]")


def param(
    default: Any = dataclasses.MISSING,
    *,
    doc: str = "",
    unit: str = "",
    check: Check | None = None,
    default_factory: Any = dataclasses.MISSING,
) -> Any:
    """A schema field: default, documentation, unit and optional constraint."""
    meta = {"doc": doc, "unit": unit, "check": check}
    if default_factory is not dataclasses.MISSING:
        return field(default_factory=default_factory, metadata=meta)
    return field(default=default, metadata=meta)


def _type_name(tp: Any) -> str:
    origin = typing.get_origin(tp)
    if tp is float:
        return "a number"
    if tp is int:
        return "an integer"
    if tp is bool:
        return "true or false"
    if tp is str:
        return "a string"
    if origin is Literal:
        return "one of " + ", ".join(repr(a) for a in typing.get_args(tp))
    if origin in (list, tuple):
        args = typing.get_args(tp)
        if origin is tuple and args and args[-1] is not Ellipsis:
            return f"a list of {len(args)} values ({_type_name(args[0])} each)"
        return f"a list ({_type_name(args[0])} each)"
    if origin in (typing.Union, types.UnionType):
        return " or ".join(_type_name(a) for a in typing.get_args(tp) if a is not type(None))
    if dataclasses.is_dataclass(tp):
        return "a table"
    return getattr(tp, "__name__", str(tp))


def _toml_text(value: Any) -> str:
    """``value`` spelled as in a case file (``true``, ``[1, 2]``), not as Python spells it
    (``True``): the messages quote what the user wrote."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_text(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k} = {_toml_text(v)}" for k, v in value.items()) + "}"
    return repr(value)  # numbers as TOML writes them; strings quoted ('abc' is TOML too)


def _describe(value: Any) -> str:
    text = _toml_text(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _convert(tp: Any, value: Any, key: str, file: str) -> Any:
    """Convert one TOML value to the annotated type, or raise a CaseError."""
    origin = typing.get_origin(tp)

    def fail() -> typing.NoReturn:
        raise CaseError(file, key, f"expected {_type_name(tp)}, got {_describe(value)}")

    if origin in (typing.Union, types.UnionType):
        members = [a for a in typing.get_args(tp) if a is not type(None)]
        if value is None:
            return None
        if len(members) == 1:  # optional: the inner type's own error is the useful one
            return _convert(members[0], value, key, file)
        for arg in members:
            try:
                return _convert(arg, value, key, file)
            except CaseError:
                continue
        fail()
    # numbers.Real / Integral: NumPy scalars given through the Python API count too
    if tp is float:
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            fail()
        return float(value)
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            fail()
        return int(value)
    if tp is bool:
        if not isinstance(value, bool):
            fail()
        return value
    if tp is str:
        if not isinstance(value, str):
            fail()
        return value
    if tp is Any:
        return value
    if origin is Literal:
        if value not in typing.get_args(tp):
            fail()
        return value
    if origin is list or origin is tuple:
        if not isinstance(value, list | tuple):
            fail()
        args = typing.get_args(tp)
        if origin is tuple and args[-1] is not Ellipsis:
            if len(value) != len(args):
                fail()
            return tuple(
                _convert(a, v, f"{key}[{i}]", file) for i, (a, v) in enumerate(zip(args, value))
            )
        items = [_convert(args[0], v, f"{key}[{i}]", file) for i, v in enumerate(value)]
        return tuple(items) if origin is tuple else items
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        if not isinstance(value, Mapping):
            fail()
        return build(tp, value, file=file, prefix=key)
    raise TypeError(f"schema type {tp!r} at {key} is not supported")  # a bug in a schema


def build[T](cls: type[T], data: Mapping[str, Any], *, file: str, prefix: str = "") -> T:
    """Build the dataclass ``cls`` from parsed TOML ``data``, validating every value.

    Unknown keys, missing required keys, wrong types and failed constraints raise
    :class:`CaseError`; a key the class lists in ``MOVED = {key: "its new dotted key"}`` is
    refused with where it went. After construction, a ``validate(self)`` method on the class
    (if any) is called for cross-field rules; it raises ``ValueError("key: problem")`` with a
    key relative to ``prefix``.
    """
    hints = typing.get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    moved = getattr(cls, "MOVED", {})
    for key in data:
        if key in moved:
            raise CaseError(file, _join(prefix, key), f"moved: set {moved[key]} instead")
        if key not in fields:
            allowed = ", ".join(fields)
            raise CaseError(file, _join(prefix, key), f"unknown key (allowed: {allowed})")
    kwargs: dict[str, Any] = {}
    for name, f in fields.items():
        key = _join(prefix, name)
        if name not in data:
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise CaseError(file, key, f"missing (expected {_type_name(hints[name])})")
            continue
        raw = data[name]
        if (isinstance(raw, Mapping) and dataclasses.is_dataclass(hints[name])
                and f.default_factory is not dataclasses.MISSING):
            # A partial table completes the default one (``--set material.block.young=1e9``
            # keeps the other default block properties).
            raw = merge(dataclasses.asdict(f.default_factory()), raw)
        value = _convert(hints[name], raw, key, file)
        check: Check | None = f.metadata.get("check")
        if check is not None and value is not None:
            for i, item in enumerate(value if isinstance(value, list | tuple) else [value]):
                if not check.test(item):
                    where = key if not isinstance(value, list | tuple) else f"{key}[{i}]"
                    raise CaseError(file, where, f"got {_describe(item)}, allowed: {check.allowed}")
        kwargs[name] = value
    obj = cls(**kwargs)
    validate = getattr(obj, "validate", None)
    if validate is not None:
        try:
            validate()
        except CaseError:
            raise
        except ValueError as exc:
            sub, _, problem = str(exc).partition(": ")
            raise CaseError(file, _join(prefix, sub), problem) from None
    return obj


def _join(prefix: str, key: str) -> str:
    return f"{prefix}.{key}" if prefix else key


def key_path(key: str) -> list[str]:
    """Components of a dotted key; a list index reads ``shock[0]`` or ``shock.0``.

    Both spellings are taken so that a key copied from an error message (which writes
    ``model.shock[0].kn``) works in ``--set`` and in the Python API's override dicts.

    Raises:
        CaseError: an empty component (``time..step``).

    """
    path = re.sub(r"\[(\d+)\]", r".\1", key.strip()).split(".")
    if any(not p for p in path):
        raise CaseError("--set", key, "empty component in the dotted key")
    return path


def parse_override(text: str) -> tuple[list[str], Any]:
    """Split ``section.key=value`` into a key path (:func:`key_path`) and a TOML-parsed
    value.

    The value is read as a TOML literal (``1e-4``, ``true``, ``[1, 2]``, ``"name"``); if it
    is not one, it is taken as a bare string (``scheme=newmark``).
    """
    key, sep, raw = text.partition("=")
    if not sep or not key.strip():
        raise CaseError("--set", text, "expected section.key=value")
    path = key_path(key)
    try:
        value = tomllib.loads(f"v = {raw.strip()}")["v"]
    except tomllib.TOMLDecodeError:
        value = raw.strip()
    return path, value


def apply_overrides(data: dict[str, Any], overrides: Mapping[str, Any] | list[str]) -> None:
    """Apply ``--set`` overrides in place; list items are addressed by integer index
    (``a.b[0].c`` or ``a.b.0.c``, see :func:`key_path`).

    ``overrides`` is either a list of ``"a.b=value"`` strings (command line) or a mapping of
    dotted keys to Python values (Python API); both read their keys the same way.
    """
    items: list[tuple[list[str], Any]]
    if isinstance(overrides, Mapping):
        items = [(key_path(k), v) for k, v in overrides.items()]
    else:
        items = [parse_override(text) for text in overrides]
    for path, value in items:
        node: Any = data
        where = ""  # the key so far, spelled as the error messages of build spell it
        for part in path[:-1]:
            if isinstance(node, list):
                where = f"{where}[{part}]"
                node = node[_index(node, part, where)]
            elif isinstance(node, dict):
                where = _join(where, part)
                node = node.setdefault(part, {})
            else:
                raise CaseError("--set", where, "is a value, not a table")
        last = path[-1]
        if isinstance(node, list):
            key: Any = _index(node, last, f"{where}[{last}]")
        elif isinstance(node, dict):
            key = last
        else:
            raise CaseError("--set", where, "is a value, not a table")
        old = node.get(key) if isinstance(node, dict) else node[key]
        # A table given for a table (or a list's table) merges into it, as with extends:
        # {"time": {"step": 1e-4}} changes the step and keeps time.end.
        node[key] = merge(old, value) if isinstance(value, Mapping) and isinstance(
            old, Mapping) else value


def _index(items: list[Any], part: str, where: str) -> int:
    if not part.isdigit() or int(part) >= len(items):
        have = f"an index 0..{len(items) - 1}" if items else "none: the list is empty"
        raise CaseError("--set", where, f"got index {part!r}, allowed: {have} (set the whole "
                                        "list to add items)")
    return int(part)


# ---------------------------------------------------------------------------------------
# Sections shared by every kind of case.


@dataclass(kw_only=True)
class CaseInfo:
    """The ``[case]`` table: identity of the case."""

    name: str = param(doc="short name, used for the results directory",
                      check=DIRECTORY_NAME)
    title: str = param(doc="one-line title shown by `rocking-contact list`")
    kind: str = param(doc="model family: selects the schema and the runner")
    description: str = param("", doc="free text: what the case is, where it comes from")


@dataclass(kw_only=True)
class Reference:
    """A ``[[reference]]``: a published value to compare one computed quantity with.

    ``tolerance_kind`` says how ``tolerance`` reads: ``relative`` (|ours - ref| <= tol |ref|),
    ``absolute`` (in the quantity's unit) or ``steps`` (absolute, in multiples of the run's
    time step: "within one time step"). A reference without ``tolerance`` is shown for
    information and never decides pass or fail.
    """

    quantity: str = param(doc="name of a computed quantity")
    value: float = param(doc="reference value", check=FINITE)
    source: str = param(doc="where the value comes from (analytic, Code_Aster, LMGC90, ...)")
    tolerance: float | None = param(None, doc="pass mark", check=POSITIVE)
    tolerance_kind: Literal["relative", "absolute", "steps"] = param("relative")
    note: str = param("", doc="how the value was obtained, caveats")

    def validate(self) -> None:
        if not self.source.strip():
            raise ValueError("source: empty; say where the value comes from")


@dataclass(kw_only=True)
class QuantitySpec:
    """A ``[[quantity]]``: a scalar extracted from a history column.

    ``op`` is one of: ``at`` (linear interpolation at ``time``), ``max``, ``min``,
    ``argmax``, ``argmin`` (instant of the extremum), ``integral`` (trapezoidal) over
    ``window`` (the whole run if omitted), ``step_integral`` (the exact integral over
    ``window`` of a column whose sample at the end of each step is that step's mean value,
    held over the step: an impulse over the step divided by the step, as the reactions of
    the theta-scheme's contact), ``final`` (last value), ``crossing`` (the first instant in
    ``window`` at which the column reaches ``level`` in ``direction``, interpolated
    linearly between the two samples around it; an impact instant, an uplift: better
    conditioned than the instant of a flat extremum).

    ``bounds`` says whether the samples on the window's ends belong to it: ``closed`` (they
    do, to round-off) or ``open`` (they do not: ``t0 < t < t1``, the strict filter of
    Code_Aster's test inputs, ``FILTRE`` with ``CRIT_COMP = 'GT'`` and ``'LT'``; an open
    ``integral`` is the trapezoid over the samples strictly inside).
    """

    name: str = param(doc="quantity name used by references")
    column: str = param(doc="history column, e.g. DY_NO1")
    op: Literal["at", "max", "min", "argmax", "argmin", "integral", "step_integral",
                "final", "crossing"] = param()
    time: float | None = param(None, unit="s")
    level: float | None = param(None, check=FINITE,
                                doc="value whose crossing op 'crossing' finds (the column's unit)")
    direction: Literal["either", "up", "down"] | None = param(
        None, doc="op 'crossing': reaching the level from below (up), from above (down) or "
                  "either way (the default)")
    window: tuple[float, float] | None = param(None, unit="s")
    bounds: Literal["closed", "open"] = param(
        "closed", doc="whether samples on the window's ends count")

    def validate(self) -> None:
        if (self.op == "at") != (self.time is not None):
            raise ValueError("time: required with op 'at', and only with it "
                             f"(got op '{self.op}')")
        if (self.op == "crossing") != (self.level is not None):
            raise ValueError("level: required with op 'crossing', and only with it "
                             f"(got op '{self.op}')")
        if self.direction is not None and self.op != "crossing":
            raise ValueError(f"direction: only with op 'crossing' (got op '{self.op}')")
        if self.window is not None and self.window[1] <= self.window[0]:
            raise ValueError(f"window: end {self.window[1]} is not after start {self.window[0]}")
        if self.bounds == "open" and (self.window is None
                                      or self.op in ("at", "final", "step_integral")):
            raise ValueError(f"bounds: 'open' needs a window and op max, min, argmax, argmin "
                             f"or integral (got op '{self.op}'"
                             f"{'' if self.window else ' without a window'})")


#: Most time steps a run may take. Far above every shipped case and variant (4614 at most)
#: and above what a run can afford (a discrete run holds two floats per step, 1.6 GB here):
#: a mistyped step (1e-12 s) is refused at load instead of ending in a MemoryError.
MAX_STEPS = 10**8


def step_count_problem(step: float, n_steps: float, duration: float, span: str
                       ) -> str | None:
    """Why a run of ``n_steps`` steps is refused, as the ``problem`` part of an error
    (``got ..., allowed: ...``) about ``step`` (s); None if it is not refused.

    Args:
        step: the step the error names (``time.step``, or a window's step).
        n_steps: steps of the whole run, as a float: a step of 1e-320 s makes inf.
        duration: time (s) that ``step`` covers: the smallest step allowed is the one that
            alone would take :data:`MAX_STEPS` steps over it.
        span: the run in words (``from time.start 0 to time.end 0.5 s``).

    """
    if n_steps <= MAX_STEPS:
        return None
    return (f"got {step:g}, allowed: at most {MAX_STEPS:.0e} steps {span}, a step >= "
            f"{duration / MAX_STEPS:.3g} s or a shorter run (this one makes "
            f"{n_steps:.3g} steps)")


@dataclass(kw_only=True)
class TimeSpan:
    """The ``[time]`` table for uniform stepping (at most :data:`MAX_STEPS` steps)."""

    start: float = param(0.0, unit="s", check=FINITE)
    end: float = param(unit="s", check=FINITE)
    step: float = param(unit="s", check=POSITIVE)

    def validate(self) -> None:
        if self.end <= self.start:
            raise ValueError(f"end: {self.end:g} is not after start {self.start:g}")
        if self.step > self.end - self.start:
            span = self.end - self.start
            raise ValueError(f"step: {self.step:g} is longer than the run {span:g}")
        span = self.end - self.start
        problem = step_count_problem(
            self.step, span / self.step, span,
            f"from time.start {self.start:g} to time.end {self.end:g} s")
        if problem:
            raise ValueError(f"step: {problem}")

    @property
    def n_steps(self) -> int:
        """Number of steps; the last one lands on ``end`` to round-off."""
        return int(round((self.end - self.start) / self.step))


@dataclass(kw_only=True)
class CaseFile:
    """What every case file has: ``[case]``, ``[[quantity]]`` and ``[[reference]]``.

    The schema of a kind derives from it and adds its own sections (a ``[time]`` with a
    ``step`` at least).
    """

    case: CaseInfo = param()
    quantity: list[QuantitySpec] = param(default_factory=list)
    reference: list[Reference] = param(default_factory=list)


# ---------------------------------------------------------------------------------------
# Loading.

#: kind -> (its schema ``module:Class``, the module with its ``run(case, progress=...)``).
#: Schemas are light (no DOLFINx): loading and checking a case never imports a solver.
KINDS: dict[str, tuple[str, str]] = {
    "discrete": ("rocking_contact.discrete.case:DiscreteCase", "rocking_contact.discrete.runner"),
    "rigid": ("rocking_contact.analytic.rigid_runner:RigidCase",
              "rocking_contact.analytic.rigid_runner"),
    "block": ("rocking_contact.fem.case:BlockCase", "rocking_contact.fem.runner"),
}


def cases_dir() -> Path:
    """Directory of the shipped case files (the repository's ``cases/``)."""
    return Path(__file__).resolve().parent.parent / "cases"


def shipped_cases() -> dict[str, Path]:
    """Shipped case names mapped to their files, sorted by name (what ``validate`` runs)."""
    return {p.stem: p for p in sorted(cases_dir().glob("*.toml"))}


def variant_cases() -> dict[str, Path]:
    """Variants of the shipped cases (``cases/variants/``: finer meshes, other steps), by
    name: runnable by name like the shipped ones, but not in ``validate``'s default set."""
    return {p.stem: p for p in sorted((cases_dir() / "variants").glob("*.toml"))}


def resolve_case_path(case: str | Path) -> Path:
    """A shipped case or variant name, or a path to a TOML file -> the file's path."""
    known = {**variant_cases(), **shipped_cases()}
    if isinstance(case, str) and case in known:
        return known[case]
    path = Path(case)
    if path.suffix == ".toml" and path.is_file():
        return path
    if path.is_file():
        raise CaseError(str(case), "", "not a case file (allowed: a .toml file, or a shipped "
                                       "case's name)")
    names = ", ".join(shipped_cases()) or "none"
    raise CaseError(str(case), "", f"no such case file or shipped case (shipped: {names}; "
                                   "variants: rocking-contact list)")


def _check_kind(kind: Any, file: str) -> tuple[str, str]:
    if not isinstance(kind, str) or kind not in KINDS:
        raise CaseError(file, "case.kind", f"got {_describe(kind)}, allowed: {', '.join(KINDS)}")
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
    import importlib

    module, _, name = _check_kind(kind, file)[0].partition(":")
    schema: type[Any] = getattr(importlib.import_module(module), name)
    return schema


def kind_runner(kind: str, file: str = "") -> Any:
    """The module that runs a case kind (``run(case, progress=...)``)."""
    import importlib

    return importlib.import_module(_check_kind(kind, file)[1])


def read_toml(path: Path) -> dict[str, Any]:
    """Parse a TOML file, turning syntax errors into a one-line CaseError."""
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise CaseError(str(path), "", f"not valid TOML: {exc}") from None
    except UnicodeDecodeError:  # TOML is UTF-8 by definition: a binary or Latin-1 file
        raise CaseError(str(path), "", "not UTF-8 text") from None
    except OSError as exc:
        raise CaseError(str(path), "", f"cannot read: {exc.strerror}") from None


def merge(base: Mapping[str, Any], child: Mapping[str, Any]) -> dict[str, Any]:
    """Deep merge for ``extends``: tables merge key by key, any other value (lists of
    tables included) is replaced by the child's."""
    out = dict(base)
    for key, value in child.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = merge(out[key], value)
        else:
            out[key] = value
    return out


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
    """Parse a case file, resolving ``extends = "other.toml"`` (relative to the file).

    A case that extends another inherits all its values and overrides some: tables merge,
    lists (``[[reference]]``, ``[[quantity]]``) are replaced when the child gives them.
    ``origins``, when given, is filled with the file each key comes from (see
    :data:`Origins`), so that an error names the file to edit.
    """
    data = read_toml(path)
    parent = data.pop("extends", None)
    if parent is None:
        if origins is not None:
            _record_origins(data, (path, *_seen[::-1]), origins)
        return data
    if not isinstance(parent, str):
        raise CaseError(str(path), "extends", f"expected a file name, got {_describe(parent)}")
    base = path.parent / parent  # not resolved: messages name it as the user would
    if base.resolve() in {p.resolve() for p in (*_seen, path)}:
        raise CaseError(str(path), "extends", f"{parent} extends itself (cycle)")
    if not base.is_file():
        raise CaseError(str(path), "extends", f"no such file {parent}")
    merged = merge(read_case_data(base, (*_seen, path), origins), data)
    if origins is not None:  # the child's own keys win, as in the merge
        _record_origins(data, (path, *_seen[::-1]), origins)
    return merged


def origin_file(key: str, loaded: Path, origins: Origins) -> str:
    """The file that holds ``key`` (or its nearest enclosing table), as errors name it:
    ``parent.toml (extended by child.toml)`` when it comes from an extended file."""
    path = tuple(key_path(key)) if key else ()
    chain = next((origins[path[:n]] for n in range(len(path), 0, -1) if path[:n] in origins),
                 (loaded,))  # a missing key: the file loaded is the one to complete
    if len(chain) == 1:
        return str(chain[0])
    return f"{chain[0]} (extended by {', extended by '.join(map(str, chain[1:]))})"


def load_case(
    case: str | Path, overrides: Mapping[str, Any] | list[str] | str | None = None
) -> Any:
    """Read, override and validate a case file; returns the kind's schema object.

    Args:
        case: shipped case name (``"sdnd101a"``) or path to a TOML file.
        overrides: ``["time.step=1e-4", ...]`` (or one such string) or
            ``{"time.step": 1e-4}``.

    """
    path = resolve_case_path(case)
    if isinstance(overrides, str):  # one "section.key=value", not a list of its characters
        overrides = [overrides]
    given = "overrides" if isinstance(overrides, Mapping) else "--set"  # for messages
    origins: Origins = {}
    data = read_case_data(path, origins=origins)
    # the file whose [[reference]] the case uses (a parent's, through extends)
    references_from = origins.get(("reference",), (path,))[0]
    if overrides:
        try:
            apply_overrides(data, overrides)
        except CaseError as exc:
            raise CaseError(f"{path} (with {given})", exc.key, exc.problem) from None
        keys = overrides if isinstance(overrides, Mapping) else \
            [text.partition("=")[0] for text in overrides]
        for key in keys:  # an overridden key is the loaded case's, even if a parent had it
            origins[tuple(key_path(key))] = (path,)
    folder = CASE_FOLDER.set(path.parent)
    try:
        obj = build(kind_schema(case_kind(data, str(path))), data, file=str(path))
    except CaseError as exc:  # name the file that holds the key, and say --set took part
        file = origin_file(exc.key, path, origins) + (f" (with {given})" if overrides else "")
        raise CaseError(file, exc.key, exc.problem) from None
    finally:
        CASE_FOLDER.reset(folder)
    layer = _layers(origins, keys if overrides else ())
    unread = _unread_settings(obj, layer)
    if unread is not None:
        key, problem = unread
        file = origin_file(key, path, origins) + (f" (with {given})" if layer(key) == 0 else "")
        raise CaseError(file, key, problem)
    obj.source_file = path  # relative paths inside the case (records, meshes) start here
    obj.references_from = references_from
    obj.loaded_as = (as_dict(obj), layer)  # for unread_after_loading
    return obj


def unread_after_loading(case: Any) -> tuple[str, str] | None:
    """The first setting changed on a loaded case (``case.contact.restitution = 0.5``) for
    a variant that does not read it, and why: ``(key, problem)``, as :func:`load_case`
    refuses it in a file. A change after loading is the latest layer, so a variant switched
    there leaves the file's settings behind. None for a case built in code."""
    loaded = getattr(case, "loaded_as", None)
    if loaded is None:
        return None
    layer: Callable[[str], float]
    params, layer = loaded
    changed = [".".join(p) for p in _differences(params, as_dict(case))]

    def later(key: str) -> float:
        # a key is changed if it, a table holding it or a value inside it is
        if any(k == key or k.startswith(key + ".") or key.startswith(k + ".")
               for k in changed):
            return -1
        return layer(key)

    return _unread_settings(case, later)


def _layers(origins: Origins, overridden: Iterable[str]) -> Callable[[str], float]:
    """Where a key was given: 0 an override, 1 the loaded file, 2 the file it extends, ...;
    infinity when nowhere (its default)."""
    overrides = {tuple(key_path(k)) for k in overridden}

    def layer(key: str) -> float:
        path = tuple(key.split("."))
        if any(path[:n] in overrides for n in range(1, len(path) + 1)):  # or its table
            return 0
        return len(origins[path]) if path in origins else math.inf

    return layer


def unread_override(obj: Any, overridden: Iterable[str]) -> tuple[str, str] | None:
    """For a schema built from overrides alone: the first override its variant does not
    read, and why (as :func:`load_case` refuses it), or None."""
    return _unread_settings(obj, _layers({}, overridden))


def _unread_settings(obj: Any, layer: Callable[[str], float],
                     prefix: str = "") -> tuple[str, str] | None:
    """The first key given for a variant that does not read it, and why: ``(key, problem)``.

    A schema class declares ``VARIANTS = {selector: {value: (fields it reads), ...}}``; the
    fields named for any value of a selector are governed by it. A governed field given
    (in a file or an override) away from its default while the chosen value does not read
    it would be silently ignored, so it is refused, unless it was given in an earlier layer
    than the selector (an override or an extending file that switches variant leaves the
    old variant's settings behind, e.g. ``--set scheme.type=newmark`` on a theta case).
    """
    for selector, variants in getattr(obj, "VARIANTS", {}).items():
        value = getattr(obj, selector)
        reads = variants[value]
        governed = dict.fromkeys(name for fields in variants.values() for name in fields)
        defaults = {f.name: f.default if f.default_factory is dataclasses.MISSING
                    else f.default_factory() for f in dataclasses.fields(obj)}
        for name in governed:
            key = _join(prefix, name)
            value_given = getattr(obj, name)
            if name in reads or layer(key) == math.inf or value_given == defaults[name]:
                continue  # read, or not given, or given as its default (no effect either way)
            if layer(key) > layer(_join(prefix, selector)):
                continue  # left behind by a later choice of variant
            readers = [_toml_text(v) for v, fields in variants.items() if name in fields]
            if isinstance(value_given, list) and value_given and all(
                    dataclasses.is_dataclass(v) for v in value_given):
                text = f"{len(value_given)} [[{key}]] table(s)"
            else:
                text = _toml_text(value_given)
            return key, (f"{text} has no effect with "
                         f"{_join(prefix, selector)} = {_toml_text(value)}, which does not "
                         f"read it; "
                         f"allowed: leave it out, or {selector} {' or '.join(readers)}")
    for f in dataclasses.fields(obj):
        child = getattr(obj, f.name)
        if dataclasses.is_dataclass(child) and not isinstance(child, type):
            found = _unread_settings(child, layer, _join(prefix, f.name))
            if found is not None:
                return found
    return None


def stray_attribute(obj: Any, prefix: str = "", exempt: Iterable[str] = ()
                    ) -> tuple[str, str] | None:
    """An attribute set on a loaded case that is no key of its schema (``case.time.stpe =
    1e-3``, which the run would ignore): ``(key, problem)``, or None."""
    names = [f.name for f in dataclasses.fields(obj)]
    for name in vars(obj):
        if name not in names and name not in exempt:
            return _join(prefix, name), f"unknown key (allowed: {', '.join(names)})"
    for name in names:
        values = getattr(obj, name)
        for i, value in enumerate(values if isinstance(values, list) else [values]):
            if dataclasses.is_dataclass(value) and not isinstance(value, type):
                key = _join(prefix, name) + (f"[{i}]" if isinstance(values, list) else "")
                found = stray_attribute(value, key)
                if found is not None:
                    return found
    return None


def as_dict(obj: Any) -> Any:
    """The fully resolved parameters of a case, as plain JSON-ready data."""
    return dataclasses.asdict(obj)


#: Keys that choose how a case is computed or measured (steps, schemes, solvers, meshes,
#: kinematics, contact treatments and friction-law variants, outputs), not the physics its
#: references describe: a run that changes them is still graded against them. ``*``
#: stands for any index of a list; ``rigid.friction`` only decides a warning.
METHOD_KEYS = tuple(tuple(k.split(".")) for k in (
    "case", "time", "scheme", "solver", "mesh", "kinematics", "output", "collisions",
    "impacts", "quantity", "reference", "initial.preload_steps", "rigid.level",
    "rigid.impacts", "rigid.tolerance", "rigid.friction", "model.shock.*.friction",
    "contact.treatment", "contact.spring.*.friction", "contact.spring.*.dashpots",
    "contact.spring.*.anchor_stiffness",
    "contact.search_distance", "contact.closed_gap", "contact.gap_tolerance",
    "contact.augmentation_normal", "contact.augmentation_tangential", "contact.tolerance",
    "contact.step_tolerance", "contact.max_iterations", "contact.local_iterations"))


def _is_method_key(path: tuple[str, ...]) -> bool:
    return any(len(path) >= len(k) and all(c in (p, "*") for p, c in zip(path, k, strict=False))
               for k in METHOD_KEYS)


def _differences(a: Any, b: Any, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Paths where two parameter trees differ (a list of another length differs whole)."""
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return [d for key in sorted(set(a) | set(b), key=str)
                for d in _differences(a.get(key), b.get(key), (*path, str(key)))]
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [d for i, (x, y) in enumerate(zip(a, b, strict=True))
                for d in _differences(x, y, (*path, str(i)))]
    return [] if a == b else [path]


def case_dir(case: Any) -> Path | None:
    """The folder of the file ``case`` was loaded from (where its relative paths start);
    None for a case built in code."""
    source = getattr(case, "source_file", None)
    return None if source is None else Path(source).parent


def file_case(case: Any) -> Any | None:
    """``case`` as its case file defines it, without overrides; None for a case built in
    code or whose file is gone."""
    source = getattr(case, "source_file", None)
    if source is None or not Path(source).is_file():
        return None
    return load_case(source)


#: Keys that say what a case is graded on: its references, the quantities they compare
#: with, how collisions and impacts are measured. Method keys, but ``validate`` grades with
#: the case file's.
GRADING_KEYS = (("reference",), ("quantity",), ("collisions", "windows"),
                ("collisions", "column"), ("impacts",))


def _changes(case: Any, base: Any | None) -> list[tuple[str, ...]]:
    """Key paths whose values in ``case`` differ from its case file's (``base``, loaded if
    not given: ``--set``, an override dict or an attribute set after loading)."""
    base = base if base is not None else file_case(case)
    return [] if base is None else _differences(as_dict(base), as_dict(case))


def physics_changes(case: Any, base: Any | None = None) -> list[str]:
    """Dotted keys changed from the case file (:func:`_changes`) outside
    :data:`METHOD_KEYS`: the case's references no longer describe the run."""
    return [".".join(p) for p in _changes(case, base) if not _is_method_key(p)]


def grading_changes(case: Any, base: Any | None = None) -> list[str]:
    """Dotted keys changed from the case file under :data:`GRADING_KEYS`: the marks or the
    measures are not the case file's."""
    return [".".join(p) for p in _changes(case, base)
            if any(p[:len(k)] == k for k in GRADING_KEYS)]


def schema_doc(cls: type, prefix: str = "") -> list[tuple[str, str, str, str]]:
    """Rows (key, type, default, doc) describing a schema, for documentation."""
    rows = []
    hints = typing.get_type_hints(cls)
    for f in dataclasses.fields(cls):
        key = _join(prefix, f.name)
        tp = hints[f.name]
        inner = typing.get_args(tp)[0] if typing.get_origin(tp) is list else tp
        options = [a for a in typing.get_args(tp) if a is not type(None)]
        if typing.get_origin(tp) in (typing.Union, types.UnionType) and len(options) == 1:
            inner = options[0]  # ``Refine | None``: an optional table
        if isinstance(inner, type) and dataclasses.is_dataclass(inner):
            kind = ("list of tables" if typing.get_origin(tp) is list else
                    "optional table" if inner is not tp else "table")
            rows.append((key, kind, "", _with_readers(cls, f.name, f.metadata.get("doc", ""))))
            rows.extend(schema_doc(inner, key + ".N" if kind == "list of tables" else key))
            continue
        if f.default is not dataclasses.MISSING:
            default = "unset" if f.default is None else _toml_text(f.default)
        elif f.default_factory is not dataclasses.MISSING:
            default = _toml_text(f.default_factory())
        else:
            default = "(required)"
        doc = f.metadata.get("doc", "")
        unit = f.metadata.get("unit", "")
        doc = f"{doc} [{unit}]".lstrip() if unit else doc
        rows.append((key, _type_name(tp), default, _with_readers(cls, f.name, doc)))
    return rows


def _with_readers(cls: type, name: str, doc: str) -> str:
    """``doc`` with the variants that read the field, if a selector governs it
    (``only with treatment 'theta'``, ``not with treatment 'none'``)."""
    for selector, variants in getattr(cls, "VARIANTS", {}).items():
        readers = [_toml_text(v) for v, fields in variants.items() if name in fields]
        others = [_toml_text(v) for v, fields in variants.items() if name not in fields]
        if readers and others:
            only = (f"only with {selector} {' or '.join(readers)}" if len(readers) <= len(others)
                    else f"not with {selector} {' or '.join(others)}")
            return f"{doc}; {only}" if doc else only
    return doc
