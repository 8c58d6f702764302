"""Theory 03's records (torch.compile and distributed training, the longest runs) verified like every other
chapter's in test_records.py, in a family of their own so that CI re-executes them beside the others."""

from __future__ import annotations

import pytest
from records_check import APART, MADE_HERE, chapter, check, ids

RUNS = [run for run in MADE_HERE if chapter(run[0]) == APART]


@pytest.mark.slow
@pytest.mark.parametrize(("snippet_id", "device"), RUNS, ids=ids(RUNS))
def test_record_matches_a_fresh_run(snippet_id, device, reexecuted):
    check(snippet_id, device, reexecuted)
