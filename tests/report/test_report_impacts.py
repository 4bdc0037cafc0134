"""The impacts table of an unresolved run: what was not measured is a dash, never "nan"."""

import math

import rocking_contact as rc
from rocking_contact import results_io
from rocking_contact.report.case_tables import IMPACT_FIELDS, impacts_table
from rocking_contact.report.document import MISSING


def test_an_unresolved_impact_shows_its_bracket_and_dashes(tmp_path):
    """sdnd101a with Newmark and a 1e12 N/m stop (a contact of 0.063 step): its impacts'
    duration, maximum and instant of maximum are NaN in the run, null in results.json and
    a dash in the table; start, end, impulse and speeds are numbers, as a resolved run's."""
    rc.run(rc.load_case("sdnd101a", {"solver.scheme": "newmark", "model.shock.0.kn": 1e12,
                                     "time.end": 0.5}),
           out=tmp_path / "run", quiet=True, plots=False)
    data, _ = results_io.load(tmp_path / "run")
    table = impacts_table("sdnd101a", data["impacts"])
    assert table.header[2:] == [h for _, h in IMPACT_FIELDS]
    assert len(table.rows) == len(data["impacts"]) == 2
    for row, impact in zip(table.rows, data["impacts"], strict=True):
        cells = dict(zip([k for k, _ in IMPACT_FIELDS], [c.text for c in row[2:]],
                         strict=True))
        for key in ("t_max", "max_force", "duration"):
            assert impact[key] is None and cells[key] == MISSING
        for key in ("start", "end", "impulse", "speed", "rebound_speed"):
            assert math.isclose(float(cells[key]), impact[key], rel_tol=5e-7)
        assert cells["resolved"] == "false"
        assert not any("nan" in c.text.lower() for c in row)
