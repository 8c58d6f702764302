"""What the records families compare: every run this machine makes, split by chapter so that CI re-executes the
chapters in two jobs at once (tests/families.py); each run belongs to exactly one of the two test modules."""

from __future__ import annotations

from phase25.core import compare, records
from phase25.core.catalog import Catalog
from phase25.core.devices import LOCAL
from phase25.core.paths import DEFAULT_LAYOUT, Layout

CATALOG = Catalog.here(DEFAULT_LAYOUT)
# Every (snippet, device) made here: the CPU runs and the emulated H200's code generation.
MADE_HERE = sorted((s.id, d) for s in CATALOG.snippets.values() for d in s.header.devices if d in LOCAL)
# The chapter whose runs are a family of their own (compile and distributed: about 60 % of the re-execution's time).
APART = "theory-03"


def chapter(snippet_id: str) -> str:
    return snippet_id.split("/", 1)[0]


def ids(runs: list[tuple[str, str]]) -> list[str]:
    return [f"{snippet_id}-{device}" for snippet_id, device in runs]


def check(snippet_id: str, device: str, reexecuted: Layout) -> None:
    """The committed record is current and the run re-executed today prints what it holds."""
    committed = CATALOG.standing(snippet_id, device)
    assert committed.state == "current", f"{snippet_id}: {committed.state} ({committed.reason}); run `make records`"
    rerun = records.load(reexecuted, snippet_id, device)
    assert rerun is not None, f"{snippet_id}: the re-execution wrote no record"
    assert rerun.status == "ok", f"{snippet_id} {rerun.status}: {rerun.error}\n{rerun.stderr[-2000:]}"
    assert compare.mismatch(committed.record, rerun, CATALOG.snippets[snippet_id].header.volatile) == ""
