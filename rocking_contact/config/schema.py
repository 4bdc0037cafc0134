"""The schema of a case file: typed dataclass fields, and building them from TOML data.

A case file is TOML data (never code). Its schema is a tree of dataclasses: every field is
typed, may carry a default, a unit, a short doc and a constraint. :func:`build` turns the
parsed TOML into that tree and reports the first problem as a :class:`CaseError` naming the
file, the key, what is wrong and what is allowed, so that the command line can print one
line and exit with code 2.

Constraints are declared with :func:`param`::

    step: float = param(doc="time step", unit="s", check=POSITIVE)

The way back is here too: :func:`as_dict` (plain data) and :func:`differences` (between
two such trees), and :func:`schema_doc` (the rows of ``rocking-contact keys``). The deep
:func:`merge` of tables lives here because :func:`build` completes a partial table with it;
overrides and ``extends`` merge with the same function.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
import re
import types
import typing
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from rocking_contact.config.names import close_hint

#: ``accepts -> {key: problem}``: a refusal's problems offering only the values
#: ``accepts(key, text)`` takes (:attr:`Conflict.reoffer`)
Reoffer = Callable[[Callable[[str, str], bool]], dict[str, str]]


class CaseError(ValueError):
    """A problem in a case file or an override: one line for the user.

    Attributes:
        file: the case file (or ``"--set"``) the problem comes from.
        key: dotted key of the offending value (``time.step``); empty for the whole file.
        problem: what is wrong and what is allowed.

    """

    def __init__(self, file: str, key: str, problem: str,
                 alternatives: Mapping[str, str] | None = None,
                 reoffer: Reoffer | None = None):
        self.file, self.key, self.problem = file, key, problem
        #: dotted key -> problem, for a rule that several keys break together
        #: (:class:`Conflict`): the loader names the one given last
        self.alternatives = dict(alternatives or {})
        #: the alternatives again, offering only values the case takes (a
        #: :class:`Conflict`'s, its keys dotted from the case's top); None: none offered
        self.reoffer = reoffer
        where = f"{file}: {key}: " if key else f"{file}: "
        super().__init__(where + problem)


class Conflict(ValueError):
    """A rule between keys of one table that their values break together, raised by a
    schema's ``validate``: ``{key: problem}``, the problem said from each key's side
    (``end: 0.5 is not after start 1``, ``start: 1 is not before end 0.5``). Which key is
    wrong depends on who gave it: :func:`~rocking_contact.config.load_case` names the one
    given last (by ``--set``, or by the file that extends the other's), the first one
    otherwise."""

    def __init__(self, problems: Mapping[str, str], reoffer: Reoffer | None = None):
        self.problems = dict(problems)
        #: the problems again, offering only the values that ``accepts(key, text)``
        #: takes (``key`` as in ``problems``, each value as typed): the loader keeps
        #: those the whole case takes (a step that divides the run may still be refused
        #: by a row cap); None for problems that offer no value
        self.reoffer = reoffer
        key, problem = next(iter(self.problems.items()))
        super().__init__(f"{key}: {problem}")


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


@dataclass(frozen=True)
class Scale:
    """The largest magnitude a value of one unit may have in a case file, and why."""

    limit: float
    reason: str


#: unit -> the largest magnitude of any value given in it, whatever the key: a physical
#: scale far above every shipped case, variant and documented study (their largest value
#: in the reason) and far below where the arithmetic overflows (an initial velocity of
#: 1e300 m/s makes an infinite energy, a block 1e300 m tall is said to topple, 1e300 kg/m3
#: fails the preload on NaN). A field's own check still applies (a length > 0). A unit
#: used by a schema has its scale here (tests/test_bad_input_ranges.py checks it).
SCALES: dict[str, Scale] = {
    "m": Scale(1e3, "a kilometre: no block, table, gap or displacement is larger; "
                    "the shipped cases' largest is 1 m"),
    "m/s": Scale(1e3, "a rifle bullet's speed; the shipped cases' largest is 1 m/s"),
    "m/s2": Scale(1e4, "about 1000 g, a hard shock; the shipped cases' largest is 9.81"),
    "kg": Scale(1e9, "a million tonnes; the shipped cases' largest mass is 100 kg"),
    "kg/m3": Scale(1e5, "over 4 times the densest metal, osmium's 22590 kg/m3; the shipped "
                        "cases' largest is 2500"),
    "Pa": Scale(1e16, "100 times the shipped rigid table's 1e14 Pa, 8000 times diamond's "
                      "modulus"),
    "N/m": Scale(1e16, "1e4 times the stiffest documented stop, 1e12 N/m; the table's "
                       "1e14 Pa over 1 m2 and 1 cm"),
    "N.s/m": Scale(1e14, "over 10 times the critical damping 2 sqrt(k m) of the stiffest "
                         "spring on the heaviest mass; the shipped cases' largest is 9e6"),
    "N": Scale(1e15, "the weight of a million tonnes under 1e4 m/s2 is 1e13 N"),
    "s": Scale(1e6, "11.6 days: a time, span, step or damping time; the shipped runs end "
                    "by 0.6 s"),
    "1/s": Scale(1e6, "a rate of 1e6 per second, the FEM block's bound on its mass "
                      "damping; the shipped cases use 0"),
    "Hz": Scale(1e6, "a megahertz, far above any table motion; the shipped ones are 10 Hz "
                     "at most"),
    "rad": Scale(1e3, "a thousand radians, 159 turns: an angle repeats every 2 pi"),
}


def in_range(lo: float, hi: float, *, open_low: bool = False) -> Check:
    """Interval constraint ``lo <= x <= hi``; ``open_low``: ``lo < x <= hi`` (a tolerance
    that 0 would make unreachable)."""
    if open_low:
        return Check(lambda x: lo < x <= hi, f"a number in ({lo:g}, {hi:g}]")
    return Check(lambda x: lo <= x <= hi, f"a number in [{lo:g}, {hi:g}]")


def param(
    default: Any = dataclasses.MISSING,
    *,
    doc: str = "",
    unit: str = "",
    check: Check | None = None,
    default_factory: Any = dataclasses.MISSING,
    default_doc: str = "",
) -> Any:
    """A schema field: default, documentation, unit and optional constraint.

    ``default_doc``: what a field without a default reads when a case does not give it,
    as ``rocking-contact keys`` says it (loading fills it in before :func:`build`:
    ``case.name`` is its file's name); without it, such a field is listed as required."""
    meta = {"doc": doc, "unit": unit, "check": check, "default_doc": default_doc}
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


def toml_text(value: Any) -> str:
    """``value`` spelled as in a case file (``true``, ``[1, 2]``), not as Python spells it
    (``True``): the messages quote what the user wrote, NumPy values too (``2.0`` and
    ``[2.0, 0, 0]``, not ``np.float64(2.0)`` and ``array([2., 0., 0.])``)."""
    if hasattr(value, "dtype") and hasattr(value, "shape"):  # a NumPy scalar or array
        if value.shape == ():
            return toml_text(_as_float(value) if value.dtype.kind == "f" else value.item())
        return toml_text(list(value))
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_text(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k} = {toml_text(v)}" for k, v in value.items()) + "}"
    if isinstance(value, float):
        return _float_text(value)
    return repr(value)  # numbers as TOML writes them; strings quoted ('abc' is TOML too)


#: the magnitude from which a float is written with an exponent, as ``format(x, "g")``
#: writes it (the "|x| <= 1e+06 s" beside a default)
EXPONENT_FROM = 1e6


def _float_text(value: float) -> str:
    """A float as a case file would write it, the shortest text that reads back as it:
    ``repr`` (``0.0001``, ``9.81``, ``417.6``, ``1e-05``) but from :data:`EXPONENT_FROM` on
    with an exponent, as ``g`` writes it (``6e+11``, ``3e+10``, ``1.5e+06``: a Young's
    modulus not printed as 600000000000.0); a float with more digits than its exponent
    keeps its point (``1234567.0``)."""
    if not math.isfinite(value) or abs(value) < EXPONENT_FROM:
        return repr(value)
    digits = next(p for p in range(1, 18) if float(f"{value:.{p}g}") == value)
    text = f"{value:.{digits}g}"
    return text if "e" in text or "." in text else f"{text}.0"  # a float, not an integer


def short_text(value: Any, *, typed: bool = False) -> str:
    """``value`` as a message quotes it, cut to 40 characters (37 and ``...``): its
    :func:`toml_text`, or with ``typed`` its type's name and ``repr`` (an argument of a
    Python call, which need not be a value a case file can write: ``dict {1: 2}``)."""
    text = repr(value) if typed else toml_text(value)
    text = text if len(text) <= 40 else text[:37] + "..."
    return f"{type(value).__name__} {text}" if typed else text


def distinct_texts(a: float, b: float) -> tuple[str, str]:
    """``a`` and ``b`` written with ``%g``, or both with Python's ``repr`` (the shortest
    text that reads back as the same float) when they differ and would read alike, so that
    a message never contradicts itself ("0.0001 does not divide the run; allowed: a step
    that does, such as 0.0001" for a step of 1.00000001e-4 s)."""
    texts = format(a, "g"), format(b, "g")
    if texts[0] == texts[1] and a != b:
        return repr(float(a)), repr(float(b))
    return texts


#: a number written with a decimal comma (``0,2``, ``,5``; ``--set`` hands it over as a
#: string)
DECIMAL_COMMA = re.compile(r"[-+]?\d*,\d+(?:[eE][-+]?\d+)?")
#: a number that may be written with commas between its thousands (``1,000``)
THOUSANDS = re.compile(r"[-+]?[1-9]\d{0,2}(?:,\d{3})+")
#: a number followed by a unit (``10ms``, ``0.01 s``, ``9.81 m/s^2``): the number and the unit
WITH_UNIT = re.compile(r"([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*([^\W\d_].*)")


def _misread(tp: Any, value: Any, unit: str = "") -> str:
    """What a string given for a number or a list says it meant, as the "allowed:" part of the
    type's refusal (in place of the key's values, :func:`_allowed_text`): ``0,2`` (a decimal
    comma, as some locales write 0.2), ``'3e10'`` (a number in quotes), ``1,0,0`` (a list
    without its brackets), ``0.3,0.6`` for a number (several values, as ``sweep --set``
    takes them), ``10ms`` (a number with a unit: the key's ``unit`` is said, which a case
    file's numbers are read in), ``[0.3, 0.6]`` for a number (a list of numbers: several
    values, which a sweep takes without brackets); for a choice, its options and those close
    to the value; '' otherwise."""
    if tp in (float, int) and isinstance(value, list | tuple) and len(value) > 1 and all(
            isinstance(v, numbers.Real) and not isinstance(v, bool) for v in value):
        return ("one number, not a list (rocking-contact sweep runs a case once "
                "per value: --set KEY=V1,V2,... without brackets)")
    if not isinstance(value, str):
        return ""
    text = value.strip()
    origin = typing.get_origin(tp)
    # the comma read as a decimal point (",5": 0.5)
    point = re.sub(r"^([-+]?)\.", r"\g<1>0.", text.replace(",", "."))
    if tp in (float, int) and THOUSANDS.fullmatch(text):  # 1,000 and 1,000,000
        decimal = f"{point}, or " if tp is float and DECIMAL_COMMA.fullmatch(text) else ""
        return (f"{_type_name(tp)}, such as {decimal}{text.replace(',', '')} if "
                f"the comma separates thousands (a comma separates the items of a list)")
    if tp is float and DECIMAL_COMMA.fullmatch(text):
        return (f"a number with a decimal point, such as {point} (a comma "
                f"separates the items of a list)")
    if tp is float and _numbers(text.split(",")):  # sweep's V1,V2,... given to run
        return ("one number (a comma separates the items of a list; "
                "rocking-contact sweep runs a case once per value)")
    if tp in (float, int) and _numbers(text.split()):  # its 'e-4 2e-4' no unit (below)
        return ("one number (rocking-contact sweep runs a case once per value: "
                "--set KEY=V1,V2,..., separated by commas)")
    if tp in (float, int):
        try:
            number = (float if tp is float else int)(text)
        except ValueError:
            given = WITH_UNIT.fullmatch(text)
            if given is None or not unit:
                return ""  # the key's values say it
            return f"{_type_name(tp)} alone, read in {unit}{_such(tp, given, unit)}"
        if not math.isfinite(number):
            return ""  # no key takes it (_convert)
        return f"{_type_name(tp)}, not a string: {text} without quotes"
    if origin in (list, tuple) and "," in text and len(text) <= 40:
        return f"{_type_name(tp)} in brackets, such as [{text}]"
    if origin is Literal:  # its options, and those close to it ('HHT': 'hht', close_names)
        options = [repr(a) for a in typing.get_args(tp)]
        return f"{_type_name(tp)}{close_hint(repr(value), options)}"
    return ""


def _numbers(texts: list[str]) -> bool:
    """Whether ``texts`` are two or more numbers."""
    try:
        return len([float(t) for t in texts]) > 1
    except ValueError:
        return False


def _such(tp: Any, given: re.Match[str], unit: str) -> str:
    """``, such as 0.01`` for ``0.01 s`` given to a key read in s (the number as typed, or
    as TOML takes it: ``.5 s`` is 0.5); '' for another unit, whose conversion is the
    user's."""
    if given[2].strip() != unit:
        return ""
    try:
        number = (float if tp is float else int)(given[1])
    except ValueError:  # 0.5 s for a whole number of s
        return ""
    typed = re.fullmatch(r"[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?", given[1])
    return f", such as {given[1] if typed else repr(number)}"


def _convert(tp: Any, value: Any, key: str, file: str, unit: str = "",
             check: Check | None = None) -> Any:
    """Convert one TOML value to the annotated type, or raise a CaseError: ``got VALUE,
    allowed: ...``, what the value seems to have meant (:func:`_misread`: a number with
    ``unit``, the key's, in place of a bare number) or else the values of the key's type,
    ``check`` (each item's, for a list) and ``unit`` (:func:`_allowed_text`)."""
    origin = typing.get_origin(tp)

    def fail() -> typing.NoReturn:
        allowed = _misread(tp, value, unit) or _allowed_text(tp, check, unit)
        # TOML's 1e3 and 2.0 are floats: the integer meant, if the key takes it
        if (tp is int and isinstance(value, float) and value.is_integer()
                and (check is None or check.test(int(value)))):
            allowed += f" ({int(value)}, written without a point or an exponent)"
        raise CaseError(file, key, f"got {short_text(value)}, allowed: {allowed}")

    if origin in (typing.Union, types.UnionType):
        members = [a for a in typing.get_args(tp) if a is not type(None)]
        if value is None:
            return None
        if len(members) == 1:  # optional: the inner type's own error is the useful one
            return _convert(members[0], value, key, file, unit, check)
        for arg in members:
            try:
                return _convert(arg, value, key, file, unit, check)
            except CaseError:
                continue
        fail()
    # numbers.Real / Integral: NumPy scalars given through the Python API count too
    if tp is float:
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            fail()
        if not math.isfinite(value):  # TOML's inf and nan: no key of a case means them
            raise CaseError(file, key, f"got {short_text(value)}, allowed: a finite number")
        return _as_float(value)
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
                _convert(a, v, f"{key}[{i}]", file, unit, check)
                for i, (a, v) in enumerate(zip(args, value))
            )
        items = [_convert(args[0], v, f"{key}[{i}]", file, unit, check)
                 for i, v in enumerate(value)]
        return tuple(items) if origin is tuple else items
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        if not isinstance(value, Mapping):
            fail()
        return build(tp, value, file=file, prefix=key)
    raise TypeError(f"schema type {tp!r} at {key} is not supported")  # a bug in a schema


def _as_float(value: numbers.Real) -> float:
    """A real number as a float; a NumPy float narrower than a float (``np.float32(1e-4)``)
    as the decimal it prints as, which is the one it was given as: its binary value,
    9.99999974737875e-05, divides no run of 1e-4 s steps."""
    dtype = getattr(value, "dtype", None)
    if dtype is not None and dtype.kind == "f" and dtype.itemsize < 8:
        return float(str(value))
    return float(value)


def _takes_none(tp: Any) -> bool:
    """Whether a field of type ``tp`` holds None (``float | None``, ``Any``): None given
    for it is its value, not an unset key."""
    return tp is Any or (typing.get_origin(tp) in (typing.Union, types.UnionType)
                         and type(None) in typing.get_args(tp))


def _values_allowed(tp: Any, f: dataclasses.Field[Any]) -> str:
    """The values a field takes, as a refusal states them (:func:`_allowed_text`)."""
    return _allowed_text(tp, f.metadata.get("check"), f.metadata.get("unit", ""))


def _allowed_text(tp: Any, check: Check | None, unit: str) -> str:
    """The values of type ``tp`` with the constraint ``check`` (each item's, for a list)
    in ``unit``, as a refusal states them: the check, said of an integer for an integer
    (``an integer > 0``), or else the type; and the :data:`SCALES` of the unit (``a number
    > 0, |x| <= 1e+06 s``); a table's keys (``a table with keys start, end, step``)."""
    table = _table_type(tp)
    if table is not None:
        return f"a table with keys {', '.join(f.name for f in dataclasses.fields(table))}"
    item = _table_type(typing.get_args(tp)[0]) if typing.get_origin(tp) is list else None
    if item is not None:
        names = ", ".join(f.name for f in dataclasses.fields(item))
        return f"a list of tables, each with keys {names}"
    if check is None:
        what = _type_name(tp)
    elif typing.get_origin(tp) in (list, tuple):
        what = f"{_type_name(tp)}, each {_checked(typing.get_args(tp)[0], check)}"
    else:
        what = _checked(tp, check)
    scale = SCALES.get(unit)
    return what if scale is None else f"{what}, |x| <= {scale.limit:g} {unit}"


def _checked(tp: Any, check: Check) -> str:
    """``check``'s words for a value of type ``tp``: ``an integer > 0`` for an integer
    (the checks speak of ``a number``)."""
    if tp is int and check.allowed.startswith("a number"):
        return "an integer" + check.allowed.removeprefix("a number")
    return check.allowed


def _table_type(tp: Any) -> type | None:
    """The dataclass of a table type (``Refine``, or ``Refine | None`` for an optional
    table), else None."""
    options = [a for a in typing.get_args(tp) if a is not type(None)]
    if typing.get_origin(tp) in (typing.Union, types.UnionType) and len(options) == 1:
        tp = options[0]
    return tp if isinstance(tp, type) and dataclasses.is_dataclass(tp) else None


def key_values(cls: type, path: Sequence[str]) -> tuple[str, str] | None:
    """What the key ``path`` (its dotted components, a list item by its index or by ``N``
    as ``rocking-contact keys`` writes it: ``["model", "shock", "0", "kn"]``) of the
    schema ``cls`` takes: ``("value", its values as its refusal states them)`` (``a
    number > 0, |x| <= 1e+06 s``), ``("table", its keys)`` for a table or a list's item
    (``start, end, step``), ``("tables", their keys)`` for a list of tables; None for no
    key of ``cls``."""
    tp: Any = cls
    found: dataclasses.Field[Any] | None = None
    for part in path:
        if typing.get_origin(tp) is list and _table_type(typing.get_args(tp)[0]):
            if not (part.isdigit() or part == "N"):
                return None
            tp = typing.get_args(tp)[0]
            continue
        table = _table_type(tp)
        fields = {f.name: f for f in dataclasses.fields(table)} if table else {}
        if part not in fields or table is None:
            return None
        found, tp = fields[part], typing.get_type_hints(table)[part]
    table = _table_type(tp)
    if found is None:
        return None
    if table is not None:
        return "table", ", ".join(f.name for f in dataclasses.fields(table))
    item = _table_type(typing.get_args(tp)[0]) if typing.get_origin(tp) is list else None
    if item is not None:
        return "tables", ", ".join(f.name for f in dataclasses.fields(item))
    return "value", _values_allowed(tp, found)


def _unread(cls: type, fields: Mapping[str, dataclasses.Field[Any]], data: Mapping[str, Any],
            name: str) -> bool:
    """Whether the variant ``data`` chooses (a selector of ``cls.VARIANTS``, given or by
    default; unset by None, its default) leaves the field ``name`` unread:
    ``[time.refine]`` with ``enabled = false`` needs no ``step``, which a refinement
    requires."""
    for selector, variants in getattr(cls, "VARIANTS", {}).items():
        chosen = data.get(selector)
        if chosen is None:
            chosen = fields[selector].default
        governed = {n for names in variants.values() for n in names}
        if name in governed and chosen in variants and name not in variants[chosen]:
            return True
    return False


def unknown_key(name: str, keys: Collection[str], elsewhere: Mapping[str, str] | None = None
                ) -> str:
    """The refusal of ``name``, no key of a table whose keys are ``keys``: the keys
    allowed, and the closest (``half_widht``: close: half_width); and what the table's
    class says of that name in ``ELSEWHERE = {name: "where its meaning is"}``, a key of
    another kind that no spelling comes close to (a rigid case's ``contact``)."""
    said = (elsewhere or {}).get(name)
    return (f"unknown key (allowed: {', '.join(keys)}{close_hint(name, keys)}"
            f"{f'; {said}' if said else ''})")


def build[T](cls: type[T], data: Mapping[str, Any], *, file: str, prefix: str = "") -> T:
    """Build the dataclass ``cls`` from parsed TOML ``data``, validating every value.

    Unknown keys, missing required keys, wrong types and failed constraints raise
    :class:`CaseError`; a key the class lists in ``MOVED = {key: "its new dotted key"}`` is
    refused with where it went, one in ``ELSEWHERE`` with what it says (:func:`unknown_key`).
    After construction, a ``validate(self)`` method on the class
    (if any) is called for cross-field rules; it raises ``ValueError("key: problem")`` with a
    key relative to ``prefix``.
    """
    hints = typing.get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    moved = getattr(cls, "MOVED", {})
    for key in data:
        if key in moved:
            raise CaseError(file, dotted_key(prefix, key), f"moved: set {moved[key]} instead")
        if key not in fields:
            raise CaseError(file, dotted_key(prefix, key),
                            unknown_key(str(key), fields, getattr(cls, "ELSEWHERE", None)))
    kwargs: dict[str, Any] = {}
    for name, f in fields.items():
        key = dotted_key(prefix, name)
        # None (``--set key=``, an override dict's None) unsets a key whose type has no
        # None: it reads as if not given, its default or, required, refused as unset
        unset = name in data and data[name] is None and not _takes_none(hints[name])
        if name not in data or unset:
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                if _unread(cls, fields, data, name):
                    kwargs[name] = None  # required by the variants that read it only
                    continue
                if unset:
                    raise CaseError(file, key, f"required, cannot be unset with --set {key}= "
                                               f"or None (allowed: "
                                               f"{_values_allowed(hints[name], f)})")
                raise CaseError(file, key, f"missing (required; allowed: "
                                           f"{_values_allowed(hints[name], f)})")
            continue
        raw = data[name]
        if (isinstance(raw, Mapping) and dataclasses.is_dataclass(hints[name])
                and f.default_factory is not dataclasses.MISSING):
            # A partial table completes the default one (``--set material.block.young=1e9``
            # keeps the other default block properties).
            raw = merge(dataclasses.asdict(f.default_factory()), raw)
        check: Check | None = f.metadata.get("check")
        value = _convert(hints[name], raw, key, file, f.metadata.get("unit", ""), check)
        if check is not None and value is not None:
            for i, item in enumerate(value if isinstance(value, list | tuple) else [value]):
                if not check.test(item):
                    where = key if not isinstance(value, list | tuple) else f"{key}[{i}]"
                    raise CaseError(file, where,
                                    f"got {short_text(item)}, allowed: {check.allowed}")
        _check_scale(value, key, f.metadata.get("unit", ""), check, file)
        kwargs[name] = value
    obj = cls(**kwargs)
    validate = getattr(obj, "validate", None)
    if validate is not None:
        try:
            validate()
        except CaseError:
            raise
        except Conflict as exc:
            alternatives = {dotted_key(prefix, k): problem for k, problem in exc.problems.items()}
            key, problem = next(iter(alternatives.items()))
            raise CaseError(file, key, problem, alternatives,
                            _prefixed(exc.reoffer, prefix)) from None
        except ValueError as exc:
            sub, _, problem = str(exc).partition(": ")
            raise CaseError(file, dotted_key(prefix, sub), problem) from None
    return obj


def _prefixed(reoffer: Reoffer | None, prefix: str) -> Reoffer | None:
    """``reoffer`` (of a table) with its keys dotted from the case's top."""
    if reoffer is None or not prefix:
        return reoffer
    inner = reoffer

    def dotted(accepts: Callable[[str, str], bool]) -> dict[str, str]:
        problems = inner(lambda key, text: accepts(dotted_key(prefix, key), text))
        return {dotted_key(prefix, key): problem for key, problem in problems.items()}
    return dotted


def _check_scale(value: Any, key: str, unit: str, check: Check | None, file: str) -> None:
    """Refuse a number of ``value`` (a float, or one in a list or tuple of them, nested:
    ``collisions.windows``) beyond the :data:`SCALES` of its ``unit``."""
    scale = SCALES.get(unit)
    if scale is None or isinstance(value, bool):
        return
    if isinstance(value, list | tuple):
        for i, item in enumerate(value):
            _check_scale(item, f"{key}[{i}]", unit, check, file)
    elif isinstance(value, float) and abs(value) > scale.limit:
        allowed = check.allowed if check is not None else "a number"
        raise CaseError(file, key, f"got {short_text(value)}, allowed: {allowed}, with |x| <= "
                                   f"{scale.limit:g} {unit} ({scale.reason})")


def dotted_key(prefix: str, key: str) -> str:
    """The dotted key of ``key`` in the table whose dotted key is ``prefix`` ("" for the
    case itself): ``dotted_key("contact", "mu")`` is ``contact.mu``."""
    return f"{prefix}.{key}" if prefix else key


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


def as_dict(obj: Any) -> Any:
    """The fully resolved parameters of a case, as plain JSON-ready data."""
    return dataclasses.asdict(obj)


def differences(a: Any, b: Any, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Paths where two parameter trees differ (a list of another length differs whole)."""
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return [d for key in sorted(set(a) | set(b), key=str)
                for d in differences(a.get(key), b.get(key), (*path, str(key)))]
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [d for i, (x, y) in enumerate(zip(a, b, strict=True))
                for d in differences(x, y, (*path, str(i)))]
    return [] if a == b else [path]


def schema_doc(cls: type, prefix: str = "", instance: Any = None,
               docs: Mapping[str, tuple[str, str]] | None = None
               ) -> list[tuple[str, str, str, str]]:
    """Rows (key, type, default, doc) describing a schema, for documentation.

    ``instance``: the default instance of a table that has one (a partial table completes
    it, :func:`build`); its keys then default to its values rather than being required
    (``material.table.young`` defaults to SDNV105's 1e14 Pa, not listed as required).
    ``docs``: dotted key -> (doc, unit) that replace a field's own, by default the
    schema's ``KEY_DOCS``: a kind says what a key of a shared section means for it (the
    rigid block's ``preload.tilt`` is an angle, the FEM block's the sine of one).
    """
    docs = getattr(cls, "KEY_DOCS", {}) if docs is None else docs
    rows = []
    hints = typing.get_type_hints(cls)
    for f in dataclasses.fields(cls):
        key = dotted_key(prefix, f.name)
        tp = hints[f.name]
        inner = typing.get_args(tp)[0] if typing.get_origin(tp) is list else tp
        options = [a for a in typing.get_args(tp) if a is not type(None)]
        if typing.get_origin(tp) in (typing.Union, types.UnionType) and len(options) == 1:
            inner = options[0]  # ``Refine | None``: an optional table
        if isinstance(inner, type) and dataclasses.is_dataclass(inner):
            kind = ("list of tables" if typing.get_origin(tp) is list else
                    "optional table" if inner is not tp else "table")
            rows.append((key, kind, "", _with_readers(cls, f.name, f.metadata.get("doc", ""))))
            table = None
            if kind == "table":  # its default instance, if it has one
                table = (getattr(instance, f.name) if instance is not None else
                         f.default_factory() if f.default_factory is not dataclasses.MISSING
                         else None)
            rows.extend(schema_doc(inner, key + ".N" if kind == "list of tables" else key,
                                   table, docs))
            continue
        if instance is not None:
            value = getattr(instance, f.name)
            default = "unset" if value is None else toml_text(value)
        elif f.default is not dataclasses.MISSING:
            default = "unset" if f.default is None else toml_text(f.default)
        elif f.default_factory is not dataclasses.MISSING:
            default = toml_text(f.default_factory())
        else:
            default = f.metadata.get("default_doc") or "(required)"
        doc, unit = docs.get(key, (f.metadata.get("doc", ""), f.metadata.get("unit", "")))
        doc = f"{doc} [{unit}]".lstrip() if unit else doc
        allowed = _allowed(f.metadata.get("check"), unit)
        if allowed:
            doc = f"{doc}; allowed: {allowed}" if doc else f"allowed: {allowed}"
        rows.append((key, _type_name(tp), default, _with_readers(cls, f.name, doc)))
    return rows


def _allowed(check: Check | None, unit: str) -> str:
    """The values a key takes beyond its type, as its refusal states them (its check and
    the :data:`SCALES` of its unit), or ''."""
    scale = SCALES.get(unit)
    parts = [check.allowed] if check is not None else []
    if scale is not None:
        parts.append(f"|x| <= {scale.limit:g} {unit}")
    return ", ".join(parts)


def _with_readers(cls: type, name: str, doc: str) -> str:
    """``doc`` with the variants that read the field, if a selector governs it
    (``only with treatment 'theta'``, ``not with treatment 'none'``); a table, if a
    ``TABLE_VARIANTS`` selector governs it (``only with initial.state 'preload'``)."""
    governing = {**getattr(cls, "VARIANTS", {}), **getattr(cls, "TABLE_VARIANTS", {})}
    for selector, variants in governing.items():
        readers = [toml_text(v) for v, fields in variants.items() if name in fields]
        others = [toml_text(v) for v, fields in variants.items() if name not in fields]
        if readers and others:
            only = (f"only with {selector} {' or '.join(readers)}" if len(readers) <= len(others)
                    else f"not with {selector} {' or '.join(others)}")
            return f"{doc}; {only}" if doc else only
    return doc
