"""Drift: what a torch upgrade changes in the site's outputs, compared record by record.

Run the CPU snippets under the new torch into a scratch records folder, compare
with the committed records, and publish the comparison. The report embeds both
sides' outputs, so it can be checked and rendered without either folder, and
each changed output is given a kind by the rule stated in :mod:`compare`.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from functools import lru_cache
from pathlib import Path
from typing import Any

from . import atlas_drift, compare, records
from .paths import Layout
from .records import Record
from .snippets import discover

REPORTS = "reports/drift"
SCHEMA = 3


def _diff(a: dict | None, b: dict | None) -> str:
    return compare.diff_outputs(a, b, "before", "after")


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


def _label(recs: list[Record]) -> dict[str, str | None]:
    def most(key: str, where: str = "provenance") -> str | None:
        found = Counter(getattr(r, where).get(key) for r in recs if getattr(r, where).get(key))
        return found.most_common(1)[0][0] if found else None

    dates = sorted(str(r.run["date"]) for r in recs if r.run.get("date"))
    return {
        "torch": most("torch"),
        "build": most("torch_build"),
        "python": most("python"),
        "date": dates[-1] if dates else None,
    }


def between(a: Layout, b: Layout, device: str = "cpu") -> dict[str, Any]:
    """Every snippet declaring ``device``: unchanged, changed (with a diff and a kind) or on one side only."""
    entries, side_a, side_b = [], [], []
    for snippet in discover(a):
        if device not in snippet.header.devices:
            continue
        ra, rb = records.load(a, snippet.id, device), records.load(b, snippet.id, device)
        side_a += [ra] if ra else []
        side_b += [rb] if rb else []
        out_a, out_b = (r.output() if r else None for r in (ra, rb))
        state = (
            "missing"
            if not (ra or rb)
            else "only-a"
            if not rb
            else "only-b"
            if not ra
            else ("unchanged" if out_a == out_b else "changed")
        )
        volatile = snippet.header.volatile
        entries.append(
            {
                "snippet": snippet.id,
                "device": device,
                "state": state,
                "volatile": list(volatile),
                "kind": compare.classify(out_a, out_b, volatile) if out_a and out_b and state == "changed" else None,
                "source_sha256": {"a": ra and ra.source_sha256, "b": rb and rb.source_sha256},
                "output": {"a": out_a, "b": out_b},
                "diff": _diff(out_a, out_b) if state == "changed" else "",
                "atlas": atlas_drift.changes(out_a, out_b) if state == "changed" else None,
                "warnings": warning_changes(out_a, out_b),
            }
        )
    return {"schema": SCHEMA, "device": device, "a": _label(side_a), "b": _label(side_b), "entries": entries}


def dumps(report: dict[str, Any]) -> str:
    return json.dumps(report, indent=1, ensure_ascii=False) + "\n"


def report_path(root: Path, name: str) -> Path:
    """Where the report ``name`` lives: a name (``--name``, or made of versions a record states) is checked as a
    file name of reports/drift/ before it becomes a path, for reading and for writing alike."""
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.+-]{0,199}", name) or ".." in name:
        raise ValueError(f"{name!r} is not the name of a drift report (a file name in {REPORTS}/, no folders)")
    return root / REPORTS / f"{name}.json"


def load(root: Path, name: str) -> dict[str, Any]:
    """A committed report by name; a name is a file name of reports/drift/, never a path."""
    report = json.loads(report_path(root, name).read_text(encoding="utf-8"))
    if not isinstance(report, dict):
        raise ValueError(f"{REPORTS}/{name}.json is not a drift report")
    return report


def checked(root: Path, name: str) -> tuple[dict[str, Any], list[str]]:
    """A committed report and its :func:`problems`, worked out once per version of its file: a build shows each
    report on a page of every language, and checking one means diffing every output it embeds again."""
    path = report_path(root, name)
    stat = path.stat()
    return _checked(root, name, stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=8)
def _checked(root: Path, name: str, mtime_ns: int, size: int) -> tuple[dict[str, Any], list[str]]:
    report = load(root, name)
    return report, problems(report)


def problems(report: dict) -> list[str]:
    """Integrity of a committed report: each state, kind and diff must follow from the outputs it embeds."""
    if report.get("schema") != SCHEMA:
        return [f"schema {report.get('schema')!r}, expected {SCHEMA}: compare again"]
    found = []
    for entry in report["entries"]:
        a, b = entry["output"]["a"], entry["output"]["b"]
        if a is not None and b is not None and entry["state"] != ("unchanged" if a == b else "changed"):
            found.append(f"{entry['snippet']}: state {entry['state']!r} does not match its outputs")
        if entry.get("warnings", {"new": [], "gone": []}) != warning_changes(a, b):
            found.append(f"{entry['snippet']}: the warnings do not follow from the embedded outputs")
        if entry["state"] == "changed" and entry.get("atlas") != atlas_drift.changes(a, b):
            found.append(f"{entry['snippet']}: the atlas changes do not follow from the embedded outputs")
        if entry["state"] == "changed" and entry["diff"] != _diff(a, b):
            found.append(f"{entry['snippet']}: the diff does not follow from the embedded outputs")
        if entry["state"] == "changed" and entry["kind"] != compare.classify(a, b, tuple(entry.get("volatile", []))):
            found.append(f"{entry['snippet']}: kind {entry['kind']!r} does not follow from the embedded outputs")
    return found


def counts(report: dict) -> dict[str, int]:
    """How many entries of each state and of each kind of change."""
    found = Counter(e["state"] for e in report["entries"])
    found.update(e["kind"] for e in report["entries"] if e["kind"])
    return {key: found.get(key, 0) for key in ("changed", "unchanged", "only-a", "only-b", "missing", *compare.KINDS)}
