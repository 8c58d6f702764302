"""What a torch upgrade changes in the dispatcher atlas: operators added and removed, kernels gained and lost.

The atlas snippet writes one JSON line per overload (artifacts ``atlas/*.jsonl``). Its plain diff is
thousands of lines; this reads both sides and says, operator by operator, what changed in what the atlas
teaches: a kernel registered under a key or gone from it, a different composite kind, a decomposition
added or removed, another treatment by Inductor, another ``grad_fn``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import cast

FIELDS = ("composite", "decomposition", "inductor", "grad_fn")

Overload = dict[str, object]  # one JSON line of the atlas: its name, kernels (dispatch key -> where), schema, tags...


def _keys(entry: Overload) -> set[str]:
    """The dispatch keys an overload has a kernel under."""
    return set(cast(dict[str, object], entry["kernels"]))


def _tags(entry: Overload) -> list[str]:
    return sorted(cast(list[str], entry.get("tags", [])))


def overloads(output: Mapping[str, object] | None) -> dict[str, Overload] | None:
    """name -> entry of an output's atlas files, None when the output holds no atlas."""
    artifacts = cast(dict[str, str], (output or {}).get("artifacts") or {})
    files = {n: t for n, t in artifacts.items() if n.startswith("atlas/") and n.endswith(".jsonl")}
    if not files:
        return None
    found: dict[str, Overload] = {}
    for text in files.values():
        for line in text.splitlines():
            if line.strip():
                entry = cast(Overload, json.loads(line))
                found[cast(str, entry["name"])] = entry
    return found


def build_key(key: str) -> bool:
    """A dispatch key whose kernels only a CUDA build registers (``CUDA``, ``SparseCsrCUDA``, ``AutocastCUDA``)."""
    return "CUDA" in key


def changes(
    a: Mapping[str, object] | None, b: Mapping[str, object] | None, switch: bool = False
) -> dict[str, object] | None:
    """The atlas's changes from output ``a`` to output ``b``; None when either side has no atlas. Across a build
    switch (``switch``: a CPU-only wheel before, a CUDA build after), kernels gained under CUDA keys are the
    build's and listed apart (``kernels_gained_build``)."""
    before, after = overloads(a), overloads(b)
    if before is None or after is None:
        return None
    kernels: dict[str, dict[str, list[str]]] = {"kernels_gained": {}, "kernels_gained_build": {}, "kernels_lost": {}}
    fields: dict[str, dict[str, list[object]]] = {field: {} for field in FIELDS}
    for name in sorted(set(before) & set(after)):
        old, new = before[name], after[name]
        gained, lost = sorted(_keys(new) - _keys(old)), sorted(_keys(old) - _keys(new))
        if switch and (by_build := [k for k in gained if build_key(k)]):
            kernels["kernels_gained_build"][name] = by_build
            gained = [k for k in gained if not build_key(k)]
        if gained:
            kernels["kernels_gained"][name] = gained
        if lost:
            kernels["kernels_lost"][name] = lost
        for field in FIELDS:
            if old.get(field) != new.get(field):
                fields[field][name] = [old.get(field), new.get(field)]
    return {"added": sorted(set(after) - set(before)), "removed": sorted(set(before) - set(after)), **kernels, **fields}


def registry_changes(
    before: dict[str, Overload], now: dict[str, Overload], cpu_only: bool
) -> tuple[dict[str, dict[str, object]], list[str]]:
    """What each overload registers differently now: added, kernels gained or lost, another schema (the old one)
    or other tags (the old ones). Only what two releases register is compared, never what an atlas derived,
    which another version of the snippet may derive otherwise; against a CPU-only build (``cpu_only``), a kernel
    under a CUDA key is no release's change. Returns (name -> change, the names ``now`` lacks)."""
    changes: dict[str, dict[str, object]] = {}
    for name, entry in now.items():
        old = before.get(name)
        if old is None:
            changes[name] = {"added": True}
            continue
        change: dict[str, object] = {}
        gained = sorted(k for k in _keys(entry) - _keys(old) if not (cpu_only and build_key(k)))
        lost = sorted(_keys(old) - _keys(entry))
        if gained:
            change["kernels_gained"] = gained
        if lost:
            change["kernels_lost"] = lost
        if old.get("schema") and entry.get("schema") and old["schema"] != entry["schema"]:
            change["schema"] = old["schema"]
        if _tags(old) != _tags(entry):
            change["tags"] = _tags(old)
        if change:
            changes[name] = change
    return changes, sorted(set(before) - set(now))
