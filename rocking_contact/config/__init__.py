"""Case files: typed, validated, overridable.

One module per concept: :mod:`.schema` (typed fields, :func:`build` from TOML data, the
``keys`` listing), :mod:`.overrides` (``--set``), :mod:`.names` (the history columns and
quantities a case refers to), :mod:`.sections` (the sections every kind shares, and
:class:`LoadInfo`, what loading notes on a case), :mod:`.kinds` (the schema and runner of
each ``case.kind``), :mod:`.loading` (case files on disk, :func:`load_case`, and the
accessors of a case's LoadInfo: :func:`source_file`, :func:`loading_record`, ...),
:mod:`.layers` (where each key was
given: an override, the loaded file, a file it extends), :mod:`.refusals` (what a loaded
case is refused, and what a later layer leaves behind), :mod:`.reach` (windows and
instants a run never reaches) and :mod:`.changes` (what a run changed from its case
file). Callers import from ``rocking_contact.config``, which re-exports every public
function and class of its modules (``tests/test_config_exports.py`` holds it to that) and
their key tables.

The package is the layer below what it configures: its modules import nothing of
``rocking_contact`` outside it but :mod:`rocking_contact.lazy`, through which
:func:`kind_schema` imports a kind's schema by name when a case is loaded
(``tests/test_config_layers.py``). The time functions, the contact treatments and the
kinds' schemas and runners import it, never the other way.
"""

from rocking_contact.config.changes import (
    GRADING_KEYS,
    METHOD_KEYS,
    PLACED_KEYS,
    grading_changes,
    holds_the_run,
    kept_from_other_physics,
    physics_changes,
    placed_for_other_physics,
)
from rocking_contact.config.kinds import KINDS, Kind, case_kind, kind_schema
from rocking_contact.config.layers import Origins, given_layer, layers
from rocking_contact.config.loading import (
    base_case,
    cases_dir,
    file_case,
    file_label,
    kind_of,
    load_case,
    loaded_as,
    loading_record,
    origin_file,
    overridden_keys,
    read_case_data,
    read_toml,
    references_from,
    resolve_case_path,
    run_first_hint,
    shipped_cases,
    source_file,
    twin_of,
    unread_after_loading,
    unset_name,
    variant_cases,
)
from rocking_contact.config.names import (
    NamePattern,
    close_hint,
    close_names,
    missing_columns,
    uncomputed,
    uncomputed_references,
    unknown_name,
)
from rocking_contact.config.overrides import (
    anchor_paths,
    apply_overrides,
    dig,
    key_path,
    malformed_override,
    parse_override,
    plain,
    refuse_repeated_keys,
    set_key,
)
from rocking_contact.config.reach import never_reached
from rocking_contact.config.refusals import (
    first_refusal,
    first_refusal_of_changes,
    leave_behind,
    replacements,
    stray_attribute,
    unread_keys,
    unread_override,
)
from rocking_contact.config.schema import (
    DIRECTORY_NAME,
    FINITE,
    NONNEGATIVE,
    POSITIVE,
    CaseError,
    Check,
    Conflict,
    Scale,
    as_dict,
    build,
    differences,
    distinct_texts,
    dotted_key,
    in_range,
    key_values,
    merge,
    param,
    schema_doc,
    short_text,
    toml_text,
    unknown_key,
)
from rocking_contact.config.sections import (
    MAX_ROWS,
    MAX_STEPS,
    NOT_LOADED,
    CaseFile,
    CaseInfo,
    LoadInfo,
    QuantitySpec,
    Reference,
    Span,
    TimeSpan,
    check_span,
    recorded_rows,
    round_step,
    row_count_problem,
    step_count_problem,
    whole_steps_unchecked,
)

__all__ = [
    # schema
    "CaseError", "Check", "Conflict", "POSITIVE", "NONNEGATIVE", "FINITE", "DIRECTORY_NAME",
    "in_range", "param", "build", "merge", "as_dict", "schema_doc", "Scale", "distinct_texts",
    "unknown_key", "key_values", "toml_text", "short_text", "dotted_key", "differences",
    # overrides
    "key_path", "parse_override", "malformed_override", "anchor_paths", "apply_overrides",
    "dig", "plain",
    "refuse_repeated_keys",
    "set_key",
    # names
    "NamePattern", "unknown_name", "uncomputed", "missing_columns",
    "uncomputed_references", "close_hint", "close_names",
    # sections
    "CaseInfo", "Reference", "QuantitySpec", "MAX_STEPS", "step_count_problem",
    "MAX_ROWS", "recorded_rows", "round_step", "row_count_problem", "check_span",
    "TimeSpan", "Span", "CaseFile", "whole_steps_unchecked", "LoadInfo", "NOT_LOADED",
    # reach
    "never_reached",
    # kinds
    "KINDS", "Kind", "case_kind", "kind_schema",
    # layers
    "Origins", "layers", "given_layer",
    # loading
    "cases_dir", "shipped_cases", "variant_cases", "resolve_case_path", "read_toml",
    "read_case_data", "origin_file", "load_case", "unread_after_loading",
    "file_case", "kind_of", "overridden_keys", "unset_name", "run_first_hint",
    # loading: what loading notes on a case (its LoadInfo, no schema field)
    "source_file", "file_label", "references_from", "loaded_as", "loading_record",
    "base_case", "twin_of",
    # refusals
    "first_refusal", "leave_behind", "first_refusal_of_changes", "unread_override",
    "unread_keys", "replacements", "stray_attribute",
    # changes
    "METHOD_KEYS", "GRADING_KEYS", "physics_changes", "grading_changes", "PLACED_KEYS",
    "placed_for_other_physics", "kept_from_other_physics", "holds_the_run",
]
