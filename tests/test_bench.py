"""The benchmark reports a failed run or build as a figure and still prints the others."""

from __future__ import annotations

from types import SimpleNamespace

from phase25.tools import bench

COLD = {
    "runs": 3,
    "workers": 2,
    "sum_single_s": 12.0,
    "longest_single_s": 6.0,
    "fresh_parallel_s": 6.5,
    "fresh_ratio": 1.083,
    "bound_by_longest_run": 1.0,
    "warm_parallel_s": 4.0,
    "warm_over_fresh": 0.615,
    "warm_runs": 3,
    "warm_outputs_differing_from_fresh": [],
    "notes": [],
    "warm_busy_s": 7.0,
    "warm_idle_worker_s": 1.0,
    "warm_floor_s": 3.5,
    "warm_floor_over_fresh": 0.538,
    "warm_longest": [["model-card/retrain", 3.0], ["atlas/operators", 2.5]],
}
COUNTS = {"nothing_changed": 0, "one_snippet_edited": 1, "all_stale": 3, "cpu_pairs": 3}


def test_failures_are_figures_beside_the_others():
    figures = {
        "warm_rebuild": {"failed": "the build of real failed: ['ERROR - snippet x (cpu): failed']"},
        "cold_execution": {**COLD, "failed": ["model-card/retrain: exited with status 1"]},
        "executions_per_build": {**COUNTS, "all_stale_failed": "Aborted with 1 problem"},
    }
    lines = bench.report(figures).splitlines()
    assert lines[0] == "warm rebuild      not measured: the build of real failed: ['ERROR - snippet x (cpu): failed']"
    assert "failed run        model-card/retrain: exited with status 1" in lines
    assert "failed build      all_stale: Aborted with 1 problem" in lines
    assert any(line.startswith("cold execution    3 CPU runs; one at a time 12.0 s") for line in lines)
    assert any(line.startswith("warm interpreters 4.0 s on 2 workers, 3 runs forked: 0.615x") for line in lines)
    assert any(
        line.startswith("executions        nothing changed: 0, one snippet edited: 1, all stale: 3") for line in lines
    )


def test_a_clean_run_prints_no_failure_line():
    figures = {
        "warm_rebuild": {
            "real_s": 3.9,
            "plain_s": 3.6,
            "ratio": 1.083,
            "plain_snippets_only_s": 3.0,
            "ratio_snippets_only": 1.3,
        },
        "cold_execution": {**COLD, "failed": []},
        "executions_per_build": COUNTS,
    }
    text = bench.report(figures)
    assert "failed" not in text and "not measured" not in text
    assert text.splitlines()[0] == (
        "warm rebuild      3.90 s vs 3.60 s with plain code blocks and the other directives' HTML: 1.08x "
        "(target <= 1.05x); vs 3.00 s with plain code blocks alone: 1.30x"
    )


def test_a_failed_build_is_named_by_the_warnings_that_failed_it_not_its_last_line():
    log = (
        "INFO    -  Cleaning site directory\n"
        "WARNING -  snippets/theory-01/bf16_uncapped.py (cpu): the note quotes `brg_matmul:avx512_core_bf16`, "
        "which its output does not show\n"
        "INFO    -  Documentation built in 3.2 seconds\n"
        "INFO    -  Evicted stale cache: x\n"
    )
    why = bench.why_it_failed(log, 1)
    assert why.startswith("WARNING -  snippets/theory-01/bf16_uncapped.py (cpu): the note quotes")
    assert "Evicted" not in why
    many = "".join(f"WARNING -  problem {i}\n" for i in range(5))
    assert bench.why_it_failed(many, 1).endswith("problem 2 (and 2 more)")
    assert bench.why_it_failed("", 3) == "exit status 3"


def test_the_warm_runs_time_is_split_into_runs_idle_workers_and_a_floor():
    made = [
        SimpleNamespace(snippet=name, run={"wall_s": wall, "mode": "warm"})
        for name, wall in (("a", 9.0), ("b", 2.0), ("c", 1.0))
    ]
    where = bench.where_warm_time_goes(bench.pool.Outcome(executed=made, wall_s=10.0), 2, 20.0)
    assert where["warm_busy_s"] == 12.0 and where["warm_idle_worker_s"] == 8.0
    assert where["warm_floor_s"] == 9.0 and where["warm_floor_over_fresh"] == 0.45  # the longest run, not 12 / 2
    assert where["warm_longest"][0] == ["a", 9.0]
    even = [SimpleNamespace(snippet=name, run={"wall_s": 2.0}) for name in "def"]
    spread = bench.where_warm_time_goes(bench.pool.Outcome(executed=even, wall_s=4.0), 2, 20.0)
    assert spread["warm_floor_s"] == 3.0 and spread["warm_idle_worker_s"] == 2.0  # three runs on two workers
    line = next(
        x
        for x in bench.report(
            {"warm_rebuild": {"failed": "x"}, "cold_execution": {**COLD, "failed": []}, "executions_per_build": COUNTS}
        ).splitlines()
        if x.startswith("warm time")
    )
    assert "7.0 s of runs, 1.0 worker-seconds idle" in line and "= 0.538x the fresh figure" in line
    assert line.endswith("longest: model-card/retrain 3.0 s, atlas/operators 2.5 s")
