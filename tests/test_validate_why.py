"""The command line's comparison table says why a check misses, under its FAIL row, from
its reference's note (the report shows the whole note; the terminal had only the mark)."""

from rocking_contact.post.references import format_table, miss_reason

NOTE = ("mark 1 % (issue 4); misses: [0, 0.05] s starts at the release, where RN at O is "
        "still the static reaction (4097 N, +14.5 %); over Code_Aster's window 0.01-0.05 s "
        "it is 3599.5 N (+0.57 %): docs/contact.md, 'What misses the acceptance'")


def check(value, note, passed):
    return {"quantity": "rn_max_O", "reference": 3579.25, "value": value,
            "abs_error": abs(value - 3579.25), "rel_error": abs(value - 3579.25) / 3579.25,
            "tolerance": 0.01, "tolerance_kind": "relative", "abs_tolerance": 35.7925,
            "source": "analytic rigid", "passed": passed, "note": note}


def test_a_failed_check_says_why_under_its_row():
    table = format_table("sdnv105a", [check(4096.53, NOTE, False)]).splitlines()
    row = next(i for i, line in enumerate(table) if line.startswith("rn_max_O"))
    assert "FAIL" in table[row]
    why = table[row + 1:]
    assert why[0].startswith("    why: [0, 0.05] s starts at the release")
    assert all(len(line) <= 100 for line in why)
    assert " ".join(line.strip() for line in why) == "why: " + miss_reason(NOTE)


def test_a_passing_check_or_a_note_without_a_reason_adds_nothing():
    for c in (check(3590.0, NOTE, True), check(4096.53, "mark 1 % (issue 4)", False),
              check(4096.53, None, False)):
        assert "why:" not in format_table("sdnv105a", [c])
