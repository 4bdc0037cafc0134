"""A rigid run stops after the piece of integration under way on Ctrl-C or SIGTERM, keeps
what it computed, and reports its progress over the whole run (every level) once."""

import json
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import rocking_contact as rc
from rocking_contact import interrupt
from rocking_contact.analytic.rigid_runner import run
from rocking_contact.progress import Progress
from rocking_contact.results_io import read_history_csv
from rocking_contact.stops import Interrupted

CLI = Path(sys.executable).parent / "rocking-contact"

#: a slender block rocking on a shaken table for 30 s (a sine of 2 Hz at 1.33 times its
#: uplift acceleration g b / l: 119 impacts)
SHAKEN = {"geometry.half_width": 0.1, "geometry.half_height": 0.5, "preload.tilt": 0.0,
          "loading.table_acceleration_x": {"type": "sine", "amplitude": 2.6,
                                           "frequency": 2.0},
          "time.end": 30.0, "time.step": 1e-3, "quantity": [], "reference": []}


class Noted(Progress):
    """A progress that notes the simulated times it is given, and asks for a stop (what
    the Ctrl-C handler does) once past ``stop_at`` (s)."""

    def __init__(self, *args, stop_at=float("inf"), **kwargs):
        super().__init__(*args, **kwargs)
        self.times, self.stop_at = [], stop_at

    def update(self, t, info="", step=None):
        self.times.append(t)
        if t > self.stop_at:
            interrupt.request()


def test_a_rigid_run_stops_between_two_pieces_with_what_it_computed():
    """It went on to time.end (30 s of rocking: 21-27 s after a SIGTERM on a long record,
    status completed, 'interrupted at the end of the run'). Now the levels stop together
    after the piece under way; the history (the nonlinear level's) ends at the instant the
    status gives, and is the uninterrupted run's up to there, as are both levels' impacts."""
    case = rc.load_case("sdnv105_rigid", SHAKEN)
    whole = run(case)
    with interrupt.deferred(), pytest.raises(Interrupted) as info:
        run(case, progress=Noted(0.0, 30.0, enabled=False, stop_at=10.0))
    partial = info.value.partial
    assert not isinstance(info.value, Exception) and info.value.signal == signal.SIGINT
    assert partial.status == str(info.value) and partial.status.startswith("interrupted at t = ")
    t = partial.history["time"]
    assert 10.0 < t[-1] < 11.0 and partial.status == f"interrupted at t = {t[-1]:.9g} s"
    for name, column in partial.history.items():
        assert np.array_equal(column, whole.history[name][:len(column)]), name
    assert partial.extra["outcome"] == "interrupted"
    for level in ("linearised", "nonlinear"):
        kept = partial.extra["levels"][level]["impacts"]
        assert kept and kept == whole.extra["levels"][level]["impacts"][:len(kept)]
        assert 9.0 < kept[-1]["time"] <= 11.0  # both levels got as far
    assert partial.collisions == whole.collisions[:len(partial.collisions)]
    assert not interrupt.requested()  # the request does not outlive the run


def test_the_progress_runs_once_over_every_level_to_its_end():
    """The bar ran 0 to 91 % once per level, then restarted at 0 % ('~5 h 39 min left'),
    and never printed its 100 % line: now the simulated times every level has reached,
    rising, ending at time.end."""
    case = rc.load_case("sdnv105_rigid", SHAKEN)
    noted = Noted(0.0, 30.0, enabled=False)
    run(case, progress=noted)
    assert len(noted.times) > 100 and noted.times[-1] == 30.0
    assert all(a <= b for a, b in zip(noted.times, noted.times[1:]))


def test_the_progress_reaches_its_end_when_the_block_stops_early():
    """A block that comes to rest (or overturns) ends the levels before time.end: the
    progress still ends at 100 %."""
    case = rc.load_case("sdnv105_rigid", {"time.end": 2.0})  # at rest from 0.3728 s
    noted = Noted(0.0, 2.0, enabled=False)
    result = run(case, progress=noted)
    assert result.extra["outcome"] == "rest" and noted.times[-1] == 2.0


@pytest.mark.parametrize("signum,code", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_signal_stops_the_rigid_command(tmp_path, signum, code):
    """``timeout -s TERM 4 rocking-contact rigid ... --set time.end=30`` on a long record
    exited after 21-27 s with status completed. Now it stops after the piece under way,
    writes what it computed and exits with the signal's code: its history ends inside the
    100 s record. (How soon it stops is no test's business: wall time is measured by
    benchmarks, not asserted; ``timeout=60`` only keeps a hung command from hanging the
    suite.)"""
    # smoothed noise, 0.08 g rms, 20,001 samples: 3596 impacts, ~9 s of wall
    t = np.arange(0.0, 100.0 + 1e-9, 0.005)
    noise = np.convolve(np.random.default_rng(3).normal(size=t.size + 39), np.ones(40) / 40,
                        mode="valid")
    shake = 0.08 * noise / noise.std()
    np.savetxt(tmp_path / "record.csv", np.column_stack([t, shake]), delimiter=",",
               fmt="%.6f")
    out = tmp_path / "r"
    proc = subprocess.Popen(
        [str(CLI), "rigid", "sdnv105_rigid", "--out", str(out), "--no-plots",
         "--set", "preload.tilt=0", "--set", "geometry.half_width=0.1",
         "--set", "geometry.half_height=0.5", "--set", "time.end=100",
         "--set", "quantity=[]", "--set", "reference=[]", "--set",
         'loading.table_acceleration_x={type="table",path="record.csv",amplitude=9.81}'],
        cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    for line in proc.stderr:  # the progress says the integration is under way
        if "%" in line:
            break
    proc.send_signal(signum)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == code, err
    assert "interrupted at t = " in err and "Traceback" not in err
    data = json.loads((out / "results.json").read_text())
    assert data["status"].startswith("interrupted at t = ")
    assert data["extra"]["outcome"] == "interrupted"
    rows = read_history_csv(out / "history.csv")["time"]
    assert 1.0 < rows[-1] < 99.0


def test_the_rigid_command_shows_what_a_stopped_run_computed(monkeypatch, capsys, tmp_path):
    """As ``run`` does: the summary line of what it computed, then the stop's line (it
    said the stop's line alone)."""
    from rocking_contact.cli import main

    case = tmp_path / "shaken.toml"
    case.write_text('extends = "sdnv105_rigid"\nquantity = []\nreference = []\n'
                    "[geometry]\nhalf_width = 0.1\nhalf_height = 0.5\n[preload]\ntilt = 0.0\n"
                    "[loading.table_acceleration_x]\ntype = 'sine'\namplitude = 2.6\n"
                    "frequency = 2.0\n[time]\nend = 30.0\nstep = 1e-3\n")
    monkeypatch.setattr("rocking_contact.api.Progress",
                        lambda *a, **k: Noted(*a, **{**k, "stop_at": 5.0}))
    with interrupt.deferred():
        code = main(["rigid", str(case), "--out", str(tmp_path / "o"), "--no-plots"])
    out, err = capsys.readouterr()
    assert code == 130
    summary = out.splitlines()[-1]
    assert summary.startswith("shaken: ") and "outcome interrupted" in summary, out
    assert err.splitlines()[-1].startswith("interrupted at t = "), err


def test_the_rigid_command_shows_the_quantities_without_reference(capsys, tmp_path):
    """A quantity measured and compared with nothing is a row of the table for information
    (such rows were in results.json alone; sdnv105_rigid's rn_max_A and rx_max_A were
    two until they got the closed forms' references)."""
    from rocking_contact.cli import main

    case = tmp_path / "measured.toml"
    case.write_text('extends = "sdnv105_rigid"\n[[quantity]]\nname = "theta_max"\n'
                    'column = "THETA"\nop = "max"\nwindow = [0.0, 0.33]\n')
    assert main(["rigid", str(case), "--out", str(tmp_path / "o"), "--no-plots"]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()]
    shown = [row for row in rows if row and row[0] == "theta_max"]
    assert len(shown) == 1 and shown[0][-3:] == ["no", "reference", "-"], shown
    assert float(shown[0][2]) == 0.01, shown  # the release angle, as printed
