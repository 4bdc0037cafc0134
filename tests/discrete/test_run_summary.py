"""What ``run`` prints of a discrete case with nothing to check (S29 U1 #5): its impacts,
a few rows and how many more, and its energy balance's largest residual, as a block run
prints its collisions and its balance."""

import pytest
from twomass_case import twomass_case

import rocking_contact as rc
from rocking_contact import summary
from rocking_contact.cli import main


@pytest.fixture(scope="module")
def case(tmp_path_factory):
    return twomass_case(tmp_path_factory.mktemp("twomass"))


def test_run_prints_the_impacts_and_the_energy_balance(case, tmp_path, capsys):
    assert main(["run", str(case), "--out", str(tmp_path / "out"), "--no-plots"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    head = lines.index("impacts (4):")
    assert lines[head + 1].split() == ["k", "shock", "node", "start", "(s)", "max", "force",
                                       "(N)", "impact", "speed", "(m/s)", "rebound", "speed",
                                       "(m/s)", "impulse", "(N.s)"]
    result = rc.load_result(tmp_path / "out")
    for impact, line in zip(result.impacts, lines[head + 2:head + 6], strict=True):
        cells = line.split()
        assert cells[:3] == [str(impact["index"]), "STOP", "N2"]
        assert float(cells[3]) == pytest.approx(impact["start"], rel=1e-5)
        assert float(cells[4]) == pytest.approx(impact["max_force"], rel=1e-3)
        assert float(cells[5]) == pytest.approx(impact["speed"], rel=1e-3)
        assert float(cells[6]) == pytest.approx(impact["rebound_speed"], rel=1e-3)
        assert float(cells[7]) == pytest.approx(impact["impulse"], rel=1e-3)
    energy = result.extra["energy"]
    balance = next(x for x in lines if x.startswith("energy balance:"))
    assert f"largest |residual| {energy['residual_max_abs']:.3g} J" in balance
    assert "of the largest mechanical energy, 3.13 J" in balance
    # the stick springs of its regularised friction held in ESPRING, their work in
    # EFRICTION (c6fb5a4): the balance closes (it was 0.684 J, 22 %, without them)
    assert energy["residual_max_abs"] < 1e-3 * energy["motion"]
    # but its regularised law supplied 1.1 J (35 %) that the residual does not show
    assert energy["stick_supplied"] > 0.3 * energy["motion"]
    assert (f"; the regularised friction law supplied {energy['stick_supplied']:.3g} J "
            f"({100 * energy['stick_supplied'] / energy['motion']:.2g} % of it, ESTICK)"
            in balance)
    assert lines[-1].startswith("twomass: 50000 steps")


def test_a_long_list_is_cut(case, monkeypatch, capsys):
    result = rc.run(rc.load_case(case), write=False, quiet=True)
    monkeypatch.setattr(summary, "IMPACTS_SHOWN", 2)
    summary.show_result(result)
    out = capsys.readouterr().out
    assert "impacts (4):" in out and "... 2 more (results.json impacts)" in out
    assert "\n3  STOP" not in out


def test_without_an_impact_or_a_shock(case, capsys):
    never = rc.run(rc.load_case(case, ["time.end=0.001"]), write=False, quiet=True)
    summary.show_result(never)
    out = capsys.readouterr().out
    assert "impacts: none" in out and "energy balance: largest |residual|" in out
    assert "supplied" not in out  # no stick phase after a slide
    free = rc.run(rc.load_case(case, ["time.end=0.001", "model.shock=[]"]), write=False,
                  quiet=True)
    summary.show_result(free)
    out = capsys.readouterr().out
    assert "impacts" not in out and "energy balance: largest |residual|" in out
    thinned = rc.run(rc.load_case(case, ["time.end=0.01", "output.every=5"]), write=False,
                     quiet=True)
    summary.show_result(thinned)
    assert "energy balance: not computed: output.every = 5" in capsys.readouterr().out
