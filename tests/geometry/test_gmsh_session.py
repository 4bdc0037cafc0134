"""A Gmsh session the caller opened (a notebook's) is left as it was."""

import gmsh

from rocking_contact.cli import main


def test_a_session_the_caller_opened_keeps_its_models_and_options(tmp_path):
    """Each mesh used to add a model 'sdnv105', make it current and leave
    Geometry.AutoCoherence = 0 and General.Terminal = 0 set in the caller's session."""
    gmsh.initialize(interruptible=False)
    try:
        gmsh.model.add("mine")
        gmsh.model.geo.addPoint(0.0, 0.0, 0.0)
        gmsh.model.geo.synchronize()
        names = ("Geometry.AutoCoherence", "General.Terminal", "Mesh.MshFileVersion")
        before = (gmsh.model.list(), gmsh.model.getCurrent(),
                  [gmsh.option.getNumber(n) for n in names])
        for i in range(2):
            assert main(["mesh", "--set", "mesh.layout=structured",
                         "--out", str(tmp_path / f"{i}.msh")]) == 0
            assert (tmp_path / f"{i}.msh").is_file()
        assert (gmsh.model.list(), gmsh.model.getCurrent(),
                [gmsh.option.getNumber(n) for n in names]) == before
        assert len(gmsh.model.getEntities(0)) == 1  # the caller's point, its model current
        assert gmsh.isInitialized()
    finally:
        gmsh.finalize()
