"""The ``rigid`` command as ``run`` (session 30, audits A1 and A2): the twin of a block case
takes the block's Coulomb coefficient, ``--quiet`` prints what ``run --quiet`` prints, and
the results directory is made and removed again as ``run`` makes and removes it."""

import json
import re

import pytest

import rocking_contact as rc
from rocking_contact.analytic import rigid_runner
from rocking_contact.analytic.rigid_runner import rigid_twin
from rocking_contact.cli import main
from rocking_contact.config import CaseError


def slides(mu, warning):
    """Whether ``warning`` says that the block slides under ``mu``: SDNV105's rigid block
    needs |RX|/RN up to 0.321 (its largest in flight, 0.3212 over more impacts)."""
    return re.fullmatch(rf"\|RX\|/RN reaches 0\.32\d* > friction {mu}: the block would "
                        rf"slide \(not modelled\)", warning) is not None


def _results(out):
    return json.loads((out / "results.json").read_text())


def test_the_twin_takes_the_block_s_coulomb_coefficient(tmp_path, capsys):
    """``rigid sdnv105d --set contact.mu=0.3`` ran its twin under the 0.9 of sdnv105_rigid:
    no warning, where the FEM run of that block says that it slides."""
    argv = ["rigid", "sdnv105d", "--no-plots", "-q", "--set", "time.end=0.15"]
    assert main([*argv, "--set", "contact.mu=0.3", "--out", str(tmp_path / "mu")]) == 0
    data = _results(tmp_path / "mu")
    assert data["parameters"]["rigid"]["friction"] == 0.3
    (warning,) = data["warnings"]  # the twin has no references to leave ungraded
    assert slides(0.3, warning), warning
    assert capsys.readouterr().err == f"warning: sdnv105d_rigid: {warning}\n"
    assert data["provenance"]["overrides"] == ["time.end=0.15", "contact.mu=0.3"]
    # the twin's Coulomb coefficient is its physics, changed from the file's twin (it was
    # a method key, and the run's changes [] alike the file's: session 31, L1)
    assert data["extra"]["changes"] == ["rigid.friction"]
    # the file's own 0.9, as before
    assert main([*argv, "--out", str(tmp_path / "file")]) == 0
    assert capsys.readouterr().err == ""
    data = _results(tmp_path / "file")
    assert data["parameters"]["rigid"]["friction"] == 0.9 and data["warnings"] == []


def test_a_twin_whose_base_cannot_slide_has_no_coefficient():
    """SDNV105 B's springs are anchored in x: its twin is never told that it slides (it was
    warned at sdnv105_rigid's 0.9); springs that are not anchored give their least mu."""
    held = rc.load_case("sdnv105b")
    assert held.contact.sliding_friction() is None
    assert rigid_twin(held).rigid.friction is None
    free = rc.load_case("sdnv105b")
    for spring in free.contact.spring:
        spring.anchor_stiffness = 0.0
    free.contact.spring[1].mu = 0.25
    assert rigid_twin(free).rigid.friction == 0.25
    slid = rc.run(rigid_twin(free), write=False, quiet=True)
    assert len(slid.warnings) == 1 and slides(0.25, slid.warnings[0]), slid.warnings


def test_quiet_prints_the_summary_line_as_run_does(tmp_path, capsys):
    """``rigid --quiet`` printed its impact tables, noise in a study's shell loop: now the
    summary line alone, as ``run --quiet``, the warnings still on stderr."""
    argv = ["rigid", "--no-plots", "--set", "rigid.friction=0.3", "--set", "time.end=0.2"]
    assert main([*argv, "--out", str(tmp_path / "loud")]) == 0
    loud = capsys.readouterr()
    assert "closed form t (s) / Ekin (J)" in loud.out and len(loud.out.splitlines()) > 10
    assert main([*argv, "--quiet", "--out", str(tmp_path / "quiet")]) == 0
    quiet = capsys.readouterr()
    assert len(quiet.out.splitlines()) == 1
    wall = re.compile(r"\S+ s wall")
    assert (wall.sub("", quiet.out.replace("/quiet/", "/"))
            == wall.sub("", loud.out.splitlines()[-1].replace("/loud/", "/")) + "\n")
    assert quiet.err == loud.err
    slide, ungraded = quiet.err.splitlines()
    assert slides(0.3, slide.split(": ", 2)[2]), slide
    assert ungraded.endswith("the run changes rigid.friction: the checks are shown for "
                             "information, without a pass mark")
    with pytest.raises(SystemExit):
        main(["rigid", "--help"])
    said = " ".join(capsys.readouterr().out.split())
    assert "the summary line, warnings and errors alone, as run --quiet prints" in said


@pytest.mark.parametrize("argv", [["run", "sdnv105_rigid"], ["rigid"], ["rigid", "sdnv105d"]])
def test_a_refused_case_leaves_no_directory_behind(tmp_path, capsys, monkeypatch, argv):
    """``rigid`` made its ``--out`` on every rank and kept it when the run was refused;
    ``run`` removed it (commands.run.run_into now does both)."""
    def refuse(case, **_):
        raise CaseError("a case", "rigid.level", "refused as the run sets up")

    monkeypatch.setattr(rigid_runner, "run", refuse)
    out = tmp_path / "new" / "deeper"
    assert main([*argv, "--no-plots", "--out", str(out)]) == 2
    assert capsys.readouterr().err == "error: a case: rigid.level: refused as the run sets up\n"
    assert list(tmp_path.iterdir()) == []
    # a directory that was there stays, with what it held
    out.mkdir(parents=True)
    (out / "kept.txt").write_text("mine")
    assert main([*argv, "--no-plots", "--out", str(out)]) == 2
    assert (out / "kept.txt").read_text() == "mine"


def test_a_rigid_case_s_contact_says_where_its_coefficient_is(tmp_path, capsys):
    """``rigid --set contact.mu=0.3`` was told the allowed sections alone, none close to
    'contact', and nothing of rigid.friction."""
    code = main(["rigid", "--set", "contact.mu=0.3", "--out", str(tmp_path / "o")])
    source = rc.load_case("sdnv105_rigid").source_file
    assert code == 2 and capsys.readouterr().err == (
        f"error: {source} (with --set): contact: unknown key (allowed: case, quantity, "
        "reference, geometry, material, loading, preload, rigid, time; a rigid block has no "
        "[contact]: its Coulomb coefficient, a block case's contact.mu, is rigid.friction)\n")
    assert not (tmp_path / "o").exists()


def test_a_rigid_run_of_another_coefficient_records_it(tmp_path, capsys):
    """``rigid --set rigid.friction=0.3`` warned that the block slides but recorded no
    change (``extra.changes`` [], its 79 checks passing): ``compare`` and the report could
    not tell it from the validated run."""
    assert main(["rigid", "--quiet", "--no-plots", "--set", "rigid.friction=0.3",
                 "--out", str(tmp_path / "r")]) == 0
    data = _results(tmp_path / "r")
    assert data["extra"]["changes"] == ["rigid.friction"]
    assert main(["rigid", "--quiet", "--no-plots", "--out", str(tmp_path / "file")]) == 0
    file = _results(tmp_path / "file")
    assert file["extra"]["changes"] == []
    graded = [i for i, c in enumerate(file["checks"]) if c["passed"] is not None]
    assert len(graded) == 79 and all(file["checks"][i]["passed"] for i in graded)
    assert all(data["checks"][i]["passed"] is None and data["checks"][i]["note"] ==
               "not graded: the run changes rigid.friction" for i in graded)
    capsys.readouterr()
    # compare shows the change, even of a run whose overrides it cannot read
    data["provenance"]["overrides"] = []
    (tmp_path / "r" / "results.json").write_text(json.dumps(data))
    assert main(["compare", str(tmp_path / "r"), str(tmp_path / "file")]) == 0
    rows = capsys.readouterr().out.splitlines()
    head = next(i for i, line in enumerate(rows) if line.startswith("run "))
    assert rows[head].split()[:2] == ["run", "rigid.friction"]
    assert [line.split()[1] for line in rows[head + 1:head + 3]] == ["0.3", "0.9"]


def test_a_block_case_s_rigid_friction_says_to_set_contact_mu(tmp_path, capsys):
    """``rigid sdnv105d --set rigid.friction=0.3`` was told 'rigid: unknown key (allowed:
    case, quantity, ...)', nothing of contact.mu, which its twin's friction is; as the
    rigid case's contact.mu points at rigid.friction (above)."""
    source = rc.load_case("sdnv105d").source_file
    said = (f"error: {source} (with --set): rigid.friction: a block case has no [rigid]: its "
            "rigid twin's Coulomb coefficient is the block's contact.mu (with contact "
            "springs, the least mu of those not anchored in x); allowed: --set "
            "contact.mu={}\n")
    for argv, value in [(["rigid", "sdnv105d", "--set", "rigid.friction=0.3"], "0.3"),
                        (["rigid", "--case", "sdnv105d", "--set", "rigid={friction=0.25}"],
                         "0.25"),
                        (["sweep", "sdnv105d", "--rigid", "--set", "rigid.friction=0.4,0.5"],
                         "0.4")]:
        assert main([*argv, "--out", str(tmp_path / "o")]) == 2
        assert capsys.readouterr().err == said.format(value), argv
    assert not (tmp_path / "o").exists()
    # another [rigid] key: the twin takes it from sdnv105_rigid
    assert main(["rigid", "sdnv105d", "--set", "rigid.level=linearised"]) == 2
    assert capsys.readouterr().err == (
        f"error: {source} (with --set): rigid.level: a block case has no [rigid]: its rigid "
        "twin takes its rigid keys from sdnv105_rigid, and rigid.friction from the block's "
        "contact.mu; allowed: the block case's keys (rocking-contact keys sdnv105d), "
        "contact.mu for the twin's friction\n")
    # run, which runs no twin, and a discrete case keep the schema's refusal
    for case in ("sdnv105d", "sdnd101a"):
        assert main(["rigid" if case == "sdnd101a" else "run", case, "--set",
                     "rigid.friction=0.3", "--out", str(tmp_path / "o")]) == 2
        assert ": rigid: unknown key (allowed: case, quantity, reference, " in (
            capsys.readouterr().err)


@pytest.mark.parametrize("key", ["rigid.friction", "rigid.level"])
def test_a_block_case_given_a_rigid_key_says_where_its_twin_takes_it(key):
    """``run sdnv105d --set rigid.friction=0.3`` listed the block's sections alone: the
    refusal now says the block has no [rigid] and that its twin takes contact.mu."""
    with pytest.raises(CaseError) as refused:
        rc.load_case("sdnv105d", {key: "x" if key == "rigid.level" else 0.3})
    message = str(refused.value)
    assert "rigid: unknown key" in message
    assert message.endswith("a block case has no [rigid], the rigid block's section: its "
                            "rigid twin (rocking-contact rigid) takes the block's contact.mu "
                            "for rigid.friction)")


def test_a_lift_shown_as_a_dash_is_explained_under_the_table(tmp_path, capsys):
    """A run ending between impact 2 and the corner's highest point after it showed '—'
    in the lift column unexplained (audit, session 35); the full run shows no dash and no
    line."""
    from rocking_contact.analytic.rigid_cli import NO_LIFT

    assert main(["rigid", "sdnv105_rigid", "--set", "time.end=0.14", "--out",
                 str(tmp_path / "short"), "--no-plots"]) == 0
    lines = capsys.readouterr().out.splitlines()
    head = next(i for i, line in enumerate(lines) if "lift (mm)" in line)
    assert lines[head + 1].startswith("1 ") and "—" not in lines[head + 1]
    assert lines[head + 2].startswith("2 ") and "—" in lines[head + 2]
    assert lines[head + 3] == NO_LIFT
    assert main(["rigid", "sdnv105_rigid", "--out", str(tmp_path / "full"), "--no-plots"]) == 0
    out = capsys.readouterr().out
    assert "lift (mm)" in out and NO_LIFT not in out and "—" not in out


def test_a_level_without_impact_k_is_explained_under_the_table(tmp_path, capsys):
    """Released at asin(0.05) to 0.312 s, the closed form's impact 2 (0.3158 s) comes after
    the end, the integrated levels' (0.3091 s) before it: its cell showed '—' with no word
    why. One line per level with a dash, under the impacts table; none in a full table."""
    assert main(["rigid", "sdnv105_rigid", "--set", "preload.tilt=0.05", "--set",
                 "time.end=0.312", "--out", str(tmp_path / "short"), "--no-plots"]) == 0
    lines = capsys.readouterr().out.splitlines()
    head = next(i for i, line in enumerate(lines) if "closed form t (s)" in line)
    assert lines[head + 2].startswith("2 ") and lines[head + 2].count("—") == 1
    assert lines[head + 3] == ("closed form —: the closed_form rigid block has 1 impact up "
                               "to t = 0.312 s")
    assert lines[head + 4] == ""  # then the percussions, as before
    assert main(["rigid", "sdnv105_rigid", "--out", str(tmp_path / "full"), "--no-plots"]) == 0
    assert "—:" not in capsys.readouterr().out


def test_the_level_that_comes_to_rest_says_so():
    from rocking_contact.analytic.rigid_cli import missing_impacts

    levels = {"closed_form": {"impacts": [{}, {}, {}]}, "nonlinear": {"impacts": [{}, {}]}}
    extra = {"history_level": "nonlinear", "outcome": "rest",
             "events": [{"kind": "rest", "time": 0.8322734}]}
    assert missing_impacts(levels, 5, 2.0, extra) == [
        "nonlinear —: the nonlinear rigid block has 2 impacts up to t = 2 s, where it comes "
        "to rest at t = 0.832273 s"]
    assert missing_impacts(levels, 2, 2.0, extra) == []  # the table stops at 2 rows
