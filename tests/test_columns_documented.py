"""Every column a run writes into ``history.csv`` is in docs/outputs.md's column table, by
its name (``GAP_MIN``) or a pattern of it (``RN_<P>``), so that no column is added without
its unit and meaning; tests/viz/test_history_plots.py checks the other way, that every
documented column has its plot label.

One short run of each kind: a block (SDNV105 D to 0.002 s: contact, theta-scheme, the
base's summed columns), the rigid block, a discrete system (SDND101 A to 0.01 s).
"""

import csv
import re
from pathlib import Path

import pytest

import rocking_contact as rc

DOC = Path(__file__).parents[1] / "docs" / "outputs.md"

#: kind -> (case, overrides) of the run that shows its columns
RUNS = {
    "block": ("sdnv105d", {"time.end": 0.002}),
    "rigid": ("sdnv105_rigid", {}),
    "discrete": ("sdnd101a", {"time.end": 0.01}),
}



def documented_patterns() -> list[re.Pattern[str]]:
    """The names of the first cell of each row of the ``history.csv`` column table, as
    full-match patterns (``<P>``, a named point or shock: ``O``, ``C1``, ``NO1``)."""
    section = DOC.read_text().split("## `history.csv` columns", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    names = [name for row in rows for name in re.findall(r"`([^`]+)`", row.split("|")[1])]
    assert len(rows) >= 20 and "time" in names and "RN_<P>" in names, "table not found"
    return [re.compile(re.escape(name).replace(re.escape("<P>"), "[A-Z][A-Z0-9]*"))
            for name in names]


@pytest.fixture(scope="module")
def written(tmp_path_factory) -> dict[str, list[str]]:
    """kind -> the header of the ``history.csv`` its run wrote."""
    out = {}
    for kind, (name, overrides) in RUNS.items():
        directory = tmp_path_factory.mktemp(kind)
        result = rc.run(rc.load_case(name, overrides), out=directory, quiet=True, plots=False)
        assert result.status == "completed", (name, result.status)
        with open(directory / "history.csv", newline="") as stream:
            out[kind] = next(csv.reader(stream))
    return out


def undocumented(columns: list[str]) -> list[str]:
    patterns = documented_patterns()
    return [c for c in columns if not any(p.fullmatch(c) for p in patterns)]


@pytest.mark.parametrize("kind", RUNS)
def test_every_written_column_is_documented(written, kind):
    columns = written[kind]
    assert "time" in columns and len(columns) > 3, columns
    missing = undocumented(columns)
    assert not missing, f"{kind} columns missing from docs/outputs.md's table: {missing}"


def test_a_pattern_matches_whole_names_only():
    """``RN_<P>`` documents ``RN_O`` and ``RN_NO1``, not ``RN_O_X`` nor ``XRN_O``."""
    assert undocumented(["RN_O", "RN_NO1", "DX_C1", "RN_O_X", "XRN_O", "THETA2"]) == [
        "RN_O_X", "XRN_O", "THETA2"]
