"""The figures the test session prints about its background re-execution, read from the background's log."""

from __future__ import annotations

import conftest

LOG = """\
[1/3] ok      model-card/retrain (cpu)  120.5s
[2/3] ok      theory-03/aoti_package (cpu)  20.0s
[3/3] failed  00-orientation/linear_grad_fn (cpu)  1.5s
cpu-seconds 151
"""


def test_the_figures_give_the_wall_time_the_wait_the_cpu_time_and_the_longest_runs_first():
    lines = conftest.background_figures(LOG, done=130.4, waited=12.6)
    assert lines[0] == (
        "re-executed 3 runs in the background: done 130 s after collection (the first test that needed it "
        "waited 13 s), 142 s of runs in all, 151 CPU-seconds; the longest:"
    )
    assert lines[1:] == [
        "    120.5 s  model-card/retrain (cpu)",
        "     20.0 s  theory-03/aoti_package (cpu)",
        "      1.5 s  00-orientation/linear_grad_fn (cpu)",
    ]


def test_a_log_cut_short_still_gives_its_runs_and_says_the_cpu_time_is_unknown():
    lines = conftest.background_figures(LOG.rsplit("cpu-seconds", 1)[0], done=5, waited=0)
    assert "3 runs" in lines[0] and "? CPU-seconds" in lines[0] and len(lines) == 4
