"""The case files the documentation shows run as written, without a warning: a reader who
copies one and sees warnings cannot tell what they did wrong."""

import re
from pathlib import Path

import rocking_contact as rc

DOCS = Path(__file__).resolve().parents[1] / "docs"


def toml_after(doc: str, heading: str) -> str:
    """The first ```toml block after ``heading`` in ``docs/<doc>``."""
    text = (DOCS / doc).read_text(encoding="utf-8")
    found = re.search(r"```toml\n(.*?)```", text[text.index(heading):], re.S)
    assert found is not None, f"{doc}: no toml block after {heading!r}"
    return found.group(1)


def test_the_own_block_example_runs_without_a_warning(tmp_path):
    """docs/case-files.md's tall.toml printed two warnings as written (audit s24 #11.5):
    the description inherited from sdnv105d, and the tilt that took 2 pseudo-time steps.
    The release and the first steps show both; the run is cut to 5 ms to stay fast."""
    path = tmp_path / "tall.toml"
    path.write_text(toml_after("case-files.md", "### Your own block"), encoding="utf-8")
    result = rc.run(rc.load_case(path, ["time.end=0.005"]), out=tmp_path / "out", quiet=True,
                    plots=False)
    assert result.status == "completed"
    assert result.warnings == []
