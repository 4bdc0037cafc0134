"""The progress report: silent for short runs and under --quiet; in a log (CI, nohup), a
line each 10 % of the run or 10 s of wall time, with t, step, % and the time left."""

import io
import time

from rocking_contact.progress import Progress


class Clock:
    """A wall clock the test advances."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def run(wall: float, updates: int, **kwargs) -> list[str]:
    """The lines a log gets from a run of 1 s simulated over ``wall`` s of wall time,
    reported at ``updates`` evenly spaced steps."""
    buf, clock = io.StringIO(), Clock()
    p = Progress(0.0, 1.0, "case", stream=buf, clock=clock, **kwargs)
    for i in range(1, updates + 1):
        clock.now = wall * i / updates
        p.update(i / updates, "h=0.001", step=i)
    p.close()
    assert "\r" not in buf.getvalue()
    return buf.getvalue().splitlines()


def test_short_runs_stay_silent():
    assert run(1.9, 100) == []


def test_quiet_prints_nothing():
    assert run(600.0, 1000, enabled=False) == []


def test_a_log_gets_a_line_every_tenth_of_a_quick_run():
    """20 s of wall time: 10 % of the run comes every 2 s, before 10 s do."""
    lines = run(20.0, 1000)
    assert [line.split()[1] for line in lines] == [f"{p}%" for p in range(10, 101, 10)]
    assert lines[3] == ("case:  40%  t=0.4 s  step 400  8.0 s elapsed, ~12 s left  "
                        "h=0.001")


def test_a_log_gets_a_line_every_ten_seconds_of_a_long_run():
    """Two hours: a line each 10 s with the time left (720 lines), and the last."""
    lines = run(7200.0, 72000)
    assert len(lines) == 720
    assert "t=0.5 s  step 36000  3600.0 s elapsed, ~1 h 00 min left" in lines[359]
    assert lines[-1].startswith("case: 100%  t=1 s  step 72000  7200.0 s elapsed, ~0 s left")


def test_lines_of_a_log_are_a_second_apart_at_least():
    """A 3 s run reported at a few steps: 10 % every 0.3 s, one line a second, and the
    last one whatever the gap."""
    lines = run(3.0, 10)
    assert [line.split()[1] for line in lines] == ["70%", "100%"]


def test_the_time_left_is_paced_on_the_run_not_its_setup():
    """A run that spent 30 s setting up (mesh, preload) before its first step, then takes
    1 s per 10 % of its simulated time: at 50 % there are 5 s left, not 35."""
    buf, clock = io.StringIO(), Clock()
    p = Progress(0.0, 1.0, "case", stream=buf, clock=clock)
    clock.now = 30.0
    p.update(0.0)
    for i in range(1, 6):
        clock.now = 30.0 + i
        p.update(i / 10)
    assert buf.getvalue().splitlines()[-1].endswith("35.0 s elapsed, ~5 s left")


def test_a_terminal_gets_one_redrawn_bar():
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    buf, clock = Terminal(), Clock()
    p = Progress(0.0, 1.0, "case", stream=buf, clock=clock)
    for i in range(1, 101):
        clock.now = 0.1 * i
        p.update(i / 100, step=i)
    p.close()
    text = buf.getvalue()
    assert text.endswith("\n") and text.count("\n") == 1
    assert "\rcase [##############################] 100%  t=1 s  step 100" in text


def test_work_before_the_steps_is_said_once_and_not_counted_as_elapsed():
    """A cold numba compilation (7 to 27 s) was silent, then counted as the run's
    "elapsed" ("40%  t=0.2 s  step 2000  12.0 s elapsed, ~? left" for a 0.015 s run):
    one line once it lasts the delay, and the clock starts after it."""
    buf, clock = io.StringIO(), Clock()
    p = Progress(0.0, 1.0, "case", stream=buf, clock=clock, delay=0.05)
    with p.preparing("compiling numba kernels"):
        clock.now = 12.0
        time.sleep(0.3)  # the line comes from a timer of real time
    for now, t in ((12.5, 0.5), (13.0, 1.0)):
        clock.now = now
        p.update(t, step=int(1000 * t))
    assert buf.getvalue().splitlines() == [
        "case: compiling numba kernels ...",
        "case: 100%  t=1 s  step 1000  1.0 s elapsed, ~0 s left"]


def test_quick_or_quiet_work_before_the_steps_says_nothing():
    """A load from numba's cache (0.3 s) says nothing, nor --quiet a compilation."""
    for delay, enabled, sleep in ((5.0, True, 0.0), (0.05, False, 0.2)):
        buf = io.StringIO()
        p = Progress(0.0, 1.0, "case", stream=buf, delay=delay, enabled=enabled)
        with p.preparing("compiling numba kernels"):
            time.sleep(sleep)
        assert buf.getvalue() == ""
