"""The commands that execute snippets or read their records: ``run``, ``update``, ``check``, ``report``.

Standard library only, like the rest of ``run/``: on the GPU machine,
``python3 -m phase25 run --device cuda`` imports nothing else.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from ..core import compare
from ..core.catalog import Catalog
from ..core.devices import DEVICES, LOCAL, captured
from ..core.paths import Layout
from . import plan, pool
from .travel import archive
from .travel.cuda_probe import cuda_available


def _execute(
    catalog: Catalog, todo: list[plan.Job], args: argparse.Namespace, estimates: Catalog | None = None
) -> pool.Outcome:
    """Run the jobs; the committed records' wall times order them, longest first."""
    outcome = pool.run(
        catalog,
        todo,
        workers=args.jobs,
        warm=not args.fresh,
        python=args.python,
        estimates=estimates or (Catalog(Layout.of(catalog.layout.root)) if args.records else None),
        timeout_factor=args.timeout_factor,
        reuse=not getattr(args, "force", False),  # --force and update re-execute on purpose
    )
    for note in outcome.notes:
        print(f"note: {note}", file=sys.stderr)
    for intrusion in outcome.intrusions:
        print(f"error: {intrusion}", file=sys.stderr)
    reused = f", {len(outcome.reused)} made meanwhile by another runner" if outcome.reused else ""
    print(
        f"executed {len(outcome.executed)} in {outcome.wall_s:.1f}s, {len(outcome.failures)} failed{reused}",
        file=sys.stderr,
    )
    return outcome


def _devices(args: argparse.Namespace) -> list[str] | None:
    """The devices to run on; None when --require-device names one this machine does not have."""
    devices = list(DEVICES if args.device == "all" else LOCAL if args.device == "local" else [args.device])
    if args.require_device and args.require_device not in devices:
        devices.append(args.require_device)
    gpu = [device for device in devices if captured(device)]
    if gpu and not cuda_available(args.python or sys.executable):
        if args.require_device in gpu:
            print(
                f"error: --require-device {args.require_device}, but torch sees no CUDA device on this machine",
                file=sys.stderr,
            )
            return None
        print("note: no CUDA device here; CUDA records are left as they are", file=sys.stderr)
        devices = [device for device in devices if device not in gpu]
    return devices


def run(args: argparse.Namespace, layout: Layout) -> int:
    """Execute the runs whose record is missing or stale (or all of them, with --force)."""
    devices = _devices(args)
    if devices is None:
        return 2
    catalog = Catalog.here(layout)
    committed = Catalog(Layout.of(layout.root)) if args.records else catalog  # shards balanced on committed times
    todo, current = plan.jobs(
        catalog, devices, select=args.snippets, force=args.force, shard=args.shard, estimates=committed
    )
    print(
        f"{len(todo)} to run, {len(current)} current (devices: {', '.join(devices) or 'none'}; torch {catalog.torch})",
        file=sys.stderr,
    )
    outcome = _execute(catalog, todo, args)
    if args.archive:
        archive.pack(layout, devices, Path(args.archive))
    return 1 if outcome.failures or outcome.intrusions else 0


def update(args: argparse.Namespace, layout: Layout) -> int:
    """Re-execute every selected run this machine can make (CPU and emulated: the reference) in fresh
    interpreters and rewrite its record."""
    args.device, args.require_device, args.force, args.archive, args.fresh = "local", None, True, None, True
    return run(args, layout)


def check(args: argparse.Namespace, layout: Layout) -> int:
    """Re-execute every run this machine can make in a scratch folder; any difference from the record is a
    mismatch."""
    committed = Catalog.here(layout)
    mismatches = 0
    with tempfile.TemporaryDirectory(prefix="phase25-check-") as scratch:
        scratch_catalog = Catalog(Layout(layout.root, layout.snippets, Path(scratch)), committed.torch)
        todo, _ = plan.jobs(
            scratch_catalog, list(LOCAL), select=args.snippets, force=True, shard=args.shard, estimates=committed
        )
        outcome = _execute(scratch_catalog, todo, args, estimates=committed)
        for rerun in outcome.executed:
            view = committed.standing(rerun.snippet, rerun.device)
            volatile = committed.snippets[rerun.snippet].header.volatile
            diff = compare.mismatch(view.record, rerun, volatile) if view.state != "corrupt" else view.reason
            if diff:
                mismatches += 1
                print(f"MISMATCH {rerun.snippet} ({rerun.device})\n{diff}")
    print(f"{len(outcome.executed)} checked, {mismatches} do not match their record", file=sys.stderr)
    if mismatches:
        print("run `make records` to accept the new output on purpose", file=sys.stderr)
    return 1 if mismatches or outcome.failures else 0


def report(args: argparse.Namespace, layout: Layout) -> int:
    """Every (snippet, device) with its state; non-zero if any record is a problem."""
    catalog = Catalog.here(layout)
    width = max((len(s) for s in catalog.snippets), default=10)
    across = max(len(d) for d in DEVICES)
    print(f"{'snippet':<{width}}  {'device':<{across}}  state     wall_s  torch     date")
    for (sid, device), view in sorted(catalog.standings.items()):
        rec = view.record
        wall, torch, date = (
            (rec.run["wall_s"], rec.provenance.get("torch", ""), rec.run["date"]) if rec else ("", "", "")
        )
        print(f"{sid:<{width}}  {device:<{across}}  {view.verdict:<8}  {wall!s:>6}  {torch!s:<8}  {date}")
    problems = catalog.problems()
    missing_cuda = sum(1 for (_, d), v in catalog.standings.items() if captured(d) and v.verdict == "missing")
    for problem in problems:
        print(f"problem: {problem}", file=sys.stderr)
    print(
        f"\n{len(catalog.standings)} runs; {missing_cuda} CUDA records not captured yet; {len(problems)} problems",
        file=sys.stderr,
    )
    return 1 if problems else 0


def merge(args: argparse.Namespace, layout: Layout) -> int:
    """Merge the records folders of every shard into one: each run exactly once, or nothing is written."""
    from .travel import merge as merging

    into = Path(args.into).resolve() if args.into else layout.records
    written = merging.merge(
        [Path(d) for d in args.folders], into, layout, list(LOCAL if args.device == "local" else [args.device])
    )
    print(f"merged {written} records of {len(args.folders)} shards into {into}", file=sys.stderr)
    return 0


def unpack(args: argparse.Namespace, layout: Layout) -> int:
    """Check a GPU capture's archive record by record, then write its CUDA records into records/."""
    from .travel import unpack as unpacking

    written = unpacking.unpack(Path(args.archive), layout)
    print(f"unpacked {len(written)} CUDA records from {args.archive}", file=sys.stderr)
    return 0
