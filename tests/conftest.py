"""Test-suite root. Its folder, tests/, is on the import path (pytest puts a conftest's
folder there): helpers shared by every area live here (acceptance.py)."""

import signal

import pytest


@pytest.fixture
def python_sigint():
    """Ctrl-C raises KeyboardInterrupt in this test, as in an interactive Python: a suite
    started in the background by a shell without job control (`make test &`) inherits
    SIGINT ignored, and Python then leaves it ignored."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)
