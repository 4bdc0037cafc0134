"""A block case's time scheme is refused for its type before its alpha: a bad
``scheme.type`` given with an ``alpha`` (which only the alpha schemes read) is said as the
type's error, whatever that alpha and the order of the ``--set``; with a good type, the
alpha's own error."""

import pytest
from test_bad_input import assert_one_line_error

from rocking_contact.cli import main

BAD_TYPE = "scheme.type: got 'bogus', allowed: one of 'newmark', 'alpha_newmark', 'hht', 'theta'"


@pytest.mark.parametrize("alpha", ["-0.1", "5"])
def test_a_bad_type_is_said_before_its_alpha(capsys, tmp_path, alpha):
    code = main(["run", "sdnv105a", "--out", str(tmp_path), "--set", f"scheme.alpha={alpha}",
                 "--set", "scheme.type=bogus"])
    assert_one_line_error(capsys, code, ["sdnv105a.toml (with --set)", BAD_TYPE])


def test_with_a_good_type_the_alpha_is_said(capsys, tmp_path):
    code = main(["run", "sdnv105a", "--out", str(tmp_path), "--set", "scheme.alpha=5",
                 "--set", "scheme.type=hht"])
    assert_one_line_error(capsys, code, ["sdnv105a.toml (with --set)",
                                         "scheme.alpha: got 5.0, allowed: a number in "
                                         "[-0.333333, 0]"])
