"""A Ctrl-C or SIGTERM while the command line starts (the package imported, MPI started,
the command line read): one line, exit code 130 or 143, no traceback."""

import signal
import subprocess
import sys
import threading
import time

import pytest

from rocking_contact import interrupt

#: the console script's lines, with a mark as main is called: before, Python starts (site,
#: the editable install's finder: 60 ms here) and imports the command line's module (12 ms,
#: light: the test below), where a Ctrl-C is still Python's traceback
SCRIPT = ("import sys\nfrom rocking_contact.cli import main\n"
          "print('started', file=sys.stderr, flush=True)\nsys.exit(main())\n")


def signalled(signum, delay, tmp_path):
    """``run sdnd101a`` sent ``signum`` ``delay`` s after main was called; returns the exit
    code and stderr."""
    proc = subprocess.Popen([sys.executable, "-c", SCRIPT, "run", "sdnd101a", "-q",
                             "--no-plots", "--out", str(tmp_path / "r")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stderr.readline() == "started\n"
    time.sleep(delay)
    proc.send_signal(signum)
    _, err = proc.communicate(timeout=60)
    return proc.returncode, err


@pytest.mark.parametrize("signum,code,delays", [
    (signal.SIGINT, 130, (0.005, 0.02, 0.05, 0.1, 0.2, 0.35)),
    (signal.SIGTERM, 143, (0.005, 0.05, 0.2))])
def test_a_signal_while_the_command_starts_is_one_line(tmp_path, signum, code, delays):
    """From main's first line to the run, which defers the signal (then the handler's line
    and the run's ``interrupted at t = ...``); the import of the package's modules and
    MPI's start (a third of a second: a traceback, when the package's import did them
    before main was called) is spread over the delays."""
    name = interrupt.SIGNALS[signum]
    for delay in delays:
        returncode, err = signalled(signum, delay, tmp_path)
        assert returncode == code, (delay, err)
        assert err == "interrupted\n" or (
            err.startswith(f"\n{name}: stopping after the step under way")
            and err.splitlines()[-1].startswith("interrupted at t = ")
            and "Traceback" not in err), (delay, err)


def test_the_command_lines_module_imports_nothing_heavy():
    """What it imports comes before it can take a signal: numpy, MPI and the DOLFINx wheel
    are imported by main, the signals held meanwhile."""
    heavy = ("numpy", "mpi4py", "dolfinx_solver", "rocking_contact.api")
    code = f"import sys, rocking_contact.cli\nprint([m for m in {heavy} if m in sys.modules])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize("code", [
    "import rocking_contact as rc\nprint(rc.load_case('sdnd101a').case.name)",
    "import rocking_contact.fem.body\nprint('sdnd101a')",  # the wheel first, as before
    "import rocking_contact\nimport dolfinx\nprint('sdnd101a')",
    "from rocking_contact.api import mpi_rank\nimport sys\n"
    "print('sdnd101a' if 'mpi4py.MPI' in sys.modules else 'MPI not started')"])
def test_the_package_imports_the_wheel_before_its_modules(code):
    """``import rocking_contact`` alone imports nothing heavy; its names, its modules and
    the wheel's (``dolfinx``) find ``dolfinx_solver`` imported first."""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "sdnd101a", out.stderr


def test_an_error_raised_after_a_stop_was_asked_for_stands_for_it(monkeypatch):
    """Raised at once in a library's code, the KeyboardInterrupt may come out as the
    library's own error (matplotlib's "ImportError: initialization failed", "ValueError:
    Invalid bounding box"), or be dropped where Python cannot raise it (a weakref callback,
    a ``__del__``: "Exception ignored in ..." and a traceback): within abandoning(), the
    first is the interrupt again and the second is not printed, the stop still asked for,
    nor are the errors of objects it left half built (pyvista's Renderer.__del__)."""
    dropped = []

    def record(info):
        dropped.append(info.exc_type)

    monkeypatch.setattr(sys, "unraisablehook", record)

    class Dropping:
        def __init__(self, exc_type):
            self.exc_type = exc_type

        def __del__(self):
            raise self.exc_type

    assert not interrupt.stands_for_a_signal(ValueError("Invalid bounding box"))
    with interrupt.deferred(), pytest.raises(ValueError), interrupt.abandoning():
        Dropping(AttributeError)  # no stop asked for: real errors
        raise ValueError("Invalid bounding box")
    with interrupt.deferred(), pytest.raises(KeyboardInterrupt), interrupt.abandoning():
        interrupt.request()  # what the handler does before it raises
        assert interrupt.stands_for_a_signal(ImportError("initialization failed"))
        Dropping(KeyboardInterrupt)
        Dropping(AttributeError)
        raise ValueError("Invalid bounding box")
    assert dropped == [AttributeError] and sys.unraisablehook is record


def test_a_signal_held_for_python_comes_after_whichever_thread_takes_it(
        python_sigint):
    """A thread started before the block (numpy's OpenBLAS threads) takes the signal that
    this one blocks: noted, it comes after the block, not in it (an import of VTK's modules
    so interrupted crashed)."""
    started, done = threading.Event(), threading.Event()
    thread = threading.Thread(target=lambda: started.set() or done.wait(10))
    thread.start()
    started.wait(10)
    reached = []
    with pytest.raises(KeyboardInterrupt):
        with interrupt.signals_held_for_python():
            signal.pthread_kill(thread.ident, signal.SIGINT)
            time.sleep(0.1)  # the handler in place ran here, in this thread
            reached.append("end of the block")
    done.set()
    thread.join()
    assert reached == ["end of the block"]
