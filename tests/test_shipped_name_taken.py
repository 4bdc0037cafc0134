"""A copy of a shipped case file, edited and run under its shipped [case] name without
--out, wrote into results/<name>/ where the shipped run is, and the report took it for
that run (RV3: a copy of sdnv105_rigid.toml at angle 0.02 replaced 79/79 with 7/79,
unsaid): the run says so."""

import shutil
import subprocess
import sys

import rocking_contact as rc
from rocking_contact.commands.run import shipped_name_taken
from rocking_contact.config import shipped_cases


def test_a_copy_under_its_shipped_name_is_told(tmp_path):
    copy = tmp_path / "sdnv105_rigid.toml"
    shutil.copyfile(shipped_cases()["sdnv105_rigid"], copy)
    said = shipped_name_taken(rc.load_case(str(copy)))
    assert said is not None and said.startswith(
        f"sdnv105_rigid: {copy} is not the shipped sdnv105_rigid but has its [case] name")
    assert shipped_name_taken(rc.load_case("sdnv105_rigid")) is None
    done = subprocess.run([sys.executable, "-m", "rocking_contact.cli", "rigid", str(copy),
                           "--quiet", "--no-plots", "--set", "time.end=0.01"],
                          cwd=tmp_path, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert f"warning: {said}" in done.stderr.splitlines()
    # given an --out, the user chose where it goes
    done = subprocess.run([sys.executable, "-m", "rocking_contact.cli", "rigid", str(copy),
                           "--quiet", "--no-plots", "--set", "time.end=0.01", "--out",
                           str(tmp_path / "mine")], cwd=tmp_path, capture_output=True,
                          text=True, check=False)
    assert "is not the shipped" not in done.stderr
