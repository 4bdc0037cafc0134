"""Case files: typed, validated, overridable.

One module per concept: :mod:`.schema` (typed fields, :func:`build` from TOML data, the
``keys`` listing), :mod:`.overrides` (``--set``), :mod:`.names` (the history columns and
quantities a case refers to), :mod:`.sections` (the sections every kind shares),
:mod:`.loading` (case files on disk, :func:`load_case`) and :mod:`.changes` (what a run
changed from its case file). Callers import from ``rocking_contact.config``, which
re-exports every public name of its modules.
"""

from rocking_contact.config.changes import (
    GRADING_KEYS,
    METHOD_KEYS,
    PLACED_KEYS,
    grading_changes,
    physics_changes,
    placed_for_other_physics,
)
from rocking_contact.config.loading import (
    CASE_FOLDER,
    KINDS,
    Origins,
    case_dir,
    case_kind,
    cases_dir,
    file_case,
    kind_runner,
    kind_schema,
    load_case,
    origin_file,
    read_case_data,
    read_toml,
    resolve_case_path,
    shipped_cases,
    stray_attribute,
    unread_after_loading,
    unread_override,
    variant_cases,
)
from rocking_contact.config.names import (
    NamePattern,
    missing_columns,
    uncomputed,
    uncomputed_references,
    unknown_name,
)
from rocking_contact.config.overrides import (
    anchor_paths,
    apply_overrides,
    key_path,
    parse_override,
)
from rocking_contact.config.schema import (
    DIRECTORY_NAME,
    FINITE,
    NONNEGATIVE,
    POSITIVE,
    CaseError,
    Check,
    Conflict,
    as_dict,
    build,
    in_range,
    merge,
    param,
    schema_doc,
)
from rocking_contact.config.sections import (
    MAX_STEPS,
    CaseFile,
    CaseInfo,
    QuantitySpec,
    Reference,
    TimeSpan,
    check_span,
    step_count_problem,
)

__all__ = [
    # schema
    "CaseError", "Check", "Conflict", "POSITIVE", "NONNEGATIVE", "FINITE", "DIRECTORY_NAME",
    "in_range", "param", "build", "merge", "as_dict", "schema_doc",
    # overrides
    "key_path", "parse_override", "anchor_paths", "apply_overrides",
    # names
    "NamePattern", "unknown_name", "uncomputed", "missing_columns",
    "uncomputed_references",
    # sections
    "CaseInfo", "Reference", "QuantitySpec", "MAX_STEPS", "step_count_problem", "check_span",
    "TimeSpan", "CaseFile",
    # loading
    "CASE_FOLDER", "KINDS", "cases_dir", "shipped_cases", "variant_cases",
    "resolve_case_path", "case_kind", "kind_schema", "kind_runner", "read_toml", "Origins",
    "read_case_data", "origin_file", "load_case", "unread_after_loading", "unread_override",
    "stray_attribute", "case_dir", "file_case",
    # changes
    "METHOD_KEYS", "GRADING_KEYS", "physics_changes", "grading_changes", "PLACED_KEYS",
    "placed_for_other_physics",
]
