"""SIGKILL at any point of setting an earlier run's results aside, of putting them back or
of deleting them loses none of them while they are to be kept: the next run puts back a
set-aside cut short, finishes a putting back cut short, and takes a folder half deleted
for the deleted one it was. Killed after some of its renames, set_aside left the earlier
results in two halves, in the directory and in the hidden folder, and the next run deleted
the hidden half (its own refusal then put back the other half alone)."""

import shutil
import signal
import subprocess
import sys

import pytest
from test_refused_run_output import earlier_run, snapshot

from rocking_contact import results_dir

#: ``python -c KILLING CALL STEPS OUT``: the ``+``-separated ``STEPS`` (results_dir's
#: functions; ``computed``: a run's results.json written) on the results directory ``OUT``,
#: killed (SIGKILL) as it makes its ``CALL``-th rename or removal; a process of its own, as
#: a run killed is
KILLING = """
import os, shutil, signal, sys
from pathlib import Path
from rocking_contact import results_dir
call, operation, out = int(sys.argv[1]), sys.argv[2], Path(sys.argv[3])
count = [0]

def killing(original):
    def replaced(*args, **kwargs):
        count[0] += 1
        if count[0] == call:
            os.kill(os.getpid(), signal.SIGKILL)
        return original(*args, **kwargs)
    return replaced

for name in ("replace", "unlink", "rmdir"):
    setattr(os, name, killing(getattr(os, name)))
shutil.rmtree = killing(shutil.rmtree)
for step in operation.split("+"):
    if step == "computed":
        (out / "results.json").write_text('{"status": "completed"}')
    else:
        getattr(results_dir, step)(out)
"""


def killed_at(call, operation, out):
    """Run ``operation`` (:data:`KILLING`'s steps) on ``out`` in a process killed as it
    makes its ``call``-th rename or removal; returns whether the kill came (False: it
    made fewer)."""
    done = subprocess.run([sys.executable, "-c", KILLING, str(call), operation, str(out)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode in (0, -signal.SIGKILL), done.stderr
    return done.returncode == -signal.SIGKILL


def set_aside_then_refused(out):
    """What a run that is refused as it sets up does to the results directory."""
    results_dir.set_aside(out)
    results_dir.restore(out)


@pytest.fixture
def pristine(tmp_path):
    """``(out, before, again)``: ``out`` holding an earlier run (:func:`earlier_run`), its
    snapshot, and a function that puts ``out`` back as it was."""
    out = tmp_path / "o"
    before = earlier_run(out, tmp_path)
    kept = tmp_path / "kept"
    shutil.copytree(out, kept)

    def again():
        shutil.rmtree(out)
        shutil.copytree(kept, out)

    return out, before, again


@pytest.mark.parametrize(("steps", "more"), [
    # killed at the k-th rename or removal of set_aside: at every rename of every file
    ("set_aside", 0),
    # a run refused after the earlier results were set aside puts them back: killed in
    # the putting back too, not only before it
    ("set_aside+restore", 10),
], ids=["setting aside", "putting back"])
def test_killed_at_any_point_then_refused_leaves_the_directory_as_before(pristine, steps,
                                                                         more):
    """Killed at any point, then a run refused (which finishes what the killed one left):
    the directory is as before."""
    out, before, again = pristine
    call = 1
    while killed_at(call, steps, out):
        set_aside_then_refused(out)
        assert snapshot(out) == before, call
        again()
        call += 1
    assert call > len(before) + more


def test_a_discard_killed_at_any_point_is_finished(pristine):
    """A run that computed deletes the earlier results; killed at any point of that (the
    folder half deleted, its mark gone, or not), the next run deletes the rest: no folder
    is left, as the user's would be for good."""
    out, before, again = pristine
    call = 1
    while killed_at(call, "set_aside+computed+discard", out):
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
