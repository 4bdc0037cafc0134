"""F3 #6: a block run on the coarse SDNV105 mesh under ``mpiexec -n 2`` was slower than on
one rank (sdnv105d to 0.05 s on a loaded 2-core machine: 6.6 to 15 s on 1 rank, 25 to 118 s
on 2), and the 25-node mesh gains nothing on an idle one (README): ``run`` and ``sweep``
say once, after their runs, that the mesh has few dofs per rank and that fewer ranks may
be faster (a sweep said nothing: its two runs of sdnv105d to 0.06 s took 6.9 s on one rank,
56 s on two, session 37)."""

import argparse
from types import SimpleNamespace

import pytest
from test_mpi_tools import under_mpiexec

from rocking_contact import cli, interrupt

NOTE = ("note: sdnv105d: its mesh has 50 dofs, 25 per rank on 2 ranks: so few that the "
        "ranks wait for each other more than they compute; fewer ranks may be faster")


@pytest.mark.mpi
def test_a_coarse_block_run_on_two_ranks_says_it_once(tmp_path):
    code, out, err = under_mpiexec(tmp_path, "run", "sdnv105d", "--set", "time.end=0.001",
                                   "--quiet", "--no-plots", "--out", "r")
    assert code == 0, err
    assert [line for line in err.splitlines() if line.startswith("note: ")] == [NOTE], err


def _note(monkeypatch, capsys, case, size=2, rank=0, *overrides):
    monkeypatch.setattr(interrupt, "world", lambda: SimpleNamespace(size=size, rank=rank))
    cli._few_dofs_note(argparse.Namespace(command="run", case=case, overrides=list(overrides)))
    return capsys.readouterr().err


def test_only_a_run_with_few_dofs_per_rank_says_it(monkeypatch, capsys):
    assert _note(monkeypatch, capsys, "sdnv105d") == NOTE + "\n"
    assert _note(monkeypatch, capsys, "sdnv105d", 3).startswith(
        "note: sdnv105d: its mesh has 50 dofs, 17 per rank on 3 ranks: ")
    # the 0.02 m mesh, 1928 dofs, ran 1.2 times faster on 2 idle ranks (README)
    assert _note(monkeypatch, capsys, "sdnv105d_fine") == ""
    assert _note(monkeypatch, capsys, "sdnv105d", 2, 0, "mesh.layout=structured",
                 "mesh.element_size=0.02") == ""
    assert _note(monkeypatch, capsys, "sdnv105d", 1) == ""      # one rank
    assert _note(monkeypatch, capsys, "sdnv105d", 2, 1) == ""   # rank 0 says it
    assert _note(monkeypatch, capsys, "sdnd101a") == ""         # no mesh
    assert _note(monkeypatch, capsys, "sdnv105_rigid") == ""


def _sweep_note(monkeypatch, capsys, *sets, rigid=False):
    monkeypatch.setattr(interrupt, "world", lambda: SimpleNamespace(size=2, rank=0))
    cli._few_dofs_note(argparse.Namespace(command="sweep", case="sdnv105d", overrides=list(sets),
                                          rigid=rigid))
    return capsys.readouterr().err


def test_a_sweep_says_it_of_its_largest_mesh(monkeypatch, capsys):
    assert _sweep_note(monkeypatch, capsys, "contact.mu=0.3,0.9") == NOTE + "\n"
    # 38 and 50 dofs: the largest is said
    largest = NOTE.replace("its mesh", "its largest mesh")
    assert _sweep_note(monkeypatch, capsys, "mesh.layout=structured",
                       "mesh.element_size=0.4,0.2") == largest + "\n"
    # 50 and 1928 dofs: the finer runs gain from the second rank
    assert _sweep_note(monkeypatch, capsys, "mesh.layout=structured",
                       "mesh.element_size=0.2,0.02") == ""
    assert _sweep_note(monkeypatch, capsys, "contact.mu=0.3,0.9", rigid=True) == ""  # no mesh
    assert _sweep_note(monkeypatch, capsys, "contact.mu=-1,0.9") == ""  # refused: no run
