"""A form cache DOLFINx cannot make (XDG_CACHE_HOME naming a file, a home of another uid)
stopped the first block run with a traceback of mkdir: the run now caches its forms under
the system's temporary directory and says so once."""

import os
import subprocess
import sys
import tempfile

import pytest

from rocking_contact import caches


@pytest.fixture
def first_call(monkeypatch):
    """ensure_form_cache as the process's first call (the import hook's) makes it: its
    kept answer forgotten before and after, DOLFINx not imported yet."""
    monkeypatch.delitem(sys.modules, "dolfinx", raising=False)
    caches.ensure_form_cache.cache_clear()
    yield caches.ensure_form_cache
    caches.ensure_form_cache.cache_clear()


def test_an_unusable_cache_is_replaced_and_said(tmp_path, monkeypatch, first_call):
    blocker = tmp_path / "a_file"
    blocker.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker / "cache"))
    note = first_call()
    fallback = os.path.join(tempfile.gettempdir(), f"rocking_contact-cache-{os.getuid()}")
    assert os.environ["XDG_CACHE_HOME"] == fallback
    assert note == (f"the compiled-form cache {blocker}/cache/fenics cannot be used "
                    f"(Not a directory): forms are cached in {fallback}/fenics (set "
                    "XDG_CACHE_HOME to a writable directory to keep them elsewhere)")
    assert caches.ensure_form_cache() is note  # a later call (the run's) is told the same


def test_a_usable_cache_is_left_alone(tmp_path, monkeypatch, first_call):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert first_call() is None
    assert os.environ["XDG_CACHE_HOME"] == str(tmp_path / "cache")
    assert (tmp_path / "cache" / "fenics").is_dir()


def test_nothing_is_changed_once_dolfinx_has_read_the_variable(tmp_path, monkeypatch,
                                                               first_call):
    """DOLFINx takes its cache directory when it is imported: a later change would not be
    seen, and a note would say what did not happen."""
    blocker = tmp_path / "a_file"
    blocker.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker / "cache"))
    monkeypatch.setitem(sys.modules, "dolfinx", object())
    assert first_call() is None
    assert os.environ["XDG_CACHE_HOME"] == str(blocker / "cache")


def test_a_block_run_with_an_unusable_cache_runs_and_warns(tmp_path):
    blocker = tmp_path / "a_file"
    blocker.write_text("")
    env = {**os.environ, "XDG_CACHE_HOME": str(blocker / "cache")}
    proc = subprocess.run([sys.executable, "-m", "rocking_contact.cli", "run", "sdnv105d",
                           "--set", "time.end=0.0005", "--out", str(tmp_path / "out"),
                           "--quiet", "--no-plots"], env=env, capture_output=True, text=True,
                          timeout=600, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "warning: sdnv105d: the compiled-form cache " in proc.stderr
