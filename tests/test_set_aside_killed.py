"""SIGKILL at any point of setting an earlier run's results aside, of putting them back or
of deleting them loses none of them while they are to be kept: the next run puts back a
set-aside cut short, finishes a putting back cut short, and takes a folder half deleted
for the deleted one it was. Killed after some of its renames, set_aside left the earlier
results in two halves, in the directory and in the hidden folder, and the next run deleted
the hidden half (its own refusal then put back the other half alone)."""

import subprocess
import sys

import pytest
from test_refused_run_output import KeptRun, snapshot

from rocking_contact import results_dir

#: ``python -c KILLING``: reads lines ``CALL STEPS OUT`` and for each forks a process that
#: makes the ``+``-separated ``STEPS`` (results_dir's functions; ``computed``: a run's
#: results.json written) on the results directory ``OUT``, killed (SIGKILL) as it makes its
#: ``CALL``-th rename or removal: a process of its own, as a run killed is. It answers each
#: line with the process's wait status (``killed``, ``exit 0``), or ``error`` and what it
#: printed. Forked from one interpreter that imported rocking_contact once: a fresh one per
#: kill spent its start-up (34, 53 and 69 kills in the three tests) on nothing a kill tests.
KILLING = """
import os, shutil, signal, sys, traceback
from pathlib import Path
from rocking_contact import results_dir

def killing(original, call, count):
    def replaced(*args, **kwargs):
        count[0] += 1
        if count[0] == call:
            os.kill(os.getpid(), signal.SIGKILL)
        return original(*args, **kwargs)
    return replaced

def operate(call, operation, out):
    count = [0]
    for name in ("replace", "unlink", "rmdir"):
        setattr(os, name, killing(getattr(os, name), call, count))
    shutil.rmtree = killing(shutil.rmtree, call, count)
    for step in operation.split("+"):
        if step == "computed":
            (out / "results.json").write_text('{"status": "completed"}')
        else:
            getattr(results_dir, step)(out)

for line in sys.stdin:
    call, operation, out = line.split(maxsplit=2)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        try:
            operate(int(call), operation, Path(out.rstrip("\\n")))
        except BaseException:
            os.write(write, traceback.format_exc().encode())
            os._exit(1)
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as said:
        printed = said.read().decode()
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL:
        answer = "killed"
    elif os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0:
        answer = "exit 0"
    else:
        answer = "error " + repr(printed)
    print(answer, flush=True)
"""


@pytest.fixture(scope="module")
def killer():
    """The process that forks :data:`KILLING`'s killed processes."""
    with subprocess.Popen([sys.executable, "-c", KILLING], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, text=True) as server:
        yield server
        server.stdin.close()
        server.wait(timeout=60)


def killed_at(killer, call, operation, out):
    """Run ``operation`` (:data:`KILLING`'s steps) on ``out`` in a process killed as it
    makes its ``call``-th rename or removal; returns whether the kill came (False: it
    made fewer)."""
    killer.stdin.write(f"{call} {operation} {out}\n")
    killer.stdin.flush()
    answer = killer.stdout.readline().strip()
    assert answer in ("killed", "exit 0"), answer or "the forking process ended"
    return answer == "killed"


def set_aside_then_refused(out):
    """What a run that is refused as it sets up does to the results directory."""
    results_dir.set_aside(out)
    results_dir.restore(out)


@pytest.fixture(scope="module")
def earlier(tmp_path_factory):
    """The earlier run the tests work on (:class:`KeptRun`), made once for the module."""
    return KeptRun(tmp_path_factory.mktemp("earlier"))


@pytest.fixture
def pristine(earlier):
    """``(out, before, again)``: ``out`` holding the earlier run as it was made, its
    snapshot, and a function that puts ``out`` back as it was."""
    out, before = earlier.again()  # whatever the test before left there
    return out, before, earlier.again


@pytest.mark.parametrize(("steps", "more"), [
    # killed at the k-th rename or removal of set_aside: at every rename of every file
    ("set_aside", 0),
    # a run refused after the earlier results were set aside puts them back: killed in
    # the putting back too, not only before it
    ("set_aside+restore", 10),
], ids=["setting aside", "putting back"])
def test_killed_at_any_point_then_refused_leaves_the_directory_as_before(pristine, killer,
                                                                         steps, more):
    """Killed at any point, then a run refused (which finishes what the killed one left):
    the directory is as before."""
    out, before, again = pristine
    call = 1
    while killed_at(killer, call, steps, out):
        set_aside_then_refused(out)
        assert snapshot(out) == before, call
        again()
        call += 1
    assert call > len(before) + more


def test_a_discard_killed_at_any_point_is_finished(pristine, killer):
    """A run that computed deletes the earlier results; killed at any point of that (the
    folder half deleted, its mark gone, or not), the next run deletes the rest: no folder
    is left, as the user's would be for good."""
    out, before, again = pristine
    call = 1
    while killed_at(killer, call, "set_aside+computed+discard", out):
        results_dir.set_aside(out)
        results_dir.discard(out)
        assert sorted(p.name for p in out.iterdir()) == ["notes.txt"], call
        again()
        call += 1
    assert call > len(before)


def test_a_folder_left_empty_or_unmarked_by_a_kill_is_none(pristine):
    """Killed between making the folder and marking it, a run left it empty (or holding
    the mark's partial file): the next run sets the earlier results aside, not deletes
    them for a folder of the user's."""
    out, before, _ = pristine
    (out / results_dir.REPLACED).mkdir()
    (out / results_dir.REPLACED / (results_dir.REPLACED_MARK + ".partial")).write_text("")
    set_aside_then_refused(out)
    assert snapshot(out) == before
