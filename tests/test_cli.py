"""The command line: list, run (files written), validate (exit codes), failures."""

import json
import re

import pytest

from rocking_contact.cli import main
from rocking_contact.config import load_case, shipped_cases, variant_cases
from rocking_contact.results_io import read_history_csv
from rocking_contact.summary import COMPILE_SHOWN_S


def test_list_shows_every_shipped_case(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    for name in shipped_cases():
        assert name in out


def test_variants_are_listed_apart_and_load_by_name(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out.split("variants (")
    assert len(out) == 2 and "sdnv105a_fine" in out[1] and "sdnv105a_fine" not in out[0]
    assert {"sdnv105a_fine", "sdnv105a_auto", "sdnv105d_fine"} <= set(variant_cases())
    case = load_case("sdnv105a_fine")
    assert case.case.name == "sdnv105a_fine" and case.mesh.element_size == 0.02


def test_run_writes_results_history_and_plots(tmp_path, capsys):
    out = tmp_path / "r"
    assert main(["run", "sdnd101a", "--out", str(out), "--set", "time.end=0.4",
                 "--quiet"]) == 0
    data = json.loads((out / "results.json").read_text())
    for key in ("case", "parameters", "quantities", "impacts", "checks", "timing"):
        assert key in data
    assert data["parameters"]["time"]["end"] == 0.4
    assert data["timing"]["steps"] == 800 and data["timing"]["wall_s"] > 0
    assert {"quantity", "reference", "value", "rel_error", "tolerance", "source",
            "passed"} <= set(data["checks"][0])
    impact = data["impacts"][0]
    assert {"shock", "node", "index", "start", "t_max", "max_force", "duration", "impulse",
            "speed"} <= set(impact)
    history = read_history_csv(out / "history.csv")
    assert list(history)[:2] == ["time", "DX_NO1"]
    assert {"VX_NO1", "FN_NO1"} <= set(history)
    assert history["time"][-1] == pytest.approx(0.4)
    assert len(history["time"]) == 801
    assert list(out.glob("*.png"))


def test_a_run_after_a_command_in_the_same_process_records_its_own_command_line(tmp_path,
                                                                                capsys):
    """The command line's argv is the command's, not the process's: a run in-process after
    ``main([...])`` (a script, a test) recorded that command as its own argv and rerun."""
    import rocking_contact as rc

    argv = ["run", "sdnd101a", "--set", "time.end=0.01", "--out", str(tmp_path / "cli"), "-q",
            "--no-plots"]
    assert main(argv) == 0
    recorded = json.loads((tmp_path / "cli" / "results.json").read_text())["provenance"]
    assert recorded["argv"] == ["rocking-contact", *argv]
    after = rc.run(rc.load_case("sdnd101a", ["time.end=0.02"]), out=tmp_path / "api",
                   quiet=True, plots=False).provenance
    assert after["argv"] is None  # pytest's own sys.argv says nothing of the run
    assert after["rerun"].startswith("rocking-contact run sdnd101a --set time.end=0.02 ")


def test_validate_exit_codes(tmp_path, capsys):
    assert main(["validate", "sdnd101a", "--out", str(tmp_path), "-q", "--no-plots"]) == 0
    # one case: said of it (it said "all 1 case(s) pass")
    assert capsys.readouterr().out.splitlines()[-1] == "the case passes its reference checks"
    # A coarse step misses the force reference: the table says so and the exit code is 1.
    code = main(["validate", "sdnd101a", "--out", str(tmp_path), "-q", "--no-plots",
                 "--set", "time.step=2e-3"])
    out = capsys.readouterr().out
    assert code == 1 and "FAIL" in out and "FAILED: sdnd101a (2 of 12 checks failed)" in out


def test_validate_says_a_case_no_check_grades_is_not_graded_not_failed(tmp_path, capsys):
    """sdnd102c refined to dt = 1e-4 s converges to its exact solution, and its Code_Aster
    values hold only at dt = 1e-3 s: it was "FAILED: sdnd102c (no graded check)". Nothing
    is validated (exit code 1), nothing failed either."""
    code = main(["validate", "sdnd101a", "sdnd102c", "--out", str(tmp_path), "-q",
                 "--no-plots", "--set", "time.step=1e-4"])
    out = capsys.readouterr().out
    assert code == 1 and "FAILED" not in out
    assert out.splitlines()[-2:] == [
        "NOT GRADED: sdnd102c (no check applies at these settings: the value holds for a "
        "step of 0.001 s, the run's is 0.0001 s)",
        "1 of 2 cases pass their reference checks"]
    help_text = _help(capsys, "validate")
    assert "NOT GRADED" in help_text.split("exit codes:")[1]


def test_validate_calls_a_shortened_run_incomplete_as_the_report_does(tmp_path, capsys):
    """`validate sdnd101a --set time.end=0.2` said "FAILED: sdnd101a (7 of 12 checks
    failed)" when the 7 were not reached and none failed (the report: 0 failed, 7 not
    reached, INCOMPLETE). Not validated (exit code 1), not failed either; a run that also
    fails a check is FAILED, with what it did not reach."""
    code = main(["validate", "sdnd101a", "--out", str(tmp_path), "-q", "--no-plots",
                 "--set", "time.end=0.2"])
    out = capsys.readouterr().out
    assert code == 1 and "FAILED" not in out
    assert out.splitlines()[-2:] == [
        "INCOMPLETE: sdnd101a (7 checks not reached: the run ends at t = 0.2 s)",
        "the case does not pass its reference checks"]
    code = main(["validate", "sdnd101a", "--out", str(tmp_path), "-q", "--no-plots",
                 "--set", "time.end=0.2", "--set", "time.step=2e-3"])
    last = capsys.readouterr().out.splitlines()[-2]
    assert code == 1 and re.fullmatch(r"FAILED: sdnd101a \(\d of 12 checks failed, \d not "
                                      r"reached: the run ends at t = 0\.2 s\)", last), last
    assert "INCOMPLETE" in _help(capsys, "validate").split("exit codes:")[1]


@pytest.mark.parametrize("sets", [["time.start=0.1", "time.end=0.6"],  # physics
                                  ["reference.0.tolerance=0.5"]])      # grading
def test_validate_refusing_a_set_makes_no_results_directory(tmp_path, capsys, monkeypatch,
                                                            sets):
    """A --set that validate refuses after loading (it changes the physics or the grading)
    left an empty results/ behind, made before the refusal (found as a test left one in
    the working tree); a --set refused at loading left none."""
    monkeypatch.chdir(tmp_path)
    argv = ["validate", "sdnd101a", "-q", "--no-plots"]
    for text in sets:
        argv += ["--set", text]
    assert main(argv) == 2
    assert capsys.readouterr().err.count("\n") == 1
    assert not (tmp_path / "results").exists()
    assert main([*argv, "--out", str(tmp_path / "deep" / "out")]) == 2
    assert not (tmp_path / "deep").exists()


def test_validate_runs_a_case_given_twice_once(tmp_path, capsys, monkeypatch):
    """`validate sdnd101a sdnd101a` ran it twice into one directory, "all 2 cases pass";
    two files of one case.name would share a directory: refused."""
    import rocking_contact as rc

    ran = []
    real = rc.run
    monkeypatch.setattr(rc, "run", lambda case, **kw: ran.append(case) or real(case, **kw))
    same = ["sdnd101a", "sdnd101a", str(rc.load_case("sdnd101a").source_file)]
    assert main(["validate", *same, "--out", str(tmp_path), "-q", "--no-plots"]) == 0
    captured = capsys.readouterr()
    assert len(ran) == 1 and "the case passes its reference checks" in captured.out
    assert captured.err == "warning: sdnd101a: given 3 times, validated once\n"
    other = tmp_path / "other.toml"  # (a name is never inherited: it names itself so)
    other.write_text(f'extends = "{same[2]}"\n[case]\nname = "sdnd101a"\n')
    assert main(["validate", "sdnd101a", str(other), "--out", str(tmp_path / "o")]) == 2
    assert capsys.readouterr().err == (
        f"error: {other}: case.name: 'sdnd101a' is the name of {same[2]} too: their "
        "results would go into one directory (allowed: cases of distinct names; validate "
        "them one at a time, each with its --out)\n")
    assert not (tmp_path / "o").exists()


def _help(capsys, command):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    return capsys.readouterr().out


@pytest.mark.parametrize("command", [None, "list", "keys", "run", "validate", "mesh", "rigid",
                                     "view", "report", "compare"])
def test_help_ends_with_the_exit_codes(capsys, command):
    """--help said nothing of them (0, 1 when a run stops or validate misses a check, 2 bad
    input, 130/143 stopped)."""
    with pytest.raises(SystemExit):
        main([command, "--help"] if command else ["--help"])
    help_text = capsys.readouterr().out
    codes = help_text.split("exit codes:\n")[1]
    said = [line.split()[0] for line in codes.splitlines() if line.startswith("  ")
            and line.split()[0].isdigit()]
    stops = command in (None, "run", "validate", "rigid")
    assert said == ["0", "1", "2", "130", "143"] if stops else ["0", "2", "130", "143"]
    assert ("bad input" if command != "list" else "a syntax error") in codes
    # list, keys, mesh, view and report run no case: there is no run to keep
    assert ("what a run computed is written" in codes) == stops
    # view, report and compare read results: they said "bad input (case file, --set, ...)"
    # without taking either (list and keys say their own too)
    general = command not in ("list", "keys", "view", "report", "compare")
    assert ("bad input (case file, --set, option, path)" in codes) == general
    if command is None:
        assert "`make demo` exits 0 when every case passes, otherwise 2" in help_text


def test_run_exits_0_whatever_its_checks_say_as_its_help_says(tmp_path, capsys):
    """validate grades (exit code 1 on a miss, test_validate_exit_codes); run does not."""
    with pytest.raises(SystemExit):
        main(["run", "--help"])
    assert "0    the run reached its end, whatever its checks say" in capsys.readouterr().out
    code = main(["run", "sdnd101a", "--out", str(tmp_path), "--no-plots",
                 "--set", "time.step=2e-3"])
    assert code == 0 and "FAIL" in capsys.readouterr().out


#: a Newton tolerance below round-off: sdnd101a's Newmark stops at its first step
NEWTON_FAILS = ["--set", "solver.scheme=newmark", "--set", "solver.newton_max_iter=3",
                "--set", "solver.newton_tol=1e-30"]


def test_solver_failure_keeps_results_so_far(tmp_path, capsys):
    """A Newton tolerance below round-off cannot be met once the shock closes: the run
    stops, says where, and what it computed is on disk."""
    out = tmp_path / "f"
    code = main(["run", "sdnd101a", "--out", str(out), "-q", "--no-plots", *NEWTON_FAILS])
    err = capsys.readouterr().err
    assert code == 1
    assert "t = " in err and "dt = " in err and "residual" in err
    data = json.loads((out / "results.json").read_text())
    assert data["status"].startswith("failed")
    history = read_history_csv(out / "history.csv")
    assert 0 < len(history["time"]) < 1001
    end = f"not reached: the run stopped at t = {history['time'][-1]:.6g} s"  # as printed
    assert any(c["note"] == end for c in data["checks"])


def test_a_failed_run_prints_its_table_and_summary_before_the_error(tmp_path, capsys):
    """A failed run printed nothing on stdout: what it computed is shown as a completed
    run's is, its unreached checks said so, and the error is the last line of stderr."""
    out = tmp_path / "f"
    assert main(["run", "sdnd101a", "--out", str(out), "--no-plots", *NEWTON_FAILS]) == 1
    captured = capsys.readouterr()
    data = json.loads((out / "results.json").read_text())
    lines = captured.out.splitlines()
    assert lines[0] == "== sdnd101a"
    # one table row per check, "not reached" in the computed column where the note says so
    rows = lines[3:3 + len(data["checks"])]
    assert [r.split()[0] for r in rows] == [c["quantity"] for c in data["checks"]]
    unreached = [c for c in data["checks"] if c["note"].startswith("not reached")]
    no_value = [c for c in unreached if c["value"] is None]
    assert no_value and sum("not reached" in r for r in rows) == len(no_value)
    graded = [c for c in data["checks"] if c["passed"] is not None]
    passed = sum(c["passed"] for c in graded)
    n_unreached = sum(c in unreached for c in graded)
    n_failed = len(graded) - passed - n_unreached  # said, when any: a reader counts them
    failing = f", {n_failed} fail{'s' if n_failed == 1 else ''}" if n_failed else ""
    end = read_history_csv(out / "history.csv")["time"][-1]
    compile_s = data["timing"]["compile_s"]  # a cold numba cache: said, apart from wall
    compiled = (f" (+{compile_s:.2g} s compiling numba kernels)"
                if compile_s >= COMPILE_SHOWN_S else "")
    assert lines[-1] == (f"sdnd101a: {data['timing']['steps']} steps before the run stopped, "
                         f"{data['timing']['wall_s']:.3g} s wall{compiled}, {passed}/{len(graded)} "
                         f"checks pass{failing} ({n_unreached} not reached: the run stopped at "
                         f"t = {end:.6g} s); results in {out}/")
    err = captured.err.splitlines()
    assert err[-1].startswith("error: solver failed: Newton") and \
        err[-1].endswith("(results so far were written)")
    # --quiet hides the table, not the summary line
    assert main(["run", "sdnd101a", "--out", str(out), "--no-plots", "-q", *NEWTON_FAILS]) == 1
    quiet = capsys.readouterr().out.splitlines()
    assert len(quiet) == 1
    assert quiet[0].split(", ", 2)[2] == lines[-1].split(", ", 2)[2]  # past steps and times


def test_a_shortened_run_says_which_checks_it_did_not_reach(tmp_path, capsys):
    """Ended at 0.1 s, the rigid block has had one impact: the checks of the later ones
    say "not reached" (still misses), and those the run reached are graded as usual."""
    assert main(["run", "sdnv105_rigid", "--out", str(tmp_path / "a"), "--no-plots",
                 "--set", "time.end=0.1"]) == 0
    out = capsys.readouterr().out
    data = json.loads((tmp_path / "a" / "results.json").read_text())
    unreached = [c for c in data["checks"] if c["quantity"].endswith("collision.2.time")]
    assert unreached and all(c["note"] == "not reached: the run ends at t = 0.1 s"
                             and c["passed"] in (False, None) for c in unreached)
    first = [c for c in data["checks"] if c["quantity"].endswith("collision.1.time")
             and c["passed"] is not None]
    assert first and all(c["passed"] for c in first)
    # A window the run entered but did not finish is not reached either: the highest lift
    # of O over [0, 0.1] s is not its highest over [0, 0.33] s.
    assert data["quantities"]["dy_max_O"] is None
    partial = [c for c in data["checks"] if c["quantity"] == "dy_max_O"]
    assert partial and all(c["note"].startswith("not reached") for c in partial)
    assert "not reached: the run ends at t = 0.1 s)" in out
    # Run to the case file's end, nothing is "not reached".
    assert main(["run", "sdnv105_rigid", "--out", str(tmp_path / "b"), "--no-plots",
                 "--quiet"]) == 0
    whole = json.loads((tmp_path / "b" / "results.json").read_text())
    assert not any(c["note"].startswith("not reached") for c in whole["checks"])
    # both runs saw the whole of [0, 0.05] s
    assert data["quantities"]["rn_max_O"] == whole["quantities"]["rn_max_O"]


@pytest.mark.parametrize("argv,said", [
    (["keys", "foo"], "foo: no such case file, shipped case or kind (kinds: discrete, rigid, "
                      "block; shipped: "),
    (["keys", "blok"], "variants: rocking-contact list; close: block)"),
    (["run", "sdnd101b"], "variants: rocking-contact list; close: sdnd101a, "),
    (["rigid", "sdnv105_rigd"], "; close: sdnv105_rigid"),
])
def test_an_unknown_case_says_what_is_allowed_and_the_close_names(capsys, argv, said):
    """`keys foo` did not say that a kind is taken too, and `run sdnd101b` named no close
    case, as other bad names do."""
    assert main(argv) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("error: ") and said in line
    assert ("kind" in line) == (argv[0] == "keys")


def test_keys_documents_every_key_of_a_kind(capsys):
    assert main(["keys", "sdnd101a"]) == 0
    out = capsys.readouterr().out
    for key in ("time.step", "model.shock.N.kn", "solver.scheme", "impacts.min_rest",
                "reference.N.tolerance_kind"):
        assert key in out
    assert "[N/m]" in out  # units are shown
    assert "extends" in out and "default True" not in out  # TOML spelling: true


def test_keys_say_which_variant_reads_a_key(capsys):
    assert main(["keys", "sdnv105a"]) == 0
    lines = {line.split()[0]: line for line in capsys.readouterr().out.splitlines()
             if line.startswith("  ")}
    assert lines["contact.restitution"].endswith("only with treatment 'theta'")
    assert lines["contact.mu"].endswith("not with treatment 'none'")
    assert lines["scheme.alpha"].endswith("only with type 'alpha_newmark' or 'hht'")
    assert lines["mesh.element_size"].endswith("only with layout 'structured'")
    assert lines["contact.treatment"].count("only with") == 0


def test_keys_lists_the_keys_of_an_optional_table(capsys):
    assert main(["keys", "sdnv105a"]) == 0
    out = capsys.readouterr().out
    assert "[time.refine]  (optional table)" in out
    for key in ("time.refine.step", "time.refine.hold", "time.refine.enabled"):
        assert key in out


def test_keys_of_a_case_show_its_own_values_and_their_files(capsys, tmp_path):
    """`keys sdnv105a` listed time.step, contact.treatment, collisions.windows at the kind's
    defaults only: a case's own values are shown where they differ, with the file giving
    each (through extends), a long list cut; a kind's listing is unchanged."""
    mine = tmp_path / "mine.toml"
    mine.write_text('extends = "sdnv105d"\n[loading]\ngravity = 19.62\n'
                    '[contact]\nmu = 0.9\n')
    assert main(["keys", str(mine)]) == 0
    lines = {line.split()[0]: line for line in capsys.readouterr().out.splitlines()
             if line.startswith("  ")}
    assert "default 9.81; this case: 19.62 (mine.toml);" in lines["loading.gravity"]
    assert "this case: 0.0001 (sdnv105d.toml);" in lines["time.step"]
    assert "this case: 'aster' (sdnv105a.toml);" in lines["mesh.layout"]
    assert "this case: [[0.0, 0.33], [0.1, 0.33], ... 5 in all] (sdnv105d.toml)" in \
        lines["collisions.windows"]
    assert "this case: 'sdnv105d' (mine.toml)" in lines["extends"]
    for same in ("contact.mu", "case.name", "material.block.young"):  # given as the default
        assert "this case" not in lines[same]
    assert main(["keys", "block"]) == 0
    assert "this case" not in capsys.readouterr().out


def test_keys_of_a_case_with_set_show_the_values_given(capsys):
    """`keys sdnv105d --set contact.mu=0.3` was refused ('unrecognized arguments'): the
    values a run would take are shown, an override named '--set', at its default too."""
    assert main(["keys", "sdnv105d", "--set", "contact.mu=0.3", "--set",
                 "collisions.windows=[]"]) == 0
    out = capsys.readouterr().out
    lines = {line.split()[0]: line for line in out.splitlines() if line.startswith("  ")}
    assert "default 0.9; this case: 0.3 (--set);" in lines["contact.mu"]
    assert "default []; this case: [] (--set);" in lines["collisions.windows"]
    assert "this case: 0.0001 (sdnv105d.toml)" in lines["time.step"]
    assert out.splitlines()[0].endswith("not the default or --set gives it")
    for argv, said in ((["keys", "block", "--set", "contact.mu=0.3"], "block is a kind"),
                       (["keys", "sdnv105d", "--set", "contact.mu=-1"],
                        "contact.mu: got -1.0, allowed: a number >= 0")):
        assert main(argv) == 2
        captured = capsys.readouterr()
        (line,) = captured.err.splitlines()
        assert captured.out == "" and line.startswith("error: ") and said in line


def test_keys_of_a_case_that_does_not_load_still_lists_its_keys(capsys, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('extends = "sdnv105d"\n[loading]\ngravity = -1\n')
    assert main(["keys", str(bad)]) == 0
    out, err = capsys.readouterr()
    assert "loading.gravity" in out and "this case" not in out
    assert err == (f"note: {bad}: loading.gravity: got -1.0, allowed: a number >= 0, the "
                   "magnitude (gravity acts along -y); the keys below show the defaults only\n")


def test_partial_override_of_a_default_table_keeps_its_other_defaults():
    from rocking_contact.config import load_case

    case = load_case("sdnd101a", ["model.damping.stiffness_coefficient=1e-4"])
    assert case.model.damping.stiffness_coefficient == 1e-4
    assert case.model.damping.mass_coefficient == 0.0 and case.model.damping.modal_ratio == 0.0


@pytest.mark.parametrize(("argv", "line"), [
    (["run"], "error: run: the following arguments are required: case "
              "(rocking-contact run --help)"),
    (["run", "sdnd101a", "--bogus"], "error: run: unrecognized arguments: --bogus "
                                     "(rocking-contact run --help)"),
    # a misspelt option gets its close names, as a misspelt key does
    (["run", "sdnd101a", "--sett", "x"], "error: run: unrecognized arguments: --sett x; "
                                         "close: --set (rocking-contact run --help)"),
    (["validate", "--sett=x", "--no-plts"], "error: validate: unrecognized arguments: "
                                            "--sett=x --no-plts; close: --set "
                                            "(rocking-contact validate --help)"),
    # a value that is no number: what the option takes (argparse said 'invalid float
    # value: 'abc'', no range, no unit)
    (["view", "x", "--scale", "abc"], "error: view: argument --scale: got 'abc', allowed: a "
                                      "finite number > 0, the factor the displacements are "
                                      "drawn at (rocking-contact view --help)"),
    (["view", "x", "--time", "abc"], "error: view: argument --time: got 'abc', allowed: a "
                                     "number of s, an instant from the run's start to its end "
                                     "(rocking-contact view --help)"),
    (["view", "x", "--fps", "2.5"], "error: view: argument --fps: got '2.5', allowed: an "
                                    "integer > 0, the movie's frames per second "
                                    "(rocking-contact view --help)"),
    (["view", "x", "--window-size", "900", "9e2"], "error: view: argument --window-size: got "
                                                   "'9e2', allowed: two integers >= 16, the "
                                                   "width and height in pixels "
                                                   "(rocking-contact view --help)"),
    # it said "'abc' is no integer (allowed: 0, 1, 2, ...)" and "-1 (allowed: 0 for all, or a
    # count >= 1)", neither the other's words
    (["compare", "x", "--collisions", "abc"], "error: compare: argument --collisions: got "
                                              "'abc', allowed: an integer >= 0, the first N "
                                              "collisions shown (0: all) (rocking-contact "
                                              "compare --help)"),
    (["compare", "x", "--collisions=-1"], "error: compare: argument --collisions: got '-1', "
                                          "allowed: an integer >= 0, the first N collisions "
                                          "shown (0: all) (rocking-contact compare --help)"),
    (["frobnicate"], "error: argument COMMAND: invalid choice: 'frobnicate' (choose from "),
    (["mesh"], "error: mesh: the following arguments are required: --out "
               "(rocking-contact mesh --help)"),
    # rigid takes its case positionally too: "2" is read as the case, as `mesh --frames 2`
    (["rigid", "--frames", "2"], "error: rigid: unrecognized arguments: --frames "
                                 "(rocking-contact rigid --help)"),
    # --set's key and value as two words, as other tools take an option's value
    (["run", "sdnd101a", "--set", "time.step", "1e-4"],
     "error: run: unrecognized arguments: 1e-4; --set takes KEY=VALUE as one word: --set "
     "time.step=1e-4 (rocking-contact run --help)"),
    (["sweep", "sdnd101a", "--out", "x", "--set", "contact.mu", "0.3,0.6"],
     "error: sweep: unrecognized arguments: 0.3,0.6; --set takes KEY=VALUE as one word: "
     "--set contact.mu=0.3,0.6 (rocking-contact sweep --help)"),
    (["run", "sdnd101a", "--set", "time.step=1e-4", "stray"],
     "error: run: unrecognized arguments: stray (rocking-contact run --help)"),
])
def test_a_syntax_error_is_one_line_naming_the_subcommand(capsys, argv, line):
    """argparse's whole usage block before the error was more to read than the error."""
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert len(captured.err.splitlines()) == 1 and captured.err.startswith(line)
    assert "usage:" not in captured.err and captured.err.endswith(" --help)\n")


@pytest.mark.parametrize(("typed", "close"), [
    ("runn", "; close: run"), ("reprot", "; close: report"), ("Validate", "; close: validate"),
    ("frobnicate", "")])
def test_a_misspelt_command_gets_the_close_ones(capsys, typed, close):
    """`rocking-contact runn` listed the commands without the one meant."""
    with pytest.raises(SystemExit) as stop:
        main([typed, "sdnd101a"])
    assert stop.value.code == 2
    assert capsys.readouterr().err == (
        f"error: argument COMMAND: invalid choice: '{typed}' (choose from 'list', 'keys', "
        "'run', 'validate', 'compare', 'sweep', 'mesh', 'rigid', 'view', 'report')"
        f"{close} (rocking-contact --help)\n")


@pytest.mark.parametrize(("command", "table"), [("run", False), ("validate", True)])
def test_quiet_does_what_its_help_says(tmp_path, capsys, command, table):
    """run --help said only "no progress bar" and --quiet hid the table as well."""
    with pytest.raises(SystemExit):
        main([command, "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    said = "no table of the checks" if not table else "the tables of the checks, the summary"
    assert said in help_text
    main([command, "sdnd101a", "-q", "--no-plots", "--out", str(tmp_path),
          "--set", "time.step=1e-3"])
    out = capsys.readouterr().out
    assert ("== sdnd101a" in out) is table and "sdnd101a: 500 steps, " in out


def test_mesh_help_says_what_it_builds_without_a_case(tmp_path, capsys):
    """Its help said "default: SDNV105 values", and it built a structured mesh of 243
    nodes, not SDNV105's 25-node Code_Aster mesh."""
    with pytest.raises(SystemExit):
        main(["mesh", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert main(["mesh", "--out", str(tmp_path / "m.msh")]) == 0
    layout, cell, _ = capsys.readouterr().out.splitlines()[0].split("(")[1].split(", ")
    assert f"default: the keys' defaults, SDNV105's block and table on a {layout} 0.04 m " \
        f"{cell} mesh" in help_text and layout != "aster"


def test_mesh_out_without_a_suffix_gets_msh_as_its_help_says(tmp_path, capsys):
    """``--out afile`` wrote afile.msh while ``--out a.vtk`` was refused, and --help said
    neither: one rule, said in the help and in the refusal."""
    with pytest.raises(SystemExit):
        main(["mesh", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "a name without a suffix gets .msh, any other suffix is refused" in help_text
    assert main(["mesh", "sdnv105a", "--out", str(tmp_path / "afile")]) == 0
    assert capsys.readouterr().out.startswith(f"{tmp_path / 'afile.msh'}: 25 nodes")
    assert main(["mesh", "sdnv105a", "--out", str(tmp_path / "a.vtk")]) == 2
    assert "(allowed: a .msh file path (a name without a suffix gets .msh)" in \
        capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile.msh"]


@pytest.mark.parametrize("command,option,suffix", [("compare", "--csv", ".csv"),
                                                    ("view", "--screenshot", ".png")])
def test_the_other_file_options_say_their_suffix_rule_as_mesh_out_does(capsys, command,
                                                                        option, suffix):
    """``--csv table`` wrote table.csv and ``--screenshot shot`` shot.png (out_paths.
    check_file, mesh --out's rule), while their --help said neither."""
    with pytest.raises(SystemExit):
        main([command, "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    options = help_text[help_text.index("options:"):]
    said = options[options.index(option):].split(" --", 1)[0]  # its own help
    assert f"a name without a suffix gets {suffix}, any other suffix is refused" in said


def test_a_physics_override_shows_the_references_without_grading_them(tmp_path, capsys):
    """References describe the case file's physics: a run that changes it is compared for
    information; a numerical override keeps the grading; validate refuses the former."""
    assert main(["run", "sdnd101a", "--out", str(tmp_path / "a"), "--quiet", "--no-plots",
                 "--set", "model.shock[0].kn=2e6"]) == 0
    captured = capsys.readouterr()
    assert "the run changes model.shock.0.kn" in captured.err
    data = json.loads((tmp_path / "a" / "results.json").read_text())
    assert data["checks"] and all(c["passed"] is None for c in data["checks"])
    marked = [c for c in data["checks"] if c["tolerance"] is not None]
    assert marked and all(c["note"] == "not graded: the run changes model.shock.0.kn"
                          for c in marked)
    assert any("model.shock.0.kn" in w for w in data["warnings"])
    assert main(["run", "sdnd101a", "--out", str(tmp_path / "b"), "--quiet", "--no-plots",
                 "--set", "time.step=1e-4"]) == 0
    data = json.loads((tmp_path / "b" / "results.json").read_text())
    marked = [c for c in data["checks"] if c["tolerance"] is not None]
    assert marked and all(c["passed"] is not None for c in marked) and not data["warnings"]
    capsys.readouterr()
    code = main(["validate", "sdnd101a", "--out", str(tmp_path / "c"), "-q",
                 "--set", "model.shock[0].kn=2e6"])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "model.shock.0.kn: changes the physics the references describe" in err


def test_a_case_changed_after_loading_is_not_graded_either():
    import rocking_contact as rc

    case = load_case("sdnv105_rigid")
    case.preload.angle = 0.02  # the release angle its file gives (its tilt is not read)
    result = rc.run(case, write=False, quiet=True)
    assert result.checks and all(c["passed"] is None for c in result.checks)
    assert any("preload.angle" in w for w in result.warnings)


def test_a_run_into_an_earlier_runs_directory_leaves_none_of_its_files(tmp_path, capsys):
    """Frames or plots left from a longer run would be read as this one's."""
    out = tmp_path / "r"
    (out).mkdir()
    (out / "notes.txt").write_text("mine")  # not a run's file: kept
    assert main(["run", "sdnd101a", "--out", str(out), "-q"]) == 0
    plots = sorted(p.name for p in out.glob("*.png"))
    assert plots and json.loads((out / "results.json").read_text())["plots"]
    assert main(["run", "sdnd101a", "--out", str(out), "-q", "--no-plots",
                 "--set", "time.end=0.2"]) == 0
    assert not list(out.glob("*.png")) and (out / "notes.txt").read_text() == "mine"
    # FEM frames: a shorter run keeps only its own
    fem = ["run", "sdnv105_preload", "--out", str(out), "-q", "--no-plots",
           "--set", "output.fields_every=1"]
    assert main([*fem, "--set", "time.end=0.01"]) == 0  # 2.5 ms steps: 5 frames
    many = len(list(out.glob("fields*.pvtu")))
    assert main([*fem, "--set", "time.end=0.0025"]) == 0  # 2 frames
    frames = list(out.glob("fields*.pvtu"))
    assert len(frames) < many and len(frames) == (out / "fields.pvd").read_text().count(
        "<DataSet ")


def test_references_inherited_through_extends_grade_only_their_physics(tmp_path, capsys):
    """A heavier mass extending sdnd101a keeps sdnd101a's references, written for 100 kg:
    shown, not graded; a case that changes only the method is graded by them."""
    import rocking_contact as rc

    parent = shipped_cases()["sdnd101a"].as_posix()
    heavy = tmp_path / "heavy.toml"
    heavy.write_text(f'extends = "{parent}"\n[case]\nname = "heavy"\n[[model.node]]\n'
                     'name = "NO1"\nmass = 200.0\nfixed = ["DY", "DZ"]\nv0 = [1.0, 0.0, 0.0]\n')
    result = rc.run(rc.load_case(heavy), write=False, plots=False, quiet=True)
    marked = [c for c in result.checks if c["tolerance"] is not None]
    assert marked and all(c["passed"] is None and c["note"] == "not graded: the run changes "
                          "model.node.0.mass" for c in marked)
    assert result.warnings == [f"its references come from {parent}, and it changes "
                               "model.node.0.mass: the checks are shown for information, "
                               "without a pass mark"]
    finer = tmp_path / "finer.toml"
    finer.write_text(f'extends = "{parent}"\n[case]\nname = "finer"\n[time]\nstep = 2.5e-4\n')
    result = rc.run(rc.load_case(finer), write=False, plots=False, quiet=True)
    assert result.passed and not result.warnings


def test_a_quantity_that_takes_a_taken_name_says_so():
    import rocking_contact as rc

    q = {"column": "DX_NO1", "op": "max"}
    case = rc.load_case("sdnd101a", {"quantity": [{"name": "impact.NO1.count", **q},
                                                  {"name": "mine", **q}, {"name": "mine", **q}]})
    result = rc.run(case, write=False, plots=False, quiet=True)
    assert [w for w in result.warnings if "[[quantity]]" in w] == [
        "[[quantity]] 'impact.NO1.count' replaces the run's own of that name: the references "
        "to it compare with the last one",
        "[[quantity]] 'mine' replaces another [[quantity]] of that name: the references to it "
        "compare with the last one"]


@pytest.mark.parametrize("command,out", [
    (["run", "sdnv105a"], "afile/x.txt"),
    (["validate", "sdnv105a"], "afile/x"),
    (["mesh", "sdnv105a"], "afile/a.msh"),
    (["mesh", "sdnv105a"], "a.vtk"),
])
def test_a_bad_out_is_refused_before_the_case_is_loaded(monkeypatch, tmp_path, capsys,
                                                         command, out):
    """Loading a case imports DOLFINx and SciPy, mesh then meshes: seconds before a path
    under a file or of the wrong kind would be said."""
    import rocking_contact as rc
    from rocking_contact.geometry import cli as mesh_cli

    def too_late(*args, **kwargs):
        raise AssertionError("the case was loaded before --out was checked")

    monkeypatch.setattr(rc, "load_case", too_late)
    monkeypatch.setattr(mesh_cli, "load_input", too_late)
    (tmp_path / "afile").write_text("")
    code = main([*command, "--out", str(tmp_path / out)])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("error: --out: ") and err.count("\n") == 1, err
    assert ("afile is a file, not a directory" if "afile" in out else "not a .msh file") in err


def test_the_early_out_check_creates_nothing_for_a_case_refused_next(tmp_path, capsys):
    out = tmp_path / "new" / "dir"
    assert main(["run", "nosuch_case", "--out", str(out)]) == 2
    assert main(["mesh", "nosuch_case", "--out", str(out / "a.msh")]) == 2
    assert "nosuch_case" in capsys.readouterr().err and not (tmp_path / "new").exists()


# -- under mpiexec: one voice ------------------------------------------------------------

def _under_mpiexec(tmp_path, *args):
    """``mpiexec -n 2 rocking-contact ARGS`` from ``tmp_path``: (exit code, stdout, stderr)."""
    import subprocess
    import sys
    from pathlib import Path

    mpiexec = Path(sys.executable).parent / "mpiexec"
    proc = subprocess.run([str(mpiexec), "-n", "2", sys.executable, "-m", "rocking_contact.cli",
                           *args], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    return proc.returncode, proc.stdout, proc.stderr


@pytest.mark.mpi
def test_under_mpiexec_each_message_is_said_once(tmp_path):
    """Two ranks used to print bad input twice, the rigid tables twice, and both wrote the
    same mesh file at once; rank 0 speaks (and writes) for all now."""
    code, out, err = _under_mpiexec(tmp_path, "run", "sdnv105a", "--set", "time.step=-1")
    assert code == 2 and out == ""
    assert err.splitlines() == [line for line in err.splitlines() if line.startswith("error:")]
    assert len(err.splitlines()) == 1 and "time.step: got -1.0" in err
    code, out, err = _under_mpiexec(tmp_path, "run", "sdnv105a", "--bogus")
    assert code == 2 and err.count("unrecognized arguments: --bogus") == 1
    code, out, err = _under_mpiexec(tmp_path, "run", "sdnd101a", "--no-plots", *NEWTON_FAILS)
    assert code == 1 and out.count("== sdnd101a") == 1 and out.count("checks pass") == 1
    assert err.count("error: solver failed") == 1
    code, out, _ = _under_mpiexec(tmp_path, "rigid", "--no-plots", "--out", "r")
    assert code == 0 and out.count("outcome: ") == 1 and (tmp_path / "r" / "results.json").is_file()
    code, out, _ = _under_mpiexec(tmp_path, "mesh", "sdnv105a", "--out", "a.msh")
    assert code == 0 and out.count("a.msh: 25 nodes") == 1 and (tmp_path / "a.msh").is_file()
    code, out, _ = _under_mpiexec(tmp_path, "report", "r", "--no-views", "--out", "rep")
    assert code == 0 and out.count("wrote ") == 1 and (tmp_path / "rep" / "index.html").is_file()


def test_a_fallback_in_the_static_preload_says_so(tmp_path, capsys):
    """One Newton iteration and no halving: the gravity preload's step is taken with the
    fallback and the tilt then fails. The warning used to say "ending at t = 1 s", a
    pseudo-time of the static phase read as the run's time."""
    code = main(["run", "sdnv105a", "--out", str(tmp_path / "r"), "--no-plots",
                 "--set", "solver.max_halvings=0", "--set", "solver.max_iterations=1",
                 "--set", "contact.max_iterations=1"])
    err = capsys.readouterr().err.splitlines()
    assert code == 1
    assert any(line.startswith("warning: sdnv105a: 1 step(s) failed at the last halving")
               and line.endswith("in the static preload, at pseudo-time 1 (of [0, 1])")
               for line in err), err
    assert err[-1].startswith("error: solver failed: ") and "preload tilt" in err[-1]
    # stopped before its first step: results.json alone, not "results so far"
    assert err[-1].endswith("(results.json was written, with this status: no step was "
                            "computed)")
    assert [p.name for p in (tmp_path / "r").iterdir()] == ["results.json"]


def test_a_file_that_ends_before_its_inherited_windows_says_which_window(tmp_path, capsys):
    """A case file extending sdnv105d with its own time.end = 0.03 s: its inherited
    quantities' and collisions' windows end later. Each check said only 'not computed'."""
    short = tmp_path / "short.toml"
    short.write_text('extends = "sdnv105d"\n[case]\nname = "short"\nkind = "block"\n'
                     '[time]\nend = 0.03\n')
    assert main(["run", str(short), "--out", str(tmp_path / "r"), "-q", "--no-plots"]) == 0
    out = capsys.readouterr().out
    assert "0/14 checks pass (14 not reached: the run ends at t = 0.03 s)" in out
    checks = json.loads((tmp_path / "r" / "results.json").read_text())["checks"]
    notes = {c["quantity"]: c["note"] for c in checks if c["value"] is None}
    assert notes["rn_max_O"] == ("not reached: its window ends at t = 0.05 s, after the "
                                 "run's end (t = 0.03 s)")
    assert notes["collision.1.time"].startswith("not reached: its window ends at t = 0.33 s")
    assert all(n.startswith("not reached: its window ends") for n in notes.values())


def test_a_block_case_without_references_prints_its_collisions(tmp_path, capsys):
    """Her own block has nothing to check against: run printed only its step count, the
    collisions and their rigid comparison were in results.json alone."""
    own = tmp_path / "own.toml"
    own.write_text('extends = "sdnv105d"\nquantity = []\nreference = []\n[case]\n'
                   'name = "own"\nkind = "block"\n[time]\nend = 0.07\n')
    assert main(["run", str(own), "--out", str(tmp_path / "r"), "--no-plots"]) == 0
    out = capsys.readouterr().out.splitlines()
    start = out.index("collisions (kinetic-energy maxima):")
    assert out[start + 1].startswith("k  t (s)      Ekin (J)   rigid t")
    k, t, ekin, rigid_t, rigid_ekin = out[start + 2].split()[:5]
    data = json.loads((tmp_path / "r" / "results.json").read_text())
    row = data["extra"]["rigid_comparison"][0]
    assert (k, float(t), float(ekin)) == ("1", pytest.approx(row["time"], rel=1e-5),
                                          pytest.approx(row["kinetic_energy"], rel=1e-5))
    assert float(rigid_t) == pytest.approx(row["levels"]["nonlinear"]["time"], rel=1e-5)
    assert float(rigid_ekin) == pytest.approx(row["levels"]["nonlinear"]["kinetic_energy"],
                                              rel=1e-5)
    assert out[start + 3].startswith("energy balance: largest |residual| ")
