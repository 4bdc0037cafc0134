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


def test_a_copied_parent_beside_its_child_is_the_one_extended(tmp_path):
    """Copies of sdnv105a.toml and sdnv105d.toml side by side, the first edited: the copy
    of d extends the edited copy, not the shipped a (it loaded density 1450 while the copy
    beside it said 2000)."""
    for name in ("sdnv105a", "sdnv105d"):
        shutil.copyfile(CASES[name], tmp_path / CASES[name].name)
    parent = tmp_path / "sdnv105a.toml"
    text = parent.read_text()
    assert text.count("density = 1450.0") == 1
    parent.write_text(text.replace("density = 1450.0", "density = 2000.0"))
    assert rc.load_case(str(tmp_path / "sdnv105d.toml")).material.block.density == 2000.0
    assert rc.load_case("sdnv105d").material.block.density == 1450.0


def test_a_file_may_extend_the_shipped_case_of_its_own_name(tmp_path):
    """./sdnv105a.toml with extends = "sdnv105a" extends the shipped sdnv105a (since
    d6e8772 it took itself for the copy beside it: 'extends: sdnv105a closes a cycle')."""
    own = tmp_path / "sdnv105a.toml"
    own.write_text('extends = "sdnv105a"\n\n[material.block]\ndensity = 2000.0\n')
    assert rc.load_case(str(own)).material.block.density == 2000.0
