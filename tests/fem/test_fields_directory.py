"""The fields' files stay in the run's directory whatever the working directory becomes."""

import gc
import os

import rocking_contact as rc
from rocking_contact.fem import runner
from rocking_contact.fem.fields import FieldWriter


def test_a_relative_out_leaves_no_fields_file_where_the_process_goes_next(tmp_path,
                                                                          monkeypatch):
    """DOLFINx's VTKFile writes its .pvd again when Python collects it, closed or not,
    relative to the working directory then: an interrupted run's writer, kept alive by its
    exception's traceback, was collected after a test had changed back to the checkout,
    and left a stray stopped/fields.pvd there."""
    kept: list[FieldWriter] = []

    class KeptWriter(FieldWriter):  # alive after the run, as a traceback keeps it
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            kept.append(self)

    monkeypatch.setattr(runner, "FieldWriter", KeptWriter)
    run_dir, elsewhere = tmp_path / "run", tmp_path / "elsewhere"
    run_dir.mkdir()
    elsewhere.mkdir()
    monkeypatch.chdir(run_dir)
    case = rc.load_case("sdnv105d", ["time.end=0.0003", "output.fields_every=1"])
    rc.run(case, out="stopped", plots=False, quiet=True)
    assert kept
    os.chdir(elsewhere)
    kept.clear()
    gc.collect()
    assert not list(elsewhere.rglob("*")), list(elsewhere.rglob("*"))
    assert (run_dir / "stopped" / "fields.pvd").exists()
