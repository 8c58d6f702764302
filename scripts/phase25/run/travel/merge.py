"""Merging the records of shards: the union of the shards is the whole, each run exactly once.

Re-executing every snippet (a torch upgrade's drift run, ``make records`` in CI) is split over several
machines with ``--shard i/n``; each uploads its records folder, and a final job merges them here. A
run found in no shard (a gap), in two (an overlap), a record no snippet asks for, or a record that is
corrupt or made from other sources than the snippet's now, refuses the whole merge: nothing is
written, and the message lists every such run.
"""

from __future__ import annotations

import re
from pathlib import Path

from ...core import devices, records
from ...core.atomic import write_atomic
from ...core.catalog import Catalog, standing_of
from ...core.errors import SourceError
from ...core.paths import Layout
from .. import plan

# What a record file of a shard is named: <page>/<name>.<device>.json (see core/snippets.py's PAGE and NAME).
_RECORD = re.compile(rf"(?P<id>[a-z0-9][a-z0-9-]*/[A-Za-z][A-Za-z0-9_]*)\.(?P<device>{devices.NAME})\.json")


def _found(folder: Path, problems: list[str]) -> dict[str, Path]:
    """Each record file of a shard's folder, by its job key, read without following links; a file named
    otherwise (a shard's folder is an artifact another machine uploaded) is a problem, its name quoted."""
    found = {}
    for path in sorted(folder.rglob("*.json")):
        name = path.relative_to(folder).as_posix()
        match = _RECORD.fullmatch(name)
        if match is None:
            problems.append(f"{folder}: {name!r} is not a record's name (<page>/<name>.<device>.json)")
            continue
        found[f"{match.group('id')} ({match.group('device')})"] = path
    return found


def merge(folders: list[Path], into: Path, layout: Layout, devices: list[str]) -> int:
    """Check the shards' records against the plan, then copy them into ``into``; how many were written."""
    catalog = Catalog(layout)  # judged on sources and environment only: a drift run uses another torch
    expected = {job.key: job for job in plan.jobs(catalog, devices, force=True)[0]}
    seen: dict[str, list[Path]] = {}
    strange: list[str] = []
    for folder in folders:
        for key, path in _found(folder, strange).items():
            seen.setdefault(key, []).append(path)
    problems = strange + [f"{key}: in no shard" for key in sorted(set(expected) - set(seen))]
    problems += [
        f"{key}: in {len(paths)} shards ({', '.join(str(p.parent) for p in paths)})"
        for key, paths in sorted(seen.items())
        if len(paths) > 1
    ]
    problems += [f"{key}: no snippet asks for this record" for key in sorted(set(seen) - set(expected))]
    chosen = {}
    for key in sorted(set(expected) & set(seen)):
        job, path = expected[key], seen[key][0]
        shard = Layout(layout.root, layout.snippets, path.parents[len(job.snippet.id.split("/")) - 1])
        try:
            record = records.load(shard, job.snippet.id, job.device)
        except records.RecordError as exc:
            problems.append(f"{key}: {exc}")
            continue
        assert record is not None
        standing = standing_of(job.snippet, job.device, catalog.digests[job.snippet.id], record, None)
        if standing.state != "current":
            problems.append(f"{key}: {standing.reason}")
        chosen[key] = (job, record)
    if problems:
        raise SourceError(", ".join(str(f) for f in folders), "the shards do not merge: " + "; ".join(problems))
    target = Layout(layout.root, layout.snippets, into)
    for job, record in chosen.values():
        path = records.record_path(target, job.snippet.id, job.device)
        write_atomic(path, record.to_json(), shown_as=records.display(layout, path))
    return len(chosen)
