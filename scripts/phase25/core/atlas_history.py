"""The atlas as it was before the last upgrade: the drift report that ends at this torch embeds it.

The atlas page says what each overload registers differently since the previous release
(:func:`atlas_drift.registry_changes`); the previous release's atlas is the old side of the atlas snippet's
output in that report, read through drift's checked reader like every other reader of reports.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from . import drift
from .atlas_drift import overloads


def previous(reports: Path, torch: str) -> tuple[str, dict[str, dict[str, Any]] | None]:
    """(torch build, overloads) of the atlas before the last upgrade: the drift report that ends at ``torch``
    embeds the atlas's output on both sides. ("", None) when there is none."""
    if not reports.is_dir():
        return "", None
    return _previous(reports, torch, reports.stat().st_mtime)


@lru_cache(maxsize=4)
def _previous(reports: Path, torch: str, stamp: float) -> tuple[str, dict[str, dict[str, Any]] | None]:
    """``stamp`` is the folder's modification time, so a new report is read again. Each report is read through
    :func:`drift.sound`: a damaged one stops the build, naming the file."""
    for path in sorted(reports.glob(f"torch-*-to-{torch}.json")):
        report = drift.sound(reports.parents[1], path.stem)
        compared = report["devices"] if "devices" in report else [report.get("device", "")]  # an older report: one
        for item in report["entries"]:
            if item["snippet"] == "atlas/operators" and item["device"] in compared:
                before = overloads(item["output"]["a"])
                if before is not None:
                    return report["a"]["build"] or report["a"]["torch"] or "", before
    return "", None
