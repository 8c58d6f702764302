"""Compare two sets of records: what changed in the site's outputs between two runs.

Made for upgrades: run the CPU snippets under a new torch into a scratch records
folder, compare with the committed records, and publish the comparison. The
report embeds both sides' outputs, so it can be checked and rendered without
either records folder; rows whose snippet was edited after the comparison are
flagged on the page.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from . import records
from .paths import Layout

REPORTS = "reports/drift"


def _diff(a: dict | None, b: dict | None) -> str:
    return records.diff_outputs(a, b, "before", "after")


def _label(recs: list[records.Record]) -> dict:
    torch = Counter(r.provenance.get("torch") for r in recs if r.provenance.get("torch"))
    dates = sorted(r.run.get("date") for r in recs if r.run.get("date"))
    builds = Counter(r.provenance.get("torch_build") for r in recs if r.provenance.get("torch_build"))
    return {
        "torch": torch.most_common(1)[0][0] if torch else None,
        "build": builds.most_common(1)[0][0] if builds else None,
        "python": Counter(r.provenance.get("python") for r in recs).most_common(1)[0][0] if recs else None,
        "date": dates[-1] if dates else None,
    }


def compare(a: Layout, b: Layout, device: str = "cpu") -> dict:
    """Every snippet declaring ``device``: unchanged, changed (with a diff) or missing on one side."""
    entries, side_a, side_b = [], [], []
    for snippet in records.discover(a):
        if device not in snippet.header.devices:
            continue
        ra, rb = records.load(a, snippet.id, device), records.load(b, snippet.id, device)
        side_a += [ra] if ra else []
        side_b += [rb] if rb else []
        out_a, out_b = (r.output() if r else None for r in (ra, rb))
        state = "missing" if not (ra or rb) else "only-a" if not rb else "only-b" if not ra else (
            "unchanged" if out_a == out_b else "changed")
        entries.append({
            "snippet": snippet.id,
            "device": device,
            "state": state,
            "source_sha256": {"a": ra and ra.source_sha256, "b": rb and rb.source_sha256},
            "output": {"a": out_a, "b": out_b},
            "diff": _diff(out_a, out_b) if state == "changed" else "",
        })
    return {"schema": 1, "device": device, "a": _label(side_a), "b": _label(side_b), "entries": entries}


def dumps(report: dict) -> str:
    return json.dumps(report, indent=1, ensure_ascii=False) + "\n"


def load(root: Path, name: str) -> dict:
    return json.loads((root / REPORTS / f"{name}.json").read_text(encoding="utf-8"))


def problems(report: dict) -> list[str]:
    """Integrity of a committed report: each state and diff must follow from the outputs it embeds."""
    found = []
    for entry in report["entries"]:
        a, b = entry["output"]["a"], entry["output"]["b"]
        if a is not None and b is not None and entry["state"] != ("unchanged" if a == b else "changed"):
            found.append(f"{entry['snippet']}: state {entry['state']!r} does not match its outputs")
        if entry["state"] == "changed" and entry["diff"] != _diff(a, b):
            found.append(f"{entry['snippet']}: the diff does not follow from the embedded outputs")
    return found
