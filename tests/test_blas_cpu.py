"""The CPU a run records with its OpenBLAS kernels (rocking_contact.blas.cpu_model): the same
kernels on two CPU models give other numbers from SDNV105 A's fourth collision on."""

import json
import subprocess
import sys

import pytest

import rocking_contact as rc
from rocking_contact import blas
from rocking_contact.provenance import stack_versions
from rocking_contact.report.provenance import stack_note

INTEL = """processor\t: 0
vendor_id\t: GenuineIntel
cpu family\t: 6
model\t\t: 167
model name\t: Intel(R) Xeon(R) Processor
flags\t\t: fpu sse4_2 avx avx2 avx512f avx512bw

processor\t: 1
vendor_id\t: GenuineIntel
cpu family\t: 6
model\t\t: 167
model name\t: Intel(R) Xeon(R) Processor
flags\t\t: fpu sse4_2 avx avx2 avx512f avx512bw
"""

EPYC_AVX2 = """processor\t: 0
vendor_id\t: AuthenticAMD
cpu family\t: 23
model\t\t: 49
model name\t: AMD EPYC 7R32
flags\t\t: fpu sse4_2 avx avx2 fma
"""

ARM = """processor\t: 0
BogoMIPS\t: 243.75
Features\t: fp asimd evtstrm aes
CPU implementer\t: 0x41
"""


def _cpuinfo(tmp_path, text):
    path = tmp_path / "cpuinfo"
    path.write_text(text)
    return path


def test_the_model_its_numbers_and_its_widest_vector_instructions_are_named(tmp_path):
    assert blas.cpu_model(_cpuinfo(tmp_path, INTEL)) == (
        "Intel(R) Xeon(R) Processor (family 6, model 167; AVX-512)")
    assert blas.cpu_model(_cpuinfo(tmp_path, EPYC_AVX2)) == (
        "AMD EPYC 7R32 (family 23, model 49; AVX2)")
    older = EPYC_AVX2.replace(" avx2", "").replace("AMD EPYC 7R32", "AMD Opteron")
    assert blas.cpu_model(_cpuinfo(tmp_path, older)) == "AMD Opteron (family 23, model 49; no AVX2)"


def test_a_cpu_without_x86_flags_or_without_cpuinfo_gives_what_platform_says(tmp_path,
                                                                             monkeypatch):
    monkeypatch.setattr(blas.platform, "processor", lambda: "aarch64")
    assert blas.cpu_model(_cpuinfo(tmp_path, ARM)) == "aarch64"
    assert blas.cpu_model(tmp_path / "absent") == "aarch64"
    monkeypatch.setattr(blas.platform, "processor", lambda: "")
    assert blas.cpu_model(tmp_path / "absent") == "unknown"


def test_the_stack_of_a_run_and_of_the_report_names_the_cpu(tmp_path):
    rows = dict(stack_versions(load_libraries=False))
    assert rows["CPU"] == blas.cpu_model()
    assert list(rows).index("CPU") == list(rows).index("OpenBLAS kernels") - 1
    case = rc.load_case("sdnd101a", {"time.end": 0.01})
    rc.run(case, out=tmp_path / "run", plots=False, quiet=True)
    stack = json.loads((tmp_path / "run" / "results.json").read_text())["stack"]
    assert stack["CPU"] == blas.cpu_model()
    # the report names a run computed on another CPU, kernels alike
    other = {**rows, "CPU": "AMD EPYC 7R32 (family 23, model 49; AVX2)"}
    assert stack_note(other, rows) == ("Stack: the run was computed with another stack: CPU "
                                       f"AMD EPYC 7R32 (family 23, model 49; AVX2) (report: "
                                       f"{rows['CPU']}).")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/maps")
def test_naming_the_cpu_loads_no_library():
    code = ("import sys\n"
            "from rocking_contact.blas import _loaded_openblas, cpu_model\n"
            "before = set(sys.modules), _loaded_openblas()\n"
            "print(cpu_model())\n"
            "assert (set(sys.modules), _loaded_openblas()) == before\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == blas.cpu_model()
