"""RunResult in memory: what its columns and its repr count agree."""

import numpy as np

import rocking_contact as rc


def _block(collisions):
    t = np.linspace(0.0, 0.28, 5)
    return rc.RunResult(case="sdnv105a", kind="block", parameters={},
                        history={"time": t, "EKIN_BLOCK": t}, collisions=collisions)


def test_the_collision_columns_are_the_collisions_repr_counts():
    """sdnv105a at 5 ms: repr said 1 collision, columns("collisions")["time"] gave five
    times, the run's end and the previous collision again among them."""
    rows = [{"index": 1, "time": 0.255, "kinetic_energy": 1.8, "interior": True,
             "impact": 0.25},
            *({"index": k, "time": 0.255, "kinetic_energy": 1.8, "interior": False,
               "impact": None} for k in (2, 3, 4)),
            {"index": 5, "time": 0.28, "kinetic_energy": 0.4, "interior": False,
             "impact": None}]
    result = _block(rows)
    columns = result.columns("collisions")
    assert list(columns["time"]) == [0.255] and columns["interior"].all()
    assert columns["index"].dtype == np.int64 and list(columns["index"]) == [1]
    assert ", 1 collision," in repr(result)
    assert len(result.collisions) == 5  # the list keeps every maximum, flagged
    assert result.to_json()["collisions"] == rows


def test_no_collision_gives_the_empty_columns_of_the_rows():
    """sdnv105d to 0.06 s at a 0.015 tilt: one maximum, the run's last instant."""
    result = _block([{"index": 1, "time": 0.06, "kinetic_energy": 3.0, "interior": False,
                      "impact": None}])
    columns = result.columns("collisions")
    assert columns["time"].shape == (0,) and columns["time"].dtype == float
    assert ", 0 collisions," in repr(result)


def test_repr_counts_the_rows_of_the_kind_in_words():
    """U1 #13: a block run's repr said '1 collisions, 0 impacts' of a collision marked
    impact 1: ``impacts`` are a discrete run's rows, which a block has not."""
    block = _block([{"index": 1, "time": 0.0692, "kinetic_energy": 8.6, "interior": True,
                     "impact": 1}])
    block.quantities = {"collision.1.time": 0.0692}
    assert repr(block).endswith("history 2 columns x 5 rows over t = 0..0.28 s; 1 quantity, "
                                "1 collision, 0 warnings>")
    discrete = rc.RunResult(case="twomass", kind="discrete", parameters={},
                            history={"time": np.zeros(1)}, warnings=["w"],
                            impacts=[{"index": k} for k in (1, 2, 3, 4)])
    assert repr(discrete).endswith("history 1 column x 1 row over t = 0..0 s; 0 quantities, "
                                   "4 impacts, 1 warning>")
    rigid = rc.RunResult(case="sdnv105_rigid", kind="rigid", parameters={}, history={},
                         collisions=[{"index": 1, "time": 0.05, "corner": "A"}])
    assert repr(rigid).endswith("history 0 columns x 0 rows; 0 quantities, 1 collision, "
                                "0 warnings>")


def test_a_rigid_runs_collisions_are_all_collisions():
    """The rigid block's collisions are its impacts: no interior flag, none left out."""
    rows = [{"index": k, "time": 0.05 * k, "corner": "A"} for k in (1, 2)]
    result = rc.RunResult(case="sdnv105_rigid", kind="rigid", parameters={},
                          history={}, collisions=rows)
    assert list(result.columns("collisions")["index"]) == [1, 2]


def test_the_table_says_not_reached_where_validate_says_incomplete():
    """A check the run ended before showed FAIL in the table beside validate's
    INCOMPLETE verdict for the same run."""
    from rocking_contact.post.references import format_table

    base = {"reference": 1.0, "rel_error": None, "tolerance": 0.01,
            "tolerance_kind": "relative", "source": "analytic"}
    checks = [{**base, "quantity": "a", "value": 1.0, "passed": True, "note": ""},
              {**base, "quantity": "b", "value": 2.0, "passed": False, "note": ""},
              {**base, "quantity": "c", "value": None, "passed": False,
               "note": "not reached: the window ends after the run"}]
    rows = format_table("x", checks).splitlines()[3:]
    assert [r.split()[-1] for r in rows] == ["ok", "FAIL", "reached"]
    assert rows[-1].endswith("not reached")
