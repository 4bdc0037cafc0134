"""`rocking-contact list` prints each case's title; a title that is no string is said to be
one, as `run` and `validate` refuse it (it printed `True`)."""

from rocking_contact.commands import list_cases


def test_a_title_that_is_no_string_is_named_so(tmp_path, capsys):
    good, bad = tmp_path / "good.toml", tmp_path / "bad.toml"
    good.write_text('[case]\nkind = "discrete"\ntitle = "a mass on a spring"\n')
    bad.write_text('[case]\nkind = "discrete"\ntitle = true\n')
    list_cases._print_cases({"good": good, "bad": bad}, 4)
    out = capsys.readouterr().out.splitlines()
    assert out == ["good  [discrete]  a mass on a spring",
                   "bad   [discrete]  (case.title: got true, allowed: a string)"], out


def test_the_titles_start_in_one_column(capsys):
    """'sdnd100a  [discrete]  SDND100 A...' and 'sdnv105a  [block]  SDNV105 A...': the
    titles of the block and rigid cases started 3 columns left of the discrete ones'."""
    from rocking_contact.cli import main

    assert main(["list"]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if "  [" in line]
    starts = {len(line) - len(line[line.index("]") + 1:].lstrip()) for line in lines}
    kinds = {line.split("[")[1].split("]")[0] for line in lines}
    assert kinds == {"discrete", "block", "rigid"} and len(starts) == 1, lines
