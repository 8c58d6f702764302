"""The atlas as it was before the last upgrade: the drift report that ends at this torch embeds it.

The atlas page says what each overload registers differently since the previous release
(:func:`atlas_drift.registry_changes`); the previous release's atlas is the old side of the atlas snippet's
output in that report.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from .atlas_drift import overloads


def previous(reports: Path, torch: str) -> tuple[str, dict[str, dict[str, Any]] | None]:
    """(torch build, overloads) of the atlas before the last upgrade: the drift report that ends at ``torch``
    embeds the atlas's output on both sides. ("", None) when there is none."""
    if not reports.is_dir():
        return "", None
    return _previous(reports, torch, reports.stat().st_mtime)


@lru_cache(maxsize=4)
def _previous(reports: Path, torch: str, stamp: float) -> tuple[str, dict[str, dict[str, Any]] | None]:
    """``stamp`` is the folder's modification time, so a new report is read again."""
    for path in sorted(reports.glob(f"torch-*-to-{torch}.json")):
        report = json.loads(path.read_text(encoding="utf-8"))
        for item in report.get("entries", []):
            compared = report.get("devices", [report.get("device")])  # an older report compared one device
            if item.get("snippet") == "atlas/operators" and item.get("device") in compared:
                before = overloads((item.get("output") or {}).get("a"))
                if before is not None:
                    return report["a"].get("build", report["a"]["torch"]), before
    return "", None
