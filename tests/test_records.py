"""CPU records are verified, not trusted: every CPU snippet is re-executed here.

One test per snippet, like pytest-examples: a failure shows the diff between the
committed record and what the snippet prints today. Accept a real change on
purpose with ``make records``.
"""

from __future__ import annotations

import pytest
from phase25 import cli, execute, records, runner
from phase25.paths import DEFAULT_LAYOUT

SNIPPETS = records.discover(DEFAULT_LAYOUT)
CPU = [s for s in SNIPPETS if "cpu" in s.header.devices]
CUDA = [s for s in SNIPPETS if "cuda" in s.header.devices]


@pytest.mark.slow
@pytest.mark.parametrize("snippet", CPU, ids=[s.id for s in CPU])
def test_cpu_record_matches_a_fresh_run(snippet, tmp_path):
    committed = records.freshness(DEFAULT_LAYOUT, snippet, "cpu", runner.installed_torch())
    assert committed.state == "current", f"{snippet.id}: {committed.state} ({committed.reason}); run `make records`"
    fresh = execute.run_one(snippet, "cpu", DEFAULT_LAYOUT)
    assert fresh.status == "ok", f"{snippet.id} {fresh.status}: {fresh.error}\n{fresh.stderr[-2000:]}"
    assert cli.describe_drift(committed.record, fresh) == ""


@pytest.mark.parametrize("snippet", CUDA, ids=[s.id for s in CUDA])
def test_cuda_records_are_missing_or_current_never_stale(snippet):
    fresh = records.freshness(DEFAULT_LAYOUT, snippet, "cuda")
    assert fresh.state in ("missing", "current"), f"{snippet.id}: {fresh.state} ({fresh.reason})"
    if fresh.record:
        assert fresh.record.status == "ok" and fresh.record.provenance.get("device_name")


def test_the_orientation_page_has_the_seed_example():
    snippet = next(s for s in SNIPPETS if s.id == "00-orientation/linear_grad_fn")
    record = records.load(DEFAULT_LAYOUT, snippet.id, "cpu")
    assert "y.shape: (2, 600)" in record.stdout and "AddmmBackward0" in record.stdout
