"""The progress bar: silent for short runs, a line per fifth of the run in a log file."""

import io
import time

from rocking_contact.progress import Progress


def test_short_runs_stay_silent():
    buf = io.StringIO()
    p = Progress(0.0, 1.0, "case", stream=buf)  # default: shows after 2 s only
    for i in range(11):
        p.update(i / 10)
    p.close()
    assert buf.getvalue() == ""


def test_log_file_gets_one_line_per_fifth():
    buf = io.StringIO()
    p = Progress(0.0, 2.0, "case", delay=0.0, stream=buf)
    for i in range(201):
        p.update(i / 100)
        time.sleep(0.002)
    p.close()
    lines = buf.getvalue().splitlines()
    assert "\r" not in buf.getvalue()
    assert [line.split()[1] for line in lines] == ["20%", "40%", "60%", "80%", "100%"]
