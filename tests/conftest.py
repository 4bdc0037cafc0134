"""Test-suite root. Its folder, tests/, is on the import path (pytest puts a conftest's
folder there): helpers shared by every area live here (acceptance.py), and the way
``make test`` shares the tests between pytest-xdist workers (mpi_alone.py)."""

import shutil
import signal
import tempfile

import pytest


@pytest.fixture
def python_sigint():
    """Ctrl-C raises KeyboardInterrupt in this test, as in an interactive Python: a suite
    started in the background by a shell without job control (`make test &`) inherits
    SIGINT ignored, and Python then leaves it ignored."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


#: the controller's directory where the workers write their ``mpi`` tests' ids (mpi_alone.py)
IDS_DIR = pytest.StashKey[str]()


def _alone(config):
    """``-n N --dist loadfile``: the MPI tests last and alone (mpi_alone.MpiAlone)."""
    return config.getoption("dist", "no") == "loadfile"


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    """Tell each worker where to write the ids of its tests marked ``mpi``."""
    import mpi_alone  # xdist's, as this hook

    if _alone(node.config):
        if IDS_DIR not in node.config.stash:
            node.config.stash[IDS_DIR] = tempfile.mkdtemp(prefix="mpi_alone_")
        node.workerinput[mpi_alone.KEY] = node.config.stash[IDS_DIR]


def pytest_unconfigure(config):
    if IDS_DIR in config.stash:
        shutil.rmtree(config.stash[IDS_DIR], ignore_errors=True)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """A worker of ``--dist loadfile`` writes the ids of its tests marked ``mpi``."""
    folder = getattr(config, "workerinput", {}).get("mpi_alone_ids")  # mpi_alone.KEY
    if folder:
        import mpi_alone

        mpi_alone.write_ids(folder, config.workerinput["workerid"],
                            [item.nodeid for item in items if item.get_closest_marker("mpi")])


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """``--dist loadfile`` is :class:`mpi_alone.MpiAlone`: files to every worker, the MPI
    tests last and alone."""
    if not _alone(config):
        return None
    import mpi_alone

    return mpi_alone.MpiAlone(config, log, config.stash[IDS_DIR])
