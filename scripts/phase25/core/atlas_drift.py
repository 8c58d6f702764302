"""What a torch upgrade changes in the dispatcher atlas: operators added and removed, kernels gained and lost.

The atlas snippet writes one JSON line per overload (artifacts ``atlas/*.jsonl``). Its plain diff is
thousands of lines; this reads both sides and says, operator by operator, what changed in what the atlas
teaches: a kernel registered under a key or gone from it, a different composite kind, a decomposition
added or removed, another treatment by Inductor, another ``grad_fn``.
"""

from __future__ import annotations

import json
from typing import Any

FIELDS = ("composite", "decomposition", "inductor", "grad_fn")


def overloads(output: dict[str, Any] | None) -> dict[str, dict[str, Any]] | None:
    """name -> entry of an output's atlas files, None when the output holds no atlas."""
    files = {
        n: t
        for n, t in ((output or {}).get("artifacts") or {}).items()
        if n.startswith("atlas/") and n.endswith(".jsonl")
    }
    if not files:
        return None
    found = {}
    for text in files.values():
        for line in text.splitlines():
            if line.strip():
                entry = json.loads(line)
                found[entry["name"]] = entry
    return found


def changes(a: dict[str, Any] | None, b: dict[str, Any] | None) -> dict[str, Any] | None:
    """The atlas's changes from output ``a`` to output ``b``; None when either side has no atlas."""
    before, after = overloads(a), overloads(b)
    if before is None or after is None:
        return None
    found: dict[str, Any] = {
        "added": sorted(set(after) - set(before)),
        "removed": sorted(set(before) - set(after)),
        "kernels_gained": {},
        "kernels_lost": {},
        **{field: {} for field in FIELDS},
    }
    for name in sorted(set(before) & set(after)):
        old, new = before[name], after[name]
        gained, lost = (
            sorted(set(new["kernels"]) - set(old["kernels"])),
            sorted(set(old["kernels"]) - set(new["kernels"])),
        )
        if gained:
            found["kernels_gained"][name] = gained
        if lost:
            found["kernels_lost"][name] = lost
        for field in FIELDS:
            if old.get(field) != new.get(field):
                found[field][name] = [old.get(field), new.get(field)]
    return found
