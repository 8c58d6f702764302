"""Command line of the snippet runner: run, check, update, report.

python scripts/snippets.py run -j2                  # execute stale CPU runs
python scripts/snippets.py run --device cuda --require-device cuda
python scripts/snippets.py check -j2                # re-execute CPU runs, diff against records
python scripts/snippets.py update -j2               # re-execute CPU runs, rewrite records
python scripts/snippets.py report                   # every (snippet, device) and its state
"""

from __future__ import annotations

import argparse
import os
import sys
import tarfile
import tempfile
from pathlib import Path

from . import header, records, runner
from .paths import DEFAULT_LAYOUT, Layout


def _layout(args: argparse.Namespace) -> Layout:
    root = Path(args.root) if args.root else DEFAULT_LAYOUT.root
    return Layout.of(root, Path(args.records) if args.records else None)


def _add_common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("snippets", nargs="*", help="snippet ids (default: all), e.g. 00-orientation/linear_grad_fn")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1, help="runs in parallel")
    parser.add_argument("--shard", type=runner.parse_shard, help="i/n: this runner's share of the work")


def _devices(args: argparse.Namespace) -> list[str]:
    return list(header.DEVICES) if args.device == "all" else [args.device]


def cmd_run(args: argparse.Namespace, force: bool = False) -> int:
    layout = _layout(args)
    devices = _devices(args)
    if args.require_device and args.require_device not in devices:
        devices.append(args.require_device)
    if "cuda" in devices and not runner.cuda_available():
        if args.require_device == "cuda":
            print("error: --require-device cuda, but torch sees no CUDA device on this machine", file=sys.stderr)
            return 2
        print("note: no CUDA device here; CUDA records are left as they are", file=sys.stderr)
        devices.remove("cuda")
    torch_version = runner.installed_torch()
    todo, current = runner.plan(
        layout, devices, select=args.snippets, force=force or args.force, shard=args.shard, torch_version=torch_version
    )
    print(
        f"{len(todo)} to run, {len(current)} current (devices: {', '.join(devices) or 'none'}; torch {torch_version})",
        file=sys.stderr,
    )
    # Start the longest runs first, judging by the committed records' wall times.
    outcome = runner.run(layout, todo, workers=args.jobs, estimates_from=Layout.of(layout.root))
    print(f"executed {len(outcome.executed)} in {outcome.wall_s:.1f}s, {len(outcome.failures)} failed", file=sys.stderr)
    if args.archive:
        _pack(layout, devices, Path(args.archive))
    return 1 if outcome.failures else 0


def _pack(layout: Layout, devices: list[str], archive: Path) -> None:
    """One archive of the records of these devices: how GPU captures travel back."""
    archive.parent.mkdir(parents=True, exist_ok=True)
    with tarfile.open(archive, "w:gz") as tar:
        for device in devices:
            for path in sorted(layout.records.rglob(f"*.{device}.json")):
                tar.add(path, arcname=Path("records") / path.relative_to(layout.records))
    print(f"packed {archive}", file=sys.stderr)


def cmd_check(args: argparse.Namespace) -> int:
    """Re-execute CPU snippets in a scratch folder; any difference in output is drift."""
    layout = _layout(args)
    with tempfile.TemporaryDirectory(prefix="phase25-check-") as scratch:
        scratch_layout = Layout(root=layout.root, snippets=layout.snippets, records=Path(scratch))
        todo, _ = runner.plan(scratch_layout, ["cpu"], select=args.snippets, force=True, shard=args.shard)
        outcome = runner.run(scratch_layout, todo, workers=args.jobs, estimates_from=layout)
        drift = 0
        for fresh in outcome.executed:
            try:
                committed = records.load(layout, fresh.snippet, "cpu")
            except records.RecordError as exc:
                print(f"CORRUPT {fresh.snippet}: {exc}")
                drift += 1
                continue
            diff = describe_drift(committed, fresh)
            if diff:
                drift += 1
                print(f"DRIFT {fresh.snippet} (cpu)\n{diff}")
    print(f"{len(outcome.executed)} checked, {drift} drifted", file=sys.stderr)
    if drift:
        print("run `make records` to accept the new output on purpose", file=sys.stderr)
    return 1 if drift or outcome.failures else 0


def describe_drift(committed: records.Record | None, fresh: records.Record) -> str:
    """A line-by-line diff of the output sections; empty when they are identical."""
    if committed is None:
        return "  no committed record"
    diff = records.diff_outputs(committed.output(), fresh.output(), "committed", "re-executed")
    if committed.source_sha256 != fresh.source_sha256:
        diff = f"source_sha256: {committed.source_sha256} -> {fresh.source_sha256}\n" + diff
    return diff


def cmd_report(args: argparse.Namespace) -> int:
    """Every (snippet, device) with its state; non-zero if a CPU record is not usable."""
    layout = _layout(args)
    torch_version = runner.installed_torch()
    bad = 0
    rows = []
    for snippet in records.discover(layout):
        for device in snippet.header.devices:
            fresh = records.freshness(layout, snippet, device, torch_version if device == "cpu" else None)
            state = fresh.verdict
            bad += fresh.is_problem(device)
            rec = fresh.record
            rows.append(
                (
                    snippet.id,
                    device,
                    state,
                    rec.run.get("wall_s", "") if rec else "",
                    rec.provenance.get("torch", "") if rec else "",
                    rec.run.get("date", "") if rec else "",
                )
            )
    width = max((len(r[0]) for r in rows), default=10)
    print(f"{'snippet':<{width}}  device  state     wall_s  torch     date")
    for row in rows:
        print(f"{row[0]:<{width}}  {row[1]:<6}  {row[2]:<8}  {row[3]!s:>6}  {row[4]!s:<8}  {row[5]}")
    missing_cuda = sum(1 for r in rows if r[1] == "cuda" and r[2] == "missing")
    print(f"\n{len(rows)} runs; {missing_cuda} CUDA records not captured yet; {bad} problems", file=sys.stderr)
    return 1 if bad else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="snippets", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--root", help=argparse.SUPPRESS)
    parser.add_argument("--records", help="records folder (default: records/)")
    sub = parser.add_subparsers(dest="command", required=True)

    p_run = sub.add_parser("run", help="execute the runs whose record is missing or stale")
    _add_common(p_run)
    p_run.add_argument("--device", choices=[*header.DEVICES, "all"], default="cpu")
    p_run.add_argument("--require-device", choices=header.DEVICES, help="fail unless this device is present")
    p_run.add_argument("--force", action="store_true", help="re-execute even current records")
    p_run.add_argument("--archive", help="afterwards, pack the records of the devices run into this .tar.gz")

    p_update = sub.add_parser("update", help="re-execute every CPU run and rewrite its record")
    _add_common(p_update)

    p_check = sub.add_parser("check", help="re-execute CPU runs into a scratch folder and diff against records")
    _add_common(p_check)

    sub.add_parser("report", help="list every (snippet, device) and the state of its record")

    args = parser.parse_args(argv)
    try:
        if args.command == "run":
            return cmd_run(args)
        if args.command == "update":
            args.device, args.require_device, args.force, args.archive = "cpu", None, True, None
            return cmd_run(args, force=True)
        if args.command == "check":
            return cmd_check(args)
        return cmd_report(args)
    except (header.HeaderError, records.RecordError, KeyError, FileNotFoundError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
