"""What a drift entry's two outputs say about each other: its kind, its diff, the atlas's changes, the warnings.

Derived, never written by hand: :func:`drift.between` derives them when it compares, :func:`drift.rederived`
again by today's rules, and :func:`drift.problems` checks that a committed report's follow from its outputs.
"""

from __future__ import annotations

from typing import cast

from . import atlas_drift
from .drift_diff import diff
from .drift_rule import Output, classify
from .drift_shape import Derived, WarningChanges


def warning_changes(a: Output | None, b: Output | None) -> WarningChanges:
    """The warnings the new torch emits that the old did not (a deprecation on its way), and those it no longer
    emits, compared by category, module and message."""

    def key(w: dict[str, str]) -> tuple[str, str, str]:
        return w["category"], w["module"], w["message"]

    def warnings(output: Output | None) -> list[dict[str, str]]:
        return cast(list[dict[str, str]], (output or {}).get("warnings", []))

    before = {key(w): w for w in warnings(a)}
    after = {key(w): w for w in warnings(b)}
    return {
        "new": [after[k] for k in sorted(set(after) - set(before))],
        "gone": [before[k] for k in sorted(set(before) - set(after))],
    }


def derived(state: str, a: Output | None, b: Output | None, volatile: tuple[str, ...], switch: bool) -> Derived:
    """What an entry's two outputs say about each other: kind, diff, atlas changes and warnings."""
    changed = state == "changed" and a is not None and b is not None
    return {
        "kind": classify(a, b, volatile, switch) if changed and a and b else None,
        "diff": diff(a, b) if changed else "",
        "atlas": atlas_drift.changes(a, b, switch) if changed else None,
        "warnings": warning_changes(a, b),
    }
