"""Drift: what a torch upgrade changes in the site's outputs, compared record by record.

Run the snippets whose records are made here (the CPU's and the emulated GPU's,
``devices.LOCAL``) under the new torch into a scratch records folder, compare
with the committed records device by device, and publish the comparison. The report embeds both
sides' outputs, so it can be checked and rendered without either folder, and
each changed output is given a kind by the rule stated in :mod:`compare`, with
two refinements of its own (:mod:`drift_rule`). What an entry's outputs say about
each other is derived in :mod:`drift_derive` (its diff: :mod:`drift_diff`).

A run that failed on one side (a snippet that calls an API the older release
lacks) is no output to compare: the entry is on the other side only, and says
why (``failed``).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import cast

from . import atlas_drift, compare, records
from .devices import LOCAL
from .drift_derive import derived, warning_changes
from .drift_diff import diff
from .drift_rule import Output, build_switch, classify
from .drift_shape import Damaged, DriftEntry, DriftReport, Outputs, Side, shaped
from .paths import Layout
from .records import Record
from .snippets import discover

REPORTS = "reports/drift"
SCHEMA = 4


def usable(record: Record | None) -> bool:
    """A record whose output can be compared: one that ran to its end (a failed run says why, not what)."""
    return record is not None and record.status == "ok"


def _facts(facts: Mapping[str, object], key: str) -> object:
    """One fact of a record's provenance or run (their values are JSON of any kind)."""
    return facts.get(key)


def _label(recs: list[Record]) -> Side:
    def most(key: str) -> str | None:
        found = Counter(str(value) for r in recs if (value := _facts(r.provenance, key)))
        return found.most_common(1)[0][0] if found else None

    dates = sorted(str(date) for r in recs if (date := _facts(r.run, "date")))
    return {
        "torch": most("torch"),
        "build": most("torch_build"),
        "python": most("python"),
        "date": dates[-1] if dates else None,
    }


def _state(ra: Record | None, rb: Record | None) -> str:
    """How a snippet stands in the comparison; a failed run counts as no output."""
    a, b = usable(ra), usable(rb)
    if not (a or b):
        return "missing"
    if not (a and b):
        return "only-a" if a else "only-b"
    assert ra is not None and rb is not None
    return "unchanged" if ra.output() == rb.output() else "changed"


def _failed(record: Record | None) -> str | None:
    """Why a side's run gave no output to compare: its status and error, None when it ran or never did."""
    if record is None or usable(record):
        return None
    return str(record.error) if record.status == "failed" else f"{record.status}: {record.error}"


def between(a: Layout, b: Layout, devices: tuple[str, ...] = LOCAL) -> DriftReport:
    """Every snippet declaring one of ``devices`` (by default every device whose records are made here, the
    emulated ones included), on each of them: unchanged, changed (with a diff and a kind) or on one side only."""
    declared = [(snippet, d) for snippet in discover(a) for d in devices if d in snippet.header.devices]
    pairs = [(s, d, records.load(a, s.id, d), records.load(b, s.id, d)) for s, d in declared]
    report: DriftReport = {
        "schema": SCHEMA,
        "devices": list(devices),
        "a": _label([ra for _, _, ra, _ in pairs if ra is not None and usable(ra)]),
        "b": _label([rb for _, _, _, rb in pairs if rb is not None and usable(rb)]),
        "entries": [],
    }
    switch = build_switch(report)
    for snippet, device, ra, rb in pairs:
        report["entries"].append(_entry(snippet.id, device, tuple(snippet.header.volatile), (ra, rb), switch))
    return report


def _entry(
    snippet_id: str, device: str, volatile: tuple[str, ...], sides: tuple[Record | None, Record | None], switch: bool
) -> DriftEntry:
    """One (snippet, device) of a report: its state, and what the two sides' outputs say about each other."""
    ra, rb = sides
    out_a, out_b = (r.output() if r is not None and usable(r) else None for r in sides)
    state = _state(ra, rb)
    return {
        "snippet": snippet_id,
        "device": device,
        "state": state,
        "volatile": list(volatile),
        "source_sha256": {"a": ra.source_sha256 if ra else None, "b": rb.source_sha256 if rb else None},
        "failed": {"a": _failed(ra), "b": _failed(rb)},
        "output": {"a": out_a, "b": out_b},
        **derived(state, out_a, out_b, volatile, switch),
    }


def rederived(report: dict[str, object]) -> DriftReport:
    """A committed report brought to this schema from the outputs it embeds: its diffs, kinds and atlas changes
    derived again by today's rules (an older report stays readable as history without re-running anything)."""
    entries: list[dict[str, object]] = []
    switch = build_switch(report)
    for entry in cast(list[dict[str, object]], report["entries"]):
        output = cast(Outputs, entry["output"])
        volatile = tuple(cast(list[str], entry.get("volatile", [])))
        again = derived(str(entry["state"]), output["a"], output["b"], volatile, switch)
        entries.append({**entry, "failed": entry.get("failed") or {"a": None, "b": None}, **again})
    return shaped({**report, "schema": SCHEMA, "entries": entries}, "the report brought to this schema")


def dumps(report: DriftReport) -> str:
    return json.dumps(report, indent=1, ensure_ascii=False) + "\n"


def report_path(root: Path, name: str) -> Path:
    """Where the report ``name`` lives: a name (``--name``, or made of versions a record states) is checked as a
    file name of reports/drift/ before it becomes a path, for reading and for writing alike."""
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.+-]{0,199}", name) or ".." in name:
        raise ValueError(f"{name!r} is not the name of a drift report (a file name in {REPORTS}/, no folders)")
    return root / REPORTS / f"{name}.json"


def load(root: Path, name: str) -> DriftReport:
    """A committed report by name, with its shape (:mod:`drift_shape`); a name is a file name of reports/drift/,
    never a path. A damaged report (not JSON, of another schema, a key missing, unknown or of the wrong type) is
    :class:`drift_shape.Damaged`, in one line that names the file and the key."""
    where = f"{REPORTS}/{name}.json"
    try:
        found: object = json.loads(report_path(root, name).read_text(encoding="utf-8"))
    except UnicodeDecodeError as exc:
        raise Damaged(f"{where} is not UTF-8 text: {exc.reason}") from None
    except json.JSONDecodeError as exc:
        raise Damaged(f"{where} is not JSON: {exc}") from None
    schema = cast(dict[str, object], found).get("schema") if isinstance(found, dict) else SCHEMA
    if schema != SCHEMA:
        raise Damaged(f"{where}: schema {schema!r}, expected {SCHEMA}: compare again")
    return shaped(found, where)


def checked(root: Path, name: str) -> tuple[DriftReport, list[str]]:
    """A committed report and its :func:`problems`, worked out once per version of its file: a build shows each
    report on a page of every language, and checking one means diffing every output it embeds again."""
    path = report_path(root, name)
    stat = path.stat()
    return _checked(root, name, stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=8)
def _checked(root: Path, name: str, mtime_ns: int, size: int) -> tuple[DriftReport, list[str]]:
    report = load(root, name)
    return report, problems(report)


def sound(root: Path, name: str) -> DriftReport:
    """A committed report read through :func:`checked`, for a reader that shows no list of problems (the marks,
    the published diffs, the atlas's history): the first problem is :class:`drift_shape.Damaged`, naming the file."""
    report, found = checked(root, name)
    if found:
        raise Damaged(f"{REPORTS}/{name}.json: {found[0]}")
    return report


def problems(report: DriftReport) -> list[str]:
    """Integrity of a committed report: each state, kind and diff must follow from the outputs it embeds."""
    if report.get("schema") != SCHEMA:
        return [f"schema {report.get('schema')!r}, expected {SCHEMA}: compare again"]
    found: list[str] = []
    switch = build_switch(report)
    for entry in report["entries"]:
        a: Output | None = entry["output"]["a"]
        b: Output | None = entry["output"]["b"]
        both = a is not None and b is not None
        name, changed = entry["snippet"], entry["state"] == "changed" and both
        if both and entry["state"] != ("unchanged" if a == b else "changed"):
            found.append(f"{name}: state {entry['state']!r} does not match its outputs")
        if not both and entry["state"] in ("changed", "unchanged"):
            found.append(f"{name}: state {entry['state']!r} with an output on one side only")
        if entry.get("warnings", {"new": [], "gone": []}) != warning_changes(a, b):
            found.append(f"{name}: the warnings do not follow from the embedded outputs")
        if not changed or a is None or b is None:
            continue
        if entry.get("atlas") != atlas_drift.changes(a, b, switch):
            found.append(f"{name}: the atlas changes do not follow from the embedded outputs")
        if entry["diff"] != diff(a, b):
            found.append(f"{name}: the diff does not follow from the embedded outputs")
        if entry["kind"] != classify(a, b, tuple(entry.get("volatile", [])), switch):
            found.append(f"{name}: kind {entry['kind']!r} does not follow from the embedded outputs")
    return found


def counts(report: DriftReport) -> dict[str, int]:
    """How many entries of each state and of each kind of change."""
    found = Counter(e["state"] for e in report["entries"])
    found.update(e["kind"] for e in report["entries"] if e["kind"])
    return {key: found.get(key, 0) for key in ("changed", "unchanged", "only-a", "only-b", "missing", *compare.KINDS)}
