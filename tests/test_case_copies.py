"""A copy of any shipped case file or variant, alone in a folder of the user's, loads as
the shipped case does: a file that extends another names its parent as a shipped case
(``extends = "sdnv105d"``), not by a path that holds only inside ``cases/``. The variants
under ``cases/variants/`` named theirs ``"../sdnv105d.toml"`` (``sdnv105d_sliding``:
``"sdnv105d_shaking.toml"``): a copy said 'extends: no such file ../sdnv105d.toml'."""

import shutil

import pytest

import rocking_contact as rc
from rocking_contact.config import as_dict, shipped_cases, variant_cases

CASES = {**shipped_cases(), **variant_cases()}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_copy_of_a_shipped_file_loads_as_the_shipped_case(name, tmp_path):
    copy = tmp_path / CASES[name].name
    shutil.copyfile(CASES[name], copy)
    assert as_dict(rc.load_case(str(copy))) == as_dict(rc.load_case(name))
