"""``rocking-contact mesh --out`` as ``run --out``: missing directories are made, silently
(the first line names the file written, as run's summary names its directory); a mesh not
written leaves nothing behind. A Ctrl-C while Gmsh wrote a fine mesh left 58 MB of a file
cut in its elements, and the directories made for it; now the file is written beside its
place and renamed once whole, and the directories made are removed."""

from pathlib import Path

import pytest

from rocking_contact.cli import main


def test_missing_directories_are_made_as_for_a_run(tmp_path, capsys):
    out = tmp_path / "some" / "new" / "dir" / "x.msh"
    assert main(["mesh", "--out", str(out)]) == 0
    said = capsys.readouterr()
    assert said.out.splitlines()[0].startswith(f"{out}: ") and said.err == ""
    assert out.read_text().startswith("$MeshFormat\n4.1")
    assert [p.name for p in out.parent.iterdir()] == ["x.msh"]  # no part file left


def _stopped_while_writing(monkeypatch, stop):
    """Gmsh's writer that writes half a mesh, then meets ``stop``."""
    from rocking_contact.geometry import gmsh_model

    def half(path: Path) -> None:
        path.write_text("$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Nodes\n")
        raise stop

    monkeypatch.setattr(gmsh_model, "write_msh", half)


@pytest.mark.parametrize("stop, code", [(KeyboardInterrupt(), 130),
                                        (Exception("Could not open file"), 2)],
                         ids=["ctrl-c", "gmsh error"])
def test_a_mesh_not_written_leaves_no_directory_nor_part(tmp_path, monkeypatch, capsys,
                                                         stop, code):
    _stopped_while_writing(monkeypatch, stop)
    out = tmp_path / "some" / "new" / "x.msh"
    assert main(["mesh", "--out", str(out)]) == code
    assert list(tmp_path.iterdir()) == []
    err = capsys.readouterr().err
    assert err.splitlines() == (["interrupted"] if code == 130 else [
        f"error: --out: Gmsh cannot write {out}: Could not open file"])


def test_a_mesh_not_written_keeps_the_file_there_before(tmp_path, monkeypatch):
    out = tmp_path / "x.msh"
    assert main(["mesh", "--out", str(out)]) == 0
    before = out.read_bytes()
    _stopped_while_writing(monkeypatch, KeyboardInterrupt())
    assert main(["mesh", "--set", "mesh.order=2", "--out", str(out)]) == 130
    assert out.read_bytes() == before and [p.name for p in tmp_path.iterdir()] == ["x.msh"]
