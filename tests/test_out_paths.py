"""A results directory that cannot be made is one line and exit code 2, on every rank, and
leaves no directory of its own behind (rocking_contact/out_paths.py)."""

import pytest
from test_bad_input import assert_one_line_error
from test_mpi_tools import under_mpiexec

from rocking_contact.cli import main


def test_a_name_too_long_is_one_line_and_leaves_no_parent(capsys, tmp_path):
    """A 300-byte name: Path.exists raised (a traceback, exit code 1), and the parent the
    run made for it stayed."""
    out = tmp_path / "sub" / ("x" * 300)
    code = main(["run", "sdnd101a", "--quiet", "--no-plots", "--out", str(out)])
    assert_one_line_error(capsys, code, ["error: --out: cannot create ",
                                         ": File name too long (allowed: a writable "
                                         "directory, created if missing)"])
    assert not (tmp_path / "sub").exists()


@pytest.mark.mpi
def test_under_mpiexec_every_rank_refuses_what_rank_0_cannot_make(tmp_path):
    """A --out under a dangling symbolic link: rank 0 alone makes the directories and could
    not; the other rank went on and waited for it at the run's first barrier, both ranks
    spinning for good (SIGTERM did not stop them). Rank 0 now tells them."""
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere" / "target")
    code, out, err = under_mpiexec(tmp_path, "run", "sdnv105d", "--no-plots", "--quiet",
                                   "--out", "dangling/deep", "--set", "time.end=0.001")
    assert code == 2, (out, err)
    assert err.count("error: --out: cannot create dangling/deep: File exists") == 1, err
