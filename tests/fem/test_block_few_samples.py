"""A block run warns of a table sine its steps sample fewer than ten times a period, as
discrete and rigid runs do (E3's 2310a07 left the block's call out): sdnv105d_shaking's
sine at 2000 Hz under 1e-4 s steps has 5 samples a period, and ran without a word."""

import rocking_contact as rc


def test_a_block_run_warns_of_a_sine_of_few_samples():
    case = rc.load_case("sdnv105d_shaking", {"loading.table_acceleration_x.frequency": 2000.0,
                                             "time.end": 0.0005})
    result = rc.run(case, write=False, plots=False, quiet=True)
    said = [w for w in result.warnings if "samples a period" in w]
    assert said == [
        "loading.table_acceleration_x: a sine of 2000 Hz sampled every time.step 0.0001 s has "
        "5 samples a period, fewer than 10: the run sees its peaks cut and its phase shifted "
        "(a step <= 5e-05 s gives 10)"], result.warnings
