"""CPU records are verified, not trusted: every CPU snippet is re-executed here.

One test per snippet, like pytest-examples: a failure shows the diff between the
committed record and what the snippet prints today. All snippets run once, in
parallel, in the background of the session from its start (tests/reexecute.py);
each in the other mode than the one that made its committed record (a fresh
interpreter or a fork of a warm one), so every test also checks that the two
modes print the same bytes. Accept a real change
on purpose with ``make records``.
"""

from __future__ import annotations

import pytest
from phase25.core import compare, records
from phase25.core.catalog import Catalog
from phase25.core.paths import DEFAULT_LAYOUT

CATALOG = Catalog.here(DEFAULT_LAYOUT)
CPU = sorted(s.id for s in CATALOG.snippets.values() if "cpu" in s.header.devices)


@pytest.fixture(scope="session")
def reexecuted(background_runs) -> dict:
    """Every CPU snippet re-executed: its new record, made in the background since collection (conftest.py)."""
    layout = background_runs.wait()
    return {snippet_id: records.load(layout, snippet_id, "cpu") for snippet_id in CPU}


@pytest.mark.slow
@pytest.mark.parametrize("snippet_id", CPU)
def test_cpu_record_matches_a_fresh_run(snippet_id, reexecuted):
    committed = CATALOG.standing(snippet_id, "cpu")
    assert committed.state == "current", f"{snippet_id}: {committed.state} ({committed.reason}); run `make records`"
    rerun = reexecuted[snippet_id]
    assert rerun is not None, f"{snippet_id}: the re-execution wrote no record"
    assert rerun.status == "ok", f"{snippet_id} {rerun.status}: {rerun.error}\n{rerun.stderr[-2000:]}"
    assert compare.mismatch(committed.record, rerun, CATALOG.snippets[snippet_id].header.volatile) == ""


@pytest.mark.slow
def test_most_snippets_are_compared_across_the_two_modes(reexecuted):
    """A snippet alone in its environment always runs fresh; the others ran in the other mode than their record's."""
    crossed = [s for s in CPU if reexecuted[s].run["mode"] != CATALOG.standing(s, "cpu").record.run.get("mode")]
    assert len(crossed) >= 0.75 * len(CPU), f"only {len(crossed)} of {len(CPU)} compared across modes"


def test_every_cuda_record_is_missing_or_current_never_stale():
    for (snippet_id, device), standing in CATALOG.standings.items():
        if device == "cuda":
            assert standing.state in ("missing", "current"), f"{snippet_id}: {standing.state} ({standing.reason})"
            if standing.record:
                assert standing.record.status == "ok" and standing.record.provenance.get("device_name")


def test_every_record_says_how_it_was_made():
    """`make records` makes them fresh; a build may add warm ones, which the runs above then check fresh."""
    assert [s for s in CPU if CATALOG.standing(s, "cpu").record.run.get("mode") not in ("fresh", "warm")] == []


def test_the_orientation_page_has_the_seed_example():
    record = CATALOG.standing("00-orientation/linear_grad_fn", "cpu").record
    assert "y.shape: (2, 600)" in record.stdout and "AddmmBackward0" in record.stdout
