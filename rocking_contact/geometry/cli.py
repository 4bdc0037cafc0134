"""``rocking-contact mesh``: write the block-on-table mesh for inspection.

Examples::

    rocking-contact mesh --out sdnv105.msh                       # defaults (structured)
    rocking-contact mesh --set mesh.layout=aster --out aster.msh
    rocking-contact mesh sdnv105_preload --set mesh.order=2 --out q2.msh

Gmsh is imported only when the command runs (``--help`` stays fast).
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rocking_contact.block import Geometry
from rocking_contact.config import param
from rocking_contact.geometry.layout import MeshSpec


@dataclass(kw_only=True)
class MeshInput:
    """What a mesh needs: ``[geometry]`` and ``[mesh]`` (the rest of a case is ignored)."""

    geometry: Geometry = param(default_factory=Geometry)
    mesh: MeshSpec = param(default_factory=MeshSpec)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``rocking-contact mesh``."""
    parser.add_argument("case", nargs="?", help="take [geometry] and [mesh] from this case "
                        "(shipped name or TOML file); default: SDNV105 values")
    parser.add_argument("--case", dest="case_option", metavar="CASE",
                        help="the same, as an option")
    parser.add_argument("--set", dest="overrides", action="append", default=[],
                        metavar="SECTION.KEY=VALUE",
                        help="override geometry.* or mesh.* (repeatable)")
    parser.add_argument("--out", type=Path, required=True, help="output .msh file")


def load_input(case: str | None, overrides: list[str]) -> MeshInput:
    """The geometry and mesh sections of a case (or the defaults), overrides applied."""
    from rocking_contact.config import (
        CaseError,
        apply_overrides,
        build,
        read_case_data,
        resolve_case_path,
    )

    data: dict[str, Any] = {}
    file = "--set"
    if case is not None:
        path = resolve_case_path(case)
        full = read_case_data(path)
        kind = full.get("case", {}).get("kind")
        if kind != "block":  # a discrete or rigid case has no mesh: say so, do not mesh defaults
            raise CaseError(str(path), "case.kind", f"got {kind!r}, allowed: 'block' (a case "
                            "with a finite-element block to mesh)")
        data = {k: full[k] for k in ("geometry", "mesh") if k in full}
        file = str(path)
    try:
        apply_overrides(data, overrides)
    except CaseError as exc:
        where = f"{file} (with --set)" if case is not None else file
        raise CaseError(where, exc.key, exc.problem) from None
    return build(MeshInput, data, file=file)


def main(args: argparse.Namespace) -> int:
    """Build the mesh, write it, print a one-line summary per group."""
    from rocking_contact.geometry.gmsh_model import build_model, session, write_msh

    if args.case is not None and args.case_option is not None:
        from rocking_contact.config import CaseError

        raise CaseError("--case", "", f"{args.case_option!r} given beside the case "
                        f"{args.case!r} (allowed: one of them)")
    spec = load_input(args.case or args.case_option, args.overrides)
    with session() as gmsh:
        tags = build_model(spec.geometry, spec.mesh)
        write_msh(args.out)
        n_nodes = len(gmsh.model.mesh.getNodes()[0])
        n_cells = sum(len(t) for t in gmsh.model.mesh.getElements(2)[1])
        print(f"{args.out}: {n_nodes} nodes, {n_cells} cells "
              f"({spec.mesh.layout}, {spec.mesh.cell}, order {spec.mesh.order})")
        for name, tag in tags.items():
            dim = next(d for d, t in gmsh.model.getPhysicalGroups() if t == tag
                       and gmsh.model.getPhysicalName(d, t) == name)
            nodes = gmsh.model.mesh.getNodesForPhysicalGroup(dim, tag)[0]
            kind = {0: "point", 1: "curve", 2: "region"}[dim]
            print(f"  {name:<9} {kind:<6} {len(nodes):>7} nodes")
    return 0
