"""A disk that fills up while a block run writes its history and fields: one line naming
the file, exit code 1, the rows written kept.

On a 300 kB tmpfs, SDNV105 D said 'error: cannot write .../history.csv: No space left on
device', then 101 lines of HDF5-DIAG and "terminate called after throwing an instance of
'std::runtime_error' what(): Failed to close HDF5 file.", exit code 134: the field
writer's fields.h5, never closed on that path, was closed as the process ended, its
flush failed on the full disk, and the close threw in a destructor (M1, 2026-11-24).
"""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rocking_contact.results_io import FieldIndex

#: as root of a user and mount namespace of its own: the tmpfs goes with the process
MOUNTED = """
mount -t tmpfs -o size=300k tmpfs "$1" || exit 99
"$2" -m rocking_contact.cli run sdnv105d --set time.end=0.15 --out "$1/s" -q --no-plots
echo $? > "$3/code"
wc -l < "$1/s/history.csv" > "$3/rows"
ls "$1/s" > "$3/files"
"""


@pytest.mark.skipif(shutil.which("unshare") is None, reason="needs unshare (util-linux)")
def test_a_disk_that_fills_as_a_block_run_writes_is_one_line(tmp_path):
    small = tmp_path / "small"
    small.mkdir()
    done = subprocess.run(["unshare", "--user", "--map-root-user", "--mount", "sh", "-c",
                           MOUNTED, "sh", str(small), sys.executable, str(tmp_path)],
                          capture_output=True, text=True, timeout=300)
    if not (tmp_path / "code").is_file():
        pytest.skip(f"no tmpfs in a namespace of our own here: {done.stderr.strip()}")
    assert (tmp_path / "code").read_text().strip() == "1", done.stderr[-3000:]
    said = done.stderr.splitlines()
    assert len(said) == 1, done.stderr[-3000:]
    assert said[0].startswith(f"error: cannot write {small}/s/")
    assert said[0].endswith(": No space left on device")
    # the rows written before the disk filled stay (sdnv105d: 169 of 1501 to 0.15 s)
    assert 10 < int((tmp_path / "rows").read_text()) < 1501
    files = (tmp_path / "files").read_text().split()
    assert "fields.h5" in files and not [f for f in files if f.endswith(".partial")]


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_full_disk_as_the_field_index_is_written_names_it(tmp_path):
    """fields.pvd is rewritten through fields.pvd.partial: the error of its flush named
    no file ('cannot write the results'); the index already there stays."""
    index = FieldIndex(tmp_path / "fields.pvd", interval=0.0)  # written at every frame
    index.add(0.0)
    before = (tmp_path / "fields.pvd").read_text()
    (tmp_path / "fields.pvd.partial").symlink_to("/dev/full")
    with pytest.raises(OSError, match="No space left on device") as info:
        index.add(0.1)
    assert info.value.filename == str(tmp_path / "fields.pvd")
    assert (tmp_path / "fields.pvd").read_text() == before
    assert not (tmp_path / "fields.pvd.partial").is_symlink()


def test_an_error_that_is_not_the_disks_leaves_the_fields_whole(tmp_path, monkeypatch):
    """Only a full disk abandons the field writer: another OSError met mid-run (a closed
    pipe in a script, say) closes fields.h5 whole, readable as a killed run's is not
    (abandoning it there left 11,800 of its 13,592 bytes and an unreadable file)."""
    import dolfinx_solver  # noqa: F401  (before dolfinx)
    from dolfinx import io
    from mpi4py import MPI

    import rocking_contact as rc
    from rocking_contact.fem import output

    row = output.RunOutput._row

    def broken_after_40_rows(self, problem):
        if self.count >= 40:
            raise BrokenPipeError(32, "Broken pipe")
        return row(self, problem)

    monkeypatch.setattr(output.RunOutput, "_row", broken_after_40_rows)
    case = rc.load_case("sdnv105d", {"time.end": 0.02})
    with pytest.raises(BrokenPipeError):
        rc.run(case, out=tmp_path / "s", quiet=True, plots=False)
    with io.XDMFFile(MPI.COMM_SELF, str(tmp_path / "s" / "fields.xdmf"), "r") as fields:
        mesh = fields.read_mesh(name="mesh")
    assert mesh.topology.index_map(2).size_global > 0
