"""Fields for ParaView and pyvista: ``fields.pvd`` (+ ``.vtu``) and ``fields.xdmf``.

Point data, one time step per written state:

- ``u``: displacement (m), the solution's own Lagrange space;
- ``von_mises``, ``sigma_yy``: Cauchy stress measures (Pa), L2-projected on the scalar
  Lagrange space of the same degree (stresses are discontinuous between cells; the
  projection is the smooth field closest to them in the mean-square sense). The projection
  undershoots near steep stress gradients; von Mises, a norm, is clipped at 0.

The files are written collectively by all ranks (VTK writes one piece per rank and a
``.pvtu`` index). XDMF stores the fields on the mesh's geometry nodes.

A run stopped by a write error of the disk abandons its writer (:meth:`FieldWriter.abandon`,
called by the block runner):
closing ``fields.h5`` flushes what HDF5 holds of it, which fails on that disk too, and a
close that fails is tried again as the process ends, by DOLFINx's destructor or HDF5's
own exit, which abort the process (``terminate called ... Failed to close HDF5 file``,
exit code 134, after a hundred lines of ``HDF5-DIAG``).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np
import ufl
from dolfinx import fem, io, la
from dolfinx.fem import petsc as fem_petsc
from petsc4py import PETSc

from rocking_contact.fem.body import ElasticBody
from rocking_contact.fem.materials import von_mises_plane
from rocking_contact.fem.petsc import assemble_vector_into

VTK_FILE, XDMF_FILE = "fields.pvd", "fields.xdmf"


class FieldWriter:
    """Writes displacement and stress fields of successive states.

    Args:
        body: the bodies; its evaluation point is used to compute stresses.
        directory: results directory (created by rank 0 if needed).
        xdmf: also write ``fields.xdmf``.
        prefix: PETSc options prefix of the projection solver.

    """

    def __init__(self, body: ElasticBody, directory: Path, *, xdmf: bool = True,
                 prefix: str = "fields_"):
        self.body = body
        comm = body.comm
        # absolute: DOLFINx's VTKFile writes its .pvd again when Python collects it, closed
        # or not, relative to the working directory of that moment (after a test's chdir is
        # undone, a relative one leaves a stray stopped/fields.pvd in the checkout)
        directory = Path(directory).resolve()
        if comm.rank == 0:
            directory.mkdir(parents=True, exist_ok=True)
        comm.barrier()
        mesh = body.V.mesh
        scalar = fem.functionspace(mesh, ("Lagrange", body.degree))
        self.u = fem.Function(body.V, name="u")
        self.von_mises = fem.Function(scalar, name="von_mises")
        self.sigma_yy = fem.Function(scalar, name="sigma_yy")
        q, p = ufl.TestFunction(scalar), ufl.TrialFunction(scalar)
        dx = ufl.dx(domain=mesh)
        self._mass = fem_petsc.assemble_matrix(fem.form(p * q * dx))
        self._mass.assemble()
        stress = body.kinematics.cauchy_stress()
        self._rhs = [(self.von_mises, fem.form(von_mises_plane(stress) * q * dx)),
                     (self.sigma_yy, fem.form(stress[1, 1] * q * dx))]
        # ghosted: DOLFINx assembles into the local form, ghosts included
        self._b = la.petsc.create_vector([(scalar.dofmap.index_map, 1)])
        self._ksp = PETSc.KSP().create(comm)
        self._ksp.setOptionsPrefix(prefix)
        self._ksp.setOperators(self._mass)
        self._ksp.setType("cg")
        self._ksp.getPC().setType("jacobi")
        self._ksp.setTolerances(rtol=1e-12, atol=0.0, max_it=1000)
        self._vtk = io.VTKFile(comm, str(directory / VTK_FILE), "w")
        self._xdmf: Any = None
        #: the XDMF file's heavy data, which DOLFINx names after it
        self._h5 = (directory / XDMF_FILE).with_suffix(".h5").resolve()
        self._closed = False
        if xdmf:
            self._xdmf = io.XDMFFile(comm, str(directory / XDMF_FILE), "w")
            self._xdmf.write_mesh(mesh)

    def write(self, t: float, u: np.ndarray) -> None:
        """Write the state with displacement ``u`` (local array) at time ``t`` (s)."""
        self.body.set_point(u, None)
        self.u.x.array[:] = u
        for target, form in self._rhs:
            assemble_vector_into(form, self._b)
            self._ksp.solve(self._b, target.x.petsc_vec)
            target.x.scatter_forward()
        np.maximum(self.von_mises.x.array, 0.0, out=self.von_mises.x.array)
        self._vtk.write_function([self.u, self.von_mises, self.sigma_yy], t)
        if self._xdmf is not None:
            for f in (self.u, self.von_mises, self.sigma_yy):
                self._xdmf.write_function(f, t)

    def close(self) -> None:
        """Close the files."""
        self._closed = True
        self._vtk.close()
        if self._xdmf is not None:
            self._xdmf.close()
        self._destroy()

    def abandon(self) -> None:
        """Close the files of a run stopped by a write error (a full disk) without what
        HDF5 still holds of ``fields.h5``: its writes go to an anonymous file, so the
        close succeeds once, and ``fields.h5`` stays as it was on disk (as a killed run's).
        An error of the close (``fields.pvd`` that DOLFINx writes then) is dropped: the
        run's own is the one to say. On one rank only: under MPI the close is collective,
        the other ranks are elsewhere, and the rank ends every rank (``MPI_Abort``)."""
        if self.body.comm.size > 1 or self._closed:
            return
        self._closed = True
        if self._xdmf is not None:
            _writes_dropped(self._h5)
        for file in (self._vtk, self._xdmf):
            try:
                if file is not None:
                    file.close()
            except RuntimeError:
                pass
        self._destroy()

    def _destroy(self) -> None:
        self._ksp.destroy()
        self._mass.destroy()
        self._b.destroy()


def _writes_dropped(path: Path) -> None:
    """The process's open descriptors of ``path`` write into an anonymous file from now on
    (Linux: ``/proc/self/fd``, ``memfd_create``; elsewhere nothing changes)."""
    fds = Path("/proc/self/fd")
    if not fds.is_dir() or not hasattr(os, "memfd_create"):
        return
    target = str(path)
    sink = os.memfd_create("abandoned-fields.h5")
    try:
        for fd in fds.iterdir():
            try:
                if os.path.realpath(fd) == target:
                    os.dup2(sink, int(fd.name))
            except OSError:  # a descriptor closed meanwhile (the listing's own)
                continue
    finally:
        os.close(sink)
