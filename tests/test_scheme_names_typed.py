"""mypy holds a block case's ``scheme.type`` and a window's ``scheme`` to the scheme names:
fem/case.py annotates them with time.schemes' Literal types. It declared its own under
TYPE_CHECKING as ``str``, so that a misspelt name in a comparison passed mypy."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[1]

SNIPPET = '''\
from rocking_contact.fem.case import SchemeSpec, Window


def misspelt(spec: SchemeSpec, window: Window) -> bool:
    return spec.type == "hhtt" or window.scheme == "newmark"
'''


def test_mypy_refuses_a_misspelt_scheme_name(tmp_path):
    snippet = tmp_path / "snippet.py"
    snippet.write_text(SNIPPET)
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
         "--cache-dir", str(tmp_path / "cache"), str(snippet)],
        capture_output=True, text=True, cwd=ROOT, timeout=600)
    # the snippet's errors (a module it imports may be under edit)
    errors = [line for line in proc.stdout.splitlines() if line.startswith(f"{snippet}:")]
    assert [e.split(": error: ")[-1].split(" (")[0] for e in errors] == [
        "Non-overlapping equality check"] * 2, proc.stdout + proc.stderr
    assert 'right operand type: "Literal[\'hhtt\']"' in errors[0]
    assert 'right operand type: "Literal[\'newmark\']"' in errors[1]
