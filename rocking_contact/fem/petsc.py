"""PETSc assembly of DOLFINx forms without DOLFINx's Python dispatch: a vector
(:func:`assemble_vector_into`) and a matrix (:func:`assemble_matrix_into`), the latter into
the shared values of a :func:`shared_matrix` (the same sums, bit for bit)."""

from __future__ import annotations

from typing import Any

from dolfinx import cpp, fem, la
from dolfinx.fem import petsc as fem_petsc
from petsc4py import PETSc


def _accumulate(vec: PETSc.Vec) -> None:
    vec.ghostUpdate(addv=PETSc.InsertMode.ADD, mode=PETSc.ScatterMode.REVERSE)
    vec.ghostUpdate(addv=PETSc.InsertMode.INSERT, mode=PETSc.ScatterMode.FORWARD)


def assemble_vector_into(form: Any, out: PETSc.Vec) -> None:
    """Assemble a linear form into ``out`` (zeroed first), owned and ghost values final.

    DOLFINx's C++ assembler is called as ``fem.petsc.assemble_vector`` calls it, with the
    constants and coefficients packed as it packs them: the same sums, without its Python
    dispatch (10.7 -> 8.3 us a large-rotation force on the 25-node SDNV105 mesh, assembled
    about five times a step)."""
    cpp_form = form._cpp_object
    with out.localForm() as local:
        local.set(0.0)
        cpp.fem.assemble_vector(local.array_w, cpp_form, cpp.fem.pack_constants(cpp_form),
                                cpp.fem.pack_coefficients(cpp_form))
    _accumulate(out)


#: the PETSc attribute under which :func:`shared_matrix` keeps its DOLFINx CSR matrix
CSR_ATTRIBUTE = "rocking_contact_csr"
#: and the array of its values (``csr.data``: each fetch of that property is a Python call
#: into DOLFINx, twice an assembly, four assemblies a step)
VALUES_ATTRIBUTE = "rocking_contact_csr_values"


def shared_matrix(form: Any, like: PETSc.Mat) -> PETSc.Mat:
    """A zero one-process AIJ matrix of ``form``'s pattern (that of ``like``, with its sizes
    and block size) whose values are the array of a DOLFINx CSR matrix: no copy either way.

    :func:`assemble_matrix_into` assembles such a matrix through DOLFINx's own CSR
    insertion, which adds each cell's contributions to the same entries in the same order
    as PETSc's ``MatSetValuesLocal`` (the same sums, bit for bit) at two thirds of its
    cost: 0.60 ms against 0.89 ms for the large-rotation tangent of the 1928-dof SDNV105
    mesh, whose steps build it about four times each. PETSc shares the arrays of a
    sequential matrix only (``MatCreateSeqAIJWithArrays``); the caller keeps ``like``'s
    copy on more processes. Its pattern must stay: a ``zeroRows`` on it keeps it
    (``MAT_KEEP_NONZERO_PATTERN``) or the next assembly refuses.
    """
    # dolfinx.la imports BlockMode from its C++ module, which mypy cannot see
    expanded = la.BlockMode.expanded  # type: ignore[attr-defined]
    csr = fem.create_matrix(form, block_mode=expanded)
    rows = csr.indptr.astype(PETSc.IntType)
    columns = csr.indices.astype(PETSc.IntType)
    out = PETSc.Mat().createAIJWithArrays(like.getSizes(), (rows, columns, csr.data),
                                          comm=like.getComm())
    # MUMPS orders a matrix by its blocks: without them (the constructor drops its bsize
    # argument) its factors and solutions differ in their last bits
    out.setBlockSize(like.getBlockSize())
    # the CSR matrix lives as long as the PETSc one (petsc4py keeps the arrays it is given)
    out.setAttr(CSR_ATTRIBUTE, csr)
    out.setAttr(VALUES_ATTRIBUTE, csr.data)
    return out


def assemble_matrix_into(form: Any, out: PETSc.Mat) -> None:
    """Assemble a bilinear form into ``out`` (zeroed first), without boundary conditions;
    into the values of a :func:`shared_matrix` through its CSR matrix."""
    csr = out.getAttr(CSR_ATTRIBUTE)
    if csr is None:
        out.zeroEntries()
        fem_petsc.assemble_matrix(out, form)
    else:
        # PETSc shares the values alone: a pattern it compressed (zeroRows without
        # KEEP_NONZERO_PATTERN) would take them in DOLFINx's layout, wrong and unsaid
        values = out.getAttr(VALUES_ATTRIBUTE)
        if out.getInfo()["nz_used"] != values.size:
            raise RuntimeError("the matrix's nonzero pattern changed since shared_matrix "
                               "made it (zeroRows without MAT_KEEP_NONZERO_PATTERN?): its "
                               "values are no longer the CSR matrix's")
        values[:] = 0.0
        # the C++ call of fem.assemble_matrix without boundary conditions (whose diagonal
        # insertion is then empty), without its Python dispatch
        cpp_form = form._cpp_object
        cpp.fem.assemble_matrix(csr._cpp_object, cpp_form, cpp.fem.pack_constants(cpp_form),
                                cpp.fem.pack_coefficients(cpp_form), [])
    out.assemble()  # also tells PETSc the values changed: a factorisation is redone
