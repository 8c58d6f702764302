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


def build_key(key: str) -> bool:
    """A dispatch key whose kernels only a CUDA build registers (``CUDA``, ``SparseCsrCUDA``, ``AutocastCUDA``)."""
    return "CUDA" in key


def changes(a: dict[str, Any] | None, b: dict[str, Any] | None, switch: bool = False) -> dict[str, Any] | None:
    """The atlas's changes from output ``a`` to output ``b``; None when either side has no atlas. Across a build
    switch (``switch``: a CPU-only wheel before, a CUDA build after), kernels gained under CUDA keys are the
    build's and listed apart (``kernels_gained_build``)."""
    before, after = overloads(a), overloads(b)
    if before is None or after is None:
        return None
    found: dict[str, Any] = {
        "added": sorted(set(after) - set(before)),
        "removed": sorted(set(before) - set(after)),
        "kernels_gained": {},
        "kernels_gained_build": {},
        "kernels_lost": {},
        **{field: {} for field in FIELDS},
    }
    for name in sorted(set(before) & set(after)):
        old, new = before[name], after[name]
        gained, lost = (
            sorted(set(new["kernels"]) - set(old["kernels"])),
            sorted(set(old["kernels"]) - set(new["kernels"])),
        )
        if switch and (by_build := [k for k in gained if build_key(k)]):
            found["kernels_gained_build"][name] = by_build
            gained = [k for k in gained if not build_key(k)]
        if gained:
            found["kernels_gained"][name] = gained
        if lost:
            found["kernels_lost"][name] = lost
        for field in FIELDS:
            if old.get(field) != new.get(field):
                found[field][name] = [old.get(field), new.get(field)]
    return found


def registry_changes(
    before: dict[str, dict[str, Any]], now: dict[str, dict[str, Any]], cpu_only: bool
) -> tuple[dict[str, dict[str, Any]], list[str]]:
    """What each overload registers differently now: added, kernels gained or lost, another schema (the old one)
    or other tags (the old ones). Only what two releases register is compared, never what an atlas derived,
    which another version of the snippet may derive otherwise; against a CPU-only build (``cpu_only``), a kernel
    under a CUDA key is no release's change. Returns (name -> change, the names ``now`` lacks)."""
    changes: dict[str, dict[str, Any]] = {}
    for name, entry in now.items():
        old = before.get(name)
        if old is None:
            changes[name] = {"added": True}
            continue
        change: dict[str, Any] = {}
        gained = sorted(k for k in set(entry["kernels"]) - set(old["kernels"]) if not (cpu_only and build_key(k)))
        lost = sorted(set(old["kernels"]) - set(entry["kernels"]))
        if gained:
            change["kernels_gained"] = gained
        if lost:
            change["kernels_lost"] = lost
        if old.get("schema") and entry.get("schema") and old["schema"] != entry["schema"]:
            change["schema"] = old["schema"]
        if sorted(old.get("tags", [])) != sorted(entry.get("tags", [])):
            change["tags"] = sorted(old.get("tags", []))
        if change:
            changes[name] = change
    return changes, sorted(set(before) - set(now))
