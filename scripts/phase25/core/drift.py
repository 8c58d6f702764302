"""Drift: what a torch upgrade changes in the site's outputs, compared record by record.

Run the CPU snippets under the new torch into a scratch records folder, compare
with the committed records, and publish the comparison. The report embeds both
sides' outputs, so it can be checked and rendered without either folder, and
each changed output is classified by a stated rule:

- ``line-numbers``: the difference disappears once line numbers inside torch's
  and its libraries' own files are masked (they move between releases);
- ``volatile``: what is left disappears once the lines the snippet declares
  machine-dependent (its ``volatile`` patterns: measured timings, an autotuner's
  pick) are masked as well;
- ``build``: what is left disappears once lines naming CUDA, NVIDIA or a GPU
  are dropped (the new side ran a CUDA build of torch with no GPU: CUDA kernels
  registered, a warning that no CUDA runtime was found);
- ``real``: anything else, a change in what the snippet shows.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

from . import records
from .paths import Layout
from .records import Record
from .snippets import discover

REPORTS = "reports/drift"
SCHEMA = 3
KINDS = ("real", "build", "volatile", "line-numbers")
# "torch/_dynamo/output_graph.py:1135", "LinearAlgebra.cpp:204", 'File "...", line 979' -- not in snippets/.
_LINE_NUMBER = re.compile(r'(?<![\w./<>-])(?P<path>[\w./<>-]+\.(?:py|cpp|h|cu|cc))(?P<sep>", line |:)\d+')
_BUILD = re.compile(r"CUDA|cuda|NVIDIA|\bgpu\w*", re.IGNORECASE)


def _diff(a: dict | None, b: dict | None) -> str:
    return records.diff_outputs(a, b, "before", "after")


def _masked(match: re.Match[str]) -> str:
    """A line number inside torch or a library becomes <n>; one in a snippet is the snippet's own."""
    if match.group("path").startswith("snippets/"):
        return match.group(0)
    return f"{match.group('path')}{match.group('sep')}<n>"


def _mask(output: dict, drop_build: bool, volatile: tuple[str, ...] = ()) -> list[str]:
    """The output's lines, stream by stream, with library line numbers (and volatile lines) masked, and
    CUDA lines dropped when asked."""
    lines: list[str] = []
    for key, value in sorted(records.comparable(output, volatile).items()):
        parts = sorted(value.items()) if isinstance(value, dict) and key == "artifacts" else [(key, value)]
        for name, text in parts:
            body = text if isinstance(text, str) else json.dumps(text, sort_keys=True)
            lines.append(f"== {name}")
            lines += [_LINE_NUMBER.sub(_masked, line) for line in body.split("\n")]
    if drop_build:
        lines = [line for line in lines if not _BUILD.search(line)]
    return lines


def classify(a: dict, b: dict, volatile: tuple[str, ...] = ()) -> str:
    """The kind of a change between two output sections (see the module's docstring)."""
    if _mask(a, drop_build=False) == _mask(b, drop_build=False):
        return "line-numbers"
    if volatile and _mask(a, False, volatile) == _mask(b, False, volatile):
        return "volatile"
    if _mask(a, True, volatile) == _mask(b, True, volatile):
        return "build"
    return "real"


def _label(recs: list[Record]) -> dict:
    def most(key: str, where: str = "provenance") -> str | None:
        found = Counter(getattr(r, where).get(key) for r in recs if getattr(r, where).get(key))
        return found.most_common(1)[0][0] if found else None

    dates = sorted(r.run.get("date") for r in recs if r.run.get("date"))
    return {"torch": most("torch"), "build": most("torch_build"), "python": most("python"),
            "date": dates[-1] if dates else None}


def compare(a: Layout, b: Layout, device: str = "cpu") -> dict:
    """Every snippet declaring ``device``: unchanged, changed (with a diff and a kind) or on one side only."""
    entries, side_a, side_b = [], [], []
    for snippet in discover(a):
        if device not in snippet.header.devices:
            continue
        ra, rb = records.load(a, snippet.id, device), records.load(b, snippet.id, device)
        side_a += [ra] if ra else []
        side_b += [rb] if rb else []
        out_a, out_b = (r.output() if r else None for r in (ra, rb))
        state = "missing" if not (ra or rb) else "only-a" if not rb else "only-b" if not ra else (
            "unchanged" if out_a == out_b else "changed")
        volatile = snippet.header.volatile
        entries.append({
            "snippet": snippet.id, "device": device, "state": state, "volatile": list(volatile),
            "kind": classify(out_a, out_b, volatile) if state == "changed" else None,
            "source_sha256": {"a": ra and ra.source_sha256, "b": rb and rb.source_sha256},
            "output": {"a": out_a, "b": out_b},
            "diff": _diff(out_a, out_b) if state == "changed" else "",
        })
    return {"schema": SCHEMA, "device": device, "a": _label(side_a), "b": _label(side_b), "entries": entries}


def dumps(report: dict) -> str:
    return json.dumps(report, indent=1, ensure_ascii=False) + "\n"


def load(root: Path, name: str) -> dict:
    return json.loads((root / REPORTS / f"{name}.json").read_text(encoding="utf-8"))


def problems(report: dict) -> list[str]:
    """Integrity of a committed report: each state, kind and diff must follow from the outputs it embeds."""
    if report.get("schema") != SCHEMA:
        return [f"schema {report.get('schema')!r}, expected {SCHEMA}: compare again"]
    found = []
    for entry in report["entries"]:
        a, b = entry["output"]["a"], entry["output"]["b"]
        if a is not None and b is not None and entry["state"] != ("unchanged" if a == b else "changed"):
            found.append(f"{entry['snippet']}: state {entry['state']!r} does not match its outputs")
        if entry["state"] == "changed" and entry["diff"] != _diff(a, b):
            found.append(f"{entry['snippet']}: the diff does not follow from the embedded outputs")
        if entry["state"] == "changed" and entry["kind"] != classify(a, b, tuple(entry.get("volatile", []))):
            found.append(f"{entry['snippet']}: kind {entry['kind']!r} does not follow from the embedded outputs")
    return found


def counts(report: dict) -> dict[str, int]:
    """How many entries of each state and of each kind of change."""
    found = Counter(e["state"] for e in report["entries"])
    found.update(e["kind"] for e in report["entries"] if e["kind"])
    return {key: found.get(key, 0) for key in ("changed", "unchanged", "only-a", "only-b", "missing", *KINDS)}
