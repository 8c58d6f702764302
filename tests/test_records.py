"""CPU and emulated records are verified, not trusted: every run this machine can make is re-executed, the runs of
every chapter but theory 03 here (theory 03's in test_records_theory_03.py, a family of its own).

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
from records_check import APART, MADE_HERE, chapter, check, ids

RUNS = [run for run in MADE_HERE if chapter(run[0]) != APART]


@pytest.mark.slow
@pytest.mark.parametrize(("snippet_id", "device"), RUNS, ids=ids(RUNS))
def test_record_matches_a_fresh_run(snippet_id, device, reexecuted):
    check(snippet_id, device, reexecuted)
