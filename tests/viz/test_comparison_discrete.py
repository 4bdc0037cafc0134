"""A discrete run records EKIN since 5c7bf98, so compare_kinetic_energy draws it: the
title said 'kinetic energy of the block' of a spring-mass system, and the refusal of a
run without one said 'allowed: block and rigid runs'."""

import xml.etree.ElementTree as ET

import rocking_contact as rc
from rocking_contact.viz.comparison import compare_kinetic_energy


def test_a_discrete_run_is_no_block(tmp_path):
    result = rc.run(rc.load_case("sdnd101a", {"time.end": 0.01}), write=False, quiet=True,
                    plots=False)
    written = compare_kinetic_energy("sdnd101a", [result], tmp_path)
    svg = next(p for p in written if p.suffix == ".svg")
    text = " ".join(t for el in ET.parse(svg).getroot().iter() if el.tag.endswith("text")
                    for t in el.itertext())
    assert "sdnd101a with time.end = 0.01: kinetic energy" in text
    assert "of the block" not in text
