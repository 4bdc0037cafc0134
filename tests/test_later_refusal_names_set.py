"""A refusal made when a run starts, not at load, says "(with --set)" when the key it
refuses came from --set, as load_case's own refusals do (config.file_label's key)."""

from rocking_contact.cli import main


def test_the_rigid_twin_of_a_block_at_rest_names_the_set(tmp_path, capsys):
    code = main(["rigid", "sdnv105d", "--set", "initial.state=rest", "--set",
                 "collisions.rigid=false", "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "\n" not in err, err
    assert "sdnv105d.toml (with --set): initial.state: 'rest' gives no preload tilt" in err


def test_a_key_of_the_file_names_the_file_alone(tmp_path, capsys):
    """The same refusal of a file that gives initial.state itself has no '(with --set)'."""
    case = tmp_path / "rest.toml"
    case.write_text('extends = "sdnv105d"\n[initial]\nstate = "rest"\n'
                    '[collisions]\nrigid = false\n')
    code = main(["rigid", str(case), "--set", "time.end=0.01", "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err.strip()
    assert code == 2 and f"{case}: initial.state: 'rest'" in err, err
