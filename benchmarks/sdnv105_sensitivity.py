"""How much SDNV105 A and C move under perturbations far below any physical significance
(a benchmark script, not a test): the release tilt changed by 1e-6 to 1e-2 relative, the
release window's step halved. Prints the "Sensitivity" table of docs/contact.md.

Usage: python benchmarks/sdnv105_sensitivity.py
"""

from __future__ import annotations

from sdnv105_contact import run

#: (row label, case, overrides)
RUNS = [
    ("A, tilt 0.01 (shipped)", "a", {}),
    ("A, tilt 0.01000001", "a", {"preload.tilt": 0.01000001}),
    ("A, tilt 0.009999", "a", {"preload.tilt": 0.009999}),
    ("A, tilt 0.010001", "a", {"preload.tilt": 0.010001}),
    ("C, tilt 0.009999", "c", {"preload.tilt": 0.009999}),
    ("A, release window step 5 us", "a", {"time.window[0].step": 5e-6}),
]


def main() -> None:
    print("| run | t2 | t3 | t4 | t5 (s) | E2 | E3 | E4 | E5 (J) | percussion at A (N.s) "
          "| steps (refined) | wall (s) |")
    print("|---" * 12 + "|")
    for label, name, overrides in RUNS:
        r = run(name, f"sdnv105{name}", overrides)
        found = {c["index"]: c for c in r["collisions"]}
        t = " | ".join(f"{found[k]['time']:.5f}" if k in found else "—" for k in range(2, 6))
        e = " | ".join(f"{found[k]['kinetic_energy']:.4f}" if k in found else "—"
                       for k in range(2, 6))
        tm = r["timing"]
        print(f"| {label} | {t} | {e} | {r['quantities'].get('percussion_RN_A', float('nan')):.2f}"
              f" | {tm['steps']} ({tm.get('refined_steps', 0)}) | {tm['wall_s']:.1f} |",
              flush=True)


if __name__ == "__main__":
    main()
