"""A discrete run compiles its numba kernels (or loads them from the cache) before its clock
starts: ``timing.wall_s`` is the run's own work and ``timing.compile_s`` the compilation."""

import json
import subprocess
import sys

#: every scheme, friction law and space whose kernels a run compiles: (case, overrides)
RUNS = [("sdnd100a", []), ("sdnd100a_exact", ["solver.space=physical"]),
        ("sdnd101a", ["solver.scheme=newmark", "output.every=10"]),
        ("sdnd102c", ["solver.scheme=hht", "solver.alpha=-0.05"])]

#: run in a fresh interpreter, where nothing is compiled yet: the signatures each numba
#: dispatcher of the kernels gains while the clock runs (after compile_kernels)
SCRIPT = """
import json, sys, time
from numba.core.registry import CPUDispatcher
import rocking_contact as rc
from rocking_contact.discrete import (central_difference, newmark, recording, runner, shock,
                                      stepping)

def signatures():
    return {f"{m.__name__}.{k}": set(map(str, v.overloads))
            for m in (central_difference, newmark, recording, shock, stepping)
            for k, v in vars(m).items() if isinstance(v, CPUDispatcher)}

compiled = {}
warm_up = runner.compile_kernels
def spied(case, system, progress=None):
    seconds = warm_up(case, system, progress)
    compiled.update(signatures())
    return seconds
runner.compile_kernels = spied
out = []
for name, overrides in json.loads(sys.argv[1]):
    started = time.perf_counter()
    result = runner.run(rc.load_case(name, overrides))
    total = time.perf_counter() - started
    gained = {k: sorted(v - compiled[k]) for k, v in signatures().items() if v - compiled[k]}
    out.append({"total": total, "timing": result.timing, "gained": gained})
print(json.dumps(out))
"""


def test_the_clock_starts_after_the_kernels_are_compiled():
    done = subprocess.run([sys.executable, "-c", SCRIPT, json.dumps(RUNS)], check=True,
                          capture_output=True, text=True)
    for (name, overrides), run in zip(RUNS, json.loads(done.stdout.splitlines()[-1]),
                                      strict=True):
        assert run["gained"] == {}, (name, overrides, run["gained"])
        timing = run["timing"]
        assert 0.0 < timing["wall_s"] and 0.0 <= timing["compile_s"]
        assert timing["wall_s"] + timing["compile_s"] <= run["total"]
    # the first run of the process loads or compiles central differences' kernels
    assert json.loads(done.stdout.splitlines()[-1])[0]["timing"]["compile_s"] > 0.0
