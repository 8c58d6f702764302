"""What a drift entry's two outputs say about each other: its kind, its diff, the atlas's changes, the warnings.

Derived, never written by hand: :func:`drift.between` derives them when it compares, :func:`drift.rederived`
again by today's rules, and :func:`drift.problems` checks that a committed report's follow from its outputs.
"""

from __future__ import annotations

from typing import Any

from . import atlas_drift
from .drift_diff import diff
from .drift_rule import classify


def warning_changes(a: dict[str, Any] | None, b: dict[str, Any] | None) -> dict[str, list[dict[str, str]]]:
    """The warnings the new torch emits that the old did not (a deprecation on its way), and those it no longer
    emits, compared by category, module and message."""

    def key(w: dict[str, str]) -> tuple[str, str, str]:
        return w["category"], w["module"], w["message"]

    before = {key(w): w for w in (a or {}).get("warnings", [])}
    after = {key(w): w for w in (b or {}).get("warnings", [])}
    return {
        "new": [after[k] for k in sorted(set(after) - set(before))],
        "gone": [before[k] for k in sorted(set(before) - set(after))],
    }


def derived(state: str, a: dict | None, b: dict | None, volatile: tuple[str, ...], switch: bool) -> dict[str, Any]:
    """What an entry's two outputs say about each other: kind, diff, atlas changes and warnings."""
    changed = state == "changed" and a is not None and b is not None
    return {
        "kind": classify(a, b, volatile, switch) if changed and a and b else None,
        "diff": diff(a, b) if changed else "",
        "atlas": atlas_drift.changes(a, b, switch) if changed else None,
        "warnings": warning_changes(a, b),
    }
