"""A ``--set`` text that is not ``KEY=VALUE`` (``--set time.step``, ``--set =1e-4``) is
refused in one line that says what is allowed: ``KEY=VALUE``, and for a key of the case's
kind what its value may be, as ``rocking-contact keys`` says it; exit code 2."""

import subprocess
import sys

import pytest

from rocking_contact.cli import main
from rocking_contact.config import CaseError, load_case, malformed_override

#: (case, --set text, the line's end after "FILE (with --set): ")
REFUSED = [
    ("sdnv105d", "time.step", "time.step: no '=' after the key (allowed: time.step=VALUE, "
                              "VALUE a number > 0, |x| <= 1e+06 s)"),
    ("sdnv105d", " contact.mu ", "contact.mu: no '=' after the key (allowed: contact.mu=VALUE, "
                                 "VALUE a number >= 0)"),
    ("sdnv105d", "mesh.layout", "mesh.layout: no '=' after the key (allowed: "
                                "mesh.layout=VALUE, VALUE one of 'aster', 'structured')"),
    # a table: its keys
    ("sdnv105d", "time", "time: no '=' after the key (allowed: time.KEY=VALUE, KEY one of "
                         "start, end, step, window, refine)"),
    # a list of tables, and one of its items, by index
    ("sdnd101a", "model.shock", "model.shock: no '=' after the key (allowed: "
                                "model.shock.N.KEY=VALUE, N an index, KEY one of name, node, "
                                "normal, gap, kn, cn, kt, ct, mu, friction)"),
    ("sdnd101a", "model.shock[0].kn", "model.shock[0].kn: no '=' after the key (allowed: "
                                      "model.shock[0].kn=VALUE, VALUE a number > 0, "
                                      "|x| <= 1e+16 N/m)"),
    # no key of the kind: the keys that come close
    ("sdnv105d", "time.stp", "time.stp: no '=' after the key, and no key of kind 'block' "
                             "(allowed: KEY=VALUE, KEY one that rocking-contact keys block "
                             "lists; close: time.step, time.start, time.refine.step)"),
    ("sdnv105d", "=1e-4", "=1e-4: no key before '=' (allowed: KEY=VALUE, KEY a dotted key "
                          "such as time.step; rocking-contact keys block lists them)"),
]


@pytest.mark.parametrize("case,text,said", REFUSED, ids=[t for _, t, _ in REFUSED])
def test_a_set_text_without_its_value_says_what_is_allowed(capsys, tmp_path, case, text,
                                                           said):
    code = main(["run", case, "--set", text, "--out", str(tmp_path / "r")])
    err = capsys.readouterr().err
    assert code == 2
    assert err == f"error: {load_case(case).source_file} (with --set): {said}\n"
    assert not (tmp_path / "r").exists()


def test_the_python_api_says_the_same_with_its_word():
    with pytest.raises(CaseError) as refused:
        load_case("sdnv105d", ["time.step"], given="overrides")
    assert str(refused.value).endswith("(with overrides): time.step: no '=' after the key "
                                       "(allowed: time.step=VALUE, VALUE a number > 0, "
                                       "|x| <= 1e+06 s)")


def test_without_a_kind_the_key_is_offered_as_given():
    """Override texts applied to no case (an unknown kind says nothing of its keys)."""
    assert malformed_override("time.step").problem == ("no '=' after the key (allowed: "
                                                       "time.step=VALUE)")
    assert malformed_override("time.step", "no such kind").problem == (
        "no '=' after the key (allowed: time.step=VALUE)")
    assert malformed_override("", ["a", "list"]).problem == (
        "an empty text (allowed: KEY=VALUE, KEY a dotted key such as time.step)")


def test_sweep_says_it_with_its_values():
    run = subprocess.run([sys.executable, "-m", "rocking_contact.cli", "sweep", "sdnv105d",
                          "--set", "contact.mu", "--out", "unused"],
                         capture_output=True, text=True)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr == ("error: --set: contact.mu: no '=' after the key (allowed: "
                          "contact.mu=V1,V2,..., each value a number >= 0)\n")
