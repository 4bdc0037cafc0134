"""``rocking-contact mesh``: write the block-on-table mesh for inspection.

Examples::

    rocking-contact mesh --out sdnv105.msh                       # defaults (structured)
    rocking-contact mesh --set mesh.layout=aster --out aster.msh
    rocking-contact mesh sdnv105_preload --set mesh.order=2 --out q2.msh

Gmsh is imported only when the command runs (``--help`` stays fast).
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rocking_contact.block import Geometry
from rocking_contact.config import CaseError, param
from rocking_contact.geometry.layout import MeshSpec, check_size, size_warning
from rocking_contact.options import (
    add_case_argument,
    add_set_option,
    case_argument,
    file_argument,
)
from rocking_contact.out_paths import check_file, missing_dirs, remove_made


@dataclass(kw_only=True)
class MeshInput:
    """What a mesh needs: ``[geometry]`` and ``[mesh]`` (the rest of a case is ignored)."""

    geometry: Geometry = param(default_factory=Geometry)
    mesh: MeshSpec = param(default_factory=MeshSpec)

    def validate(self) -> None:
        check_size(self.geometry, self.mesh)  # a typo in element_size would mesh for hours


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``rocking-contact mesh``."""
    spec = MeshSpec()
    size = f" {spec.element_size:g} m" if spec.layout == "structured" else ""
    add_case_argument(parser, "take [geometry] and [mesh] from this case (shipped name or "
                              "TOML file); default: the keys' defaults, SDNV105's block and "
                              f"table on a {spec.layout}{size} {spec.cell} mesh (the shipped "
                              "cases' coarse Code_Aster mesh: --set mesh.layout=aster)")
    add_set_option(parser, "override geometry.* or mesh.* (repeatable, a key once)")
    parser.add_argument("--out", type=file_argument, required=True,
                        help="output file, ending in .msh (MSH 4.1); a name without a "
                             "suffix gets .msh, any other suffix is refused")


def load_input(case: str | None, overrides: list[str]) -> MeshInput:
    """The geometry and mesh sections of a case (or the defaults), overrides applied.

    A case is loaded as ``run`` loads it (:func:`~rocking_contact.config.load_case`), so a
    value is refused with the same line: a setting its layout does not read, a mesh too
    large, in the file that holds it.
    """
    from rocking_contact.config import (
        apply_overrides,
        build,
        key_path,
        load_case,
        unread_override,
    )

    for text in overrides:
        key = text.partition("=")[0]
        if key_path(key)[0] not in ("geometry", "mesh"):
            raise CaseError("--set", key, "not a key of the mesh (allowed: geometry.*, mesh.*)")
    if case is None:
        data: dict[str, Any] = {}
        apply_overrides(data, overrides, schema=MeshInput)
        spec = build(MeshInput, data, file="--set")
        unread = unread_override(spec, [text.partition("=")[0] for text in overrides])
        if unread is not None:
            raise CaseError("--set", *unread)
        return spec
    loaded = load_case(case, overrides)
    if loaded.case.kind != "block":  # a discrete or rigid case has no mesh: say so
        raise CaseError(str(loaded.source_file), "case.kind", f"got {loaded.case.kind!r}, "
                        "allowed: 'block' (a case with a finite-element block to mesh)")
    return MeshInput(geometry=loaded.geometry, mesh=loaded.mesh)


def main(args: argparse.Namespace) -> int:
    """Build the mesh, write it, print a one-line summary per group.

    The directories of ``--out`` are made if missing, silently, as ``run --out`` makes
    its results directory (the first line names the file written). A mesh not written (a
    Ctrl-C while meshing or writing, Gmsh's error) leaves nothing: neither the directories
    made for it, as ``run`` refused as it sets up, nor a part of the file, and a file there
    before is kept (otherwise a Ctrl-C while Gmsh writes 0.0007 m cells leaves 58 MB of a
    file cut in its elements, and the empty directories)."""
    spec = load_input(case_argument(args), args.overrides)
    made = missing_dirs(args.out.parent)
    # Gmsh picks the format by the suffix, and only .msh is read back
    out = check_file("--out", args.out, "a .msh", (".msh",))
    try:
        return _write(spec, out)
    except BaseException:
        remove_made(made)
        raise


def _write(spec: MeshInput, out: Path) -> int:
    """Mesh ``spec``, write it to ``out`` whole (:func:`_write_whole`), print the summary."""
    from rocking_contact.geometry.gmsh_model import build_model, session

    coarse = size_warning(spec.geometry, spec.mesh)
    if coarse:
        print(f"warning: {coarse}", file=sys.stderr)
    with session() as gmsh:
        tags = build_model(spec.geometry, spec.mesh)
        _write_whole(out)
        n_nodes = len(gmsh.model.mesh.getNodes()[0])
        n_cells = sum(len(t) for t in gmsh.model.mesh.getElements(2)[1])
        print(f"{out}: {n_nodes} nodes, {n_cells} cells "
              f"({spec.mesh.layout}, {spec.mesh.cell}, order {spec.mesh.order})")
        for name, tag in tags.items():
            dim = next(d for d, t in gmsh.model.getPhysicalGroups() if t == tag
                       and gmsh.model.getPhysicalName(d, t) == name)
            nodes = gmsh.model.mesh.getNodesForPhysicalGroup(dim, tag)[0]
            kind = {0: "point", 1: "curve", 2: "region"}[dim]
            print(f"  {name:<9} {kind:<6} {len(nodes):>7} node{'' if len(nodes) == 1 else 's'}")
    return 0


def _write_whole(out: Path) -> None:
    """Write the current Gmsh model to ``out`` through a file beside it, renamed into
    place once whole: a write that fails or is stopped leaves no part of a mesh, and the
    file there before stays."""
    from rocking_contact.geometry.gmsh_model import write_msh

    # hidden, this process's own, and a .msh: Gmsh picks the format by the suffix
    part = out.with_name(f".{out.stem}.{os.getpid()}.part.msh")
    try:
        write_msh(part)
        os.replace(part, out)
    except Exception as exc:  # noqa: BLE001  (Gmsh raises a bare Exception with its reason)
        raise CaseError("--out", "", f"Gmsh cannot write {out}: {exc}") from None
    finally:
        part.unlink(missing_ok=True)
