"""CPU and emulated records are verified, not trusted: every run this machine can make is re-executed here.

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
from phase25.core.devices import LOCAL
from phase25.core.paths import DEFAULT_LAYOUT

CATALOG = Catalog.here(DEFAULT_LAYOUT)
# Every (snippet, device) made here: the CPU runs and the emulated H200's code generation.
MADE_HERE = sorted((s.id, d) for s in CATALOG.snippets.values() for d in s.header.devices if d in LOCAL)


@pytest.fixture(scope="session")
def reexecuted(background_runs) -> dict:
    """Every run made here re-executed: its new record, made in the background since collection (conftest.py)."""
    layout = background_runs.wait()
    return {(snippet_id, device): records.load(layout, snippet_id, device) for snippet_id, device in MADE_HERE}


@pytest.mark.slow
@pytest.mark.parametrize(("snippet_id", "device"), MADE_HERE, ids=[f"{s}-{d}" for s, d in MADE_HERE])
def test_record_matches_a_fresh_run(snippet_id, device, reexecuted):
    committed = CATALOG.standing(snippet_id, device)
    assert committed.state == "current", f"{snippet_id}: {committed.state} ({committed.reason}); run `make records`"
    rerun = reexecuted[(snippet_id, device)]
    assert rerun is not None, f"{snippet_id}: the re-execution wrote no record"
    assert rerun.status == "ok", f"{snippet_id} {rerun.status}: {rerun.error}\n{rerun.stderr[-2000:]}"
    assert compare.mismatch(committed.record, rerun, CATALOG.snippets[snippet_id].header.volatile) == ""


@pytest.mark.slow
def test_most_snippets_are_compared_across_the_two_modes(reexecuted):
    """A snippet alone in its environment always runs fresh; the others ran in the other mode than their record's."""
    crossed = [k for k in MADE_HERE if reexecuted[k].run["mode"] != CATALOG.standing(*k).record.run.get("mode")]
    assert len(crossed) >= 0.75 * len(MADE_HERE), f"only {len(crossed)} of {len(MADE_HERE)} compared across modes"


def test_every_cuda_record_is_missing_or_current_never_stale():
    for (snippet_id, device), standing in CATALOG.standings.items():
        if device == "cuda":
            assert standing.state in ("missing", "current"), f"{snippet_id}: {standing.state} ({standing.reason})"
            if standing.record:
                assert standing.record.status == "ok" and standing.record.provenance.get("device_name")


def test_every_record_says_how_it_was_made():
    """`make records` makes them fresh; a build may add warm ones, which the runs above then check fresh."""
    assert [k for k in MADE_HERE if CATALOG.standing(*k).record.run.get("mode") not in ("fresh", "warm")] == []


def test_the_orientation_page_has_the_seed_example():
    record = CATALOG.standing("00-orientation/linear_grad_fn", "cpu").record
    assert "y.shape: (2, 600)" in record.stdout and "AddmmBackward0" in record.stdout
