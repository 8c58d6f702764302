"""The diffs of a drift report too long for its page, published as files beside it.

The atlas's diff is thousands of lines of JSON: inline, folded, it made its page weigh 7 MB for a reader who
opened none of it. The smallest diffs stay on the page, folded, as long as together they weigh
at most :data:`INLINE_DIFFS_BYTES`; each longer one is a file of the built site instead, linked from its row,
and the page keeps what the atlas's change means (operators added, kernels gained, see core/atlas_drift.py).
"""

from __future__ import annotations

from pathlib import Path

from ...core import drift
from ...core.drift_shape import DriftReport

INLINE_DIFFS_BYTES = 48 * 1024  # of diffs on one drift page: with its table and summary, under 150 KB of HTML


def outside(report: DriftReport) -> frozenset[str]:
    """The snippets whose diffs are published as files: the longest, until the rest fit in the page's share."""
    sizes = sorted((len(e["diff"].encode("utf-8")), e["snippet"]) for e in report["entries"] if e.get("diff"))
    kept, found = 0, set()
    for size, snippet in sizes:
        if kept + size <= INLINE_DIFFS_BYTES:
            kept += size
        else:
            found.add(snippet)
    return frozenset(found)


def diff_url(report: str, snippet_id: str) -> str:
    """Where a snippet's diff in ``report`` lives, from the site's root: ``drift/<report>/<page>-<name>.diff``."""
    return f"drift/{report}/{snippet_id.replace('/', '-')}.diff"


def files(root: Path) -> dict[str, str]:
    """Every published diff of every committed report: site path -> its text."""
    found = {}
    for path in sorted((root / drift.REPORTS).glob("*.json")):
        report = drift.sound(root, path.stem)
        files_of = outside(report)
        for entry in report["entries"]:
            if entry["snippet"] in files_of:
                found[diff_url(path.stem, entry["snippet"])] = entry["diff"] + "\n"
    return found
