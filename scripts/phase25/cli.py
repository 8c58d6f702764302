"""The one command line: ``python -m phase25 <command>``.

    run [ID...]           execute the runs whose record is missing or stale (CPU by default)
    check [ID...]         re-execute CPU runs in a scratch folder; print each mismatch as a diff
    update [ID...]        re-execute CPU runs and rewrite their records, on purpose
    report                every (snippet, device) and the state of its record
    labs build|check      write the lab notebooks, or check them against their sources
    translations check    parity and freshness of the Spanish pages
    translations stamp P  mark docs/es/P as translating the current English page
    drift compare DIR     compare a records folder made under another torch with records/
    upgrade latest        the torch release to measure, and whether it is newer than the pin
    upgrade drift V       run the CPU snippets under torch V; write the drift report and its pages
    bench                 build and execution figures
    model [--check]       retrain the running example (and compare with the committed checkpoint)

Bad input is reported as one line naming the file (and line) and exits with 2;
Ctrl-C stops everything at once and exits with 130.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import tarfile
import tempfile
from pathlib import Path

from .core import atomic, compare
from .core.catalog import Catalog
from .core.errors import Interrupted, SourceError
from .core.header import DEVICES
from .core.paths import REPO_ROOT, Layout
from .run import runner
from .site import labs, translations


def _layout(args: argparse.Namespace) -> Layout:
    root = Path(args.root) if args.root else REPO_ROOT
    return Layout.of(root, Path(args.records) if args.records else None)


def _run_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("snippets", nargs="*", help="snippet ids (default: all), e.g. 00-orientation/linear_grad_fn")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1, help="runs in parallel")
    parser.add_argument("--shard", type=runner.parse_shard, help="i/n: this machine's share of the work")
    parser.add_argument("--python", help="interpreter that runs the snippets (default: this one)")
    parser.add_argument("--fresh", action="store_true", help="a fresh interpreter for every run (no warm fork)")
    parser.add_argument("--timeout-factor", type=float, default=1.0,
                        help="multiply every timeout, for a slow interpreter such as an emulated CPU")


def _execute(catalog: Catalog, todo: list[runner.Job], args: argparse.Namespace,
             estimates: Catalog | None = None) -> runner.Outcome:
    """Run the jobs; the committed records' wall times order them, longest first."""
    outcome = runner.run(catalog, todo, workers=args.jobs, warm=not args.fresh, python=args.python,
                         estimates=estimates or (Catalog(Layout.of(catalog.layout.root)) if args.records else None),
                         timeout_factor=args.timeout_factor)
    for note in outcome.notes:
        print(f"note: {note}", file=sys.stderr)
    for intrusion in outcome.intrusions:
        print(f"error: {intrusion}", file=sys.stderr)
    print(f"executed {len(outcome.executed)} in {outcome.wall_s:.1f}s, {len(outcome.failures)} failed", file=sys.stderr)
    return outcome


def cmd_run(args: argparse.Namespace) -> int:
    layout = _layout(args)
    devices = list(DEVICES) if args.device == "all" else [args.device]
    if args.require_device and args.require_device not in devices:
        devices.append(args.require_device)
    if "cuda" in devices and not cuda_available(args.python or sys.executable):
        if args.require_device == "cuda":
            print("error: --require-device cuda, but torch sees no CUDA device on this machine", file=sys.stderr)
            return 2
        print("note: no CUDA device here; CUDA records are left as they are", file=sys.stderr)
        devices.remove("cuda")
    catalog = Catalog.here(layout)
    todo, current = runner.plan(catalog, devices, select=args.snippets, force=args.force, shard=args.shard)
    print(f"{len(todo)} to run, {len(current)} current (devices: {', '.join(devices) or 'none'}; "
          f"torch {catalog.torch})", file=sys.stderr)
    outcome = _execute(catalog, todo, args)
    if args.archive:
        pack(layout, devices, Path(args.archive))
    return 1 if outcome.failures or outcome.intrusions else 0


def pack(layout: Layout, devices: list[str], archive: Path) -> None:
    """One archive of the records of these devices: how GPU captures travel back."""
    archive.parent.mkdir(parents=True, exist_ok=True)
    with tarfile.open(archive, "w:gz") as tar:
        for device in devices:
            for path in sorted(layout.records.rglob(f"*.{device}.json")):
                tar.add(path, arcname=Path("records") / path.relative_to(layout.records))
    print(f"packed {archive}", file=sys.stderr)


def cuda_available(python: str) -> bool:
    import subprocess

    probe = "import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)"
    try:
        return subprocess.run([python, "-c", probe], capture_output=True, timeout=300, check=False).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def cmd_check(args: argparse.Namespace) -> int:
    """Re-execute CPU snippets in a scratch folder; any difference from the record is a mismatch."""
    layout = _layout(args)
    committed = Catalog.here(layout)
    mismatches = 0
    with tempfile.TemporaryDirectory(prefix="phase25-check-") as scratch:
        scratch_catalog = Catalog(Layout(layout.root, layout.snippets, Path(scratch)), committed.torch)
        todo, _ = runner.plan(scratch_catalog, ["cpu"], select=args.snippets, force=True, shard=args.shard)
        outcome = _execute(scratch_catalog, todo, args, estimates=committed)
        for fresh in outcome.executed:
            view = committed.view(fresh.snippet, "cpu")
            volatile = committed.snippets[fresh.snippet].header.volatile
            diff = compare.mismatch(view.record, fresh, volatile) if view.state != "corrupt" else view.reason
            if diff:
                mismatches += 1
                print(f"MISMATCH {fresh.snippet} (cpu)\n{diff}")
    print(f"{len(outcome.executed)} checked, {mismatches} do not match their record", file=sys.stderr)
    if mismatches:
        print("run `make records` to accept the new output on purpose", file=sys.stderr)
    return 1 if mismatches or outcome.failures else 0



def cmd_report(args: argparse.Namespace) -> int:
    """Every (snippet, device) with its state; non-zero if any record is a problem."""
    catalog = Catalog.here(_layout(args))
    width = max((len(s) for s in catalog.snippets), default=10)
    print(f"{'snippet':<{width}}  device  state     wall_s  torch     date")
    for (sid, device), fresh in sorted(catalog.views.items()):
        rec = fresh.record
        wall, torch, date = ((rec.run["wall_s"], rec.provenance.get("torch", ""), rec.run["date"]) if rec
                             else ("", "", ""))
        print(f"{sid:<{width}}  {device:<6}  {fresh.verdict:<8}  {wall!s:>6}  {torch!s:<8}  {date}")
    problems = catalog.problems()
    missing_cuda = sum(1 for (_, d), f in catalog.views.items() if d == "cuda" and f.verdict == "missing")
    for problem in problems:
        print(f"problem: {problem}", file=sys.stderr)
    print(f"\n{len(catalog.views)} runs; {missing_cuda} CUDA records not captured yet; {len(problems)} problems",
          file=sys.stderr)
    return 1 if problems else 0


def cmd_labs(args: argparse.Namespace) -> int:
    layout = _layout(args)
    catalog = Catalog.here(layout)
    docs = layout.root / "docs"
    if args.action == "build":
        for path in labs.write_all(catalog, docs):
            print(f"wrote {path.relative_to(layout.root)}")
        return 0
    problems = labs.stale(catalog, docs)
    for problem in problems:
        print(problem)
    return 1 if problems else 0


def cmd_translations(args: argparse.Namespace) -> int:
    docs = _layout(args).root / "docs"
    if args.action == "check":
        issues = translations.parity(docs) + translations.outdated(docs)
        for issue in issues:
            print(issue)
        print(f"{len(issues)} translation problems", file=sys.stderr)
        return 1 if issues else 0
    if not args.pages:
        raise ValueError("translations stamp needs the Spanish page(s), e.g. docs/es/index.md")
    for page in args.pages:
        rel = Path(page).resolve().relative_to((docs / translations.TARGET).resolve()).as_posix()
        print(f"{page}: translation_of {translations.stamp(docs, rel)}")
    return 0


def cmd_drift(args: argparse.Namespace) -> int:
    from .core import drift

    layout = _layout(args)
    before = Layout(layout.root, layout.snippets, Path(args.before).resolve() if args.before else layout.records)
    after = Layout(layout.root, layout.snippets, Path(args.after).resolve())
    report = drift.between(before, after)
    target = layout.root / drift.REPORTS / f"{args.name}.json"
    atomic.write_atomic(target, drift.dumps(report))
    print(f"wrote {target.relative_to(layout.root)}: {drift.counts(report)} "
          f"(torch {report['a']['torch']} -> {report['b']['torch']})")
    return 0


def cmd_upgrade(args: argparse.Namespace) -> int:
    from .tools import upgrade

    root = _layout(args).root
    if args.action == "latest":
        print(upgrade.latest(root, args.version or None))
        return 0
    if not args.version:
        raise ValueError("upgrade drift needs the torch version, e.g. upgrade drift 2.14.1")
    print(f"wrote reports/drift/{upgrade.measure(root, args.version, args.jobs)}.json and its pages")
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    from .tools import bench

    return bench.main(args)


def cmd_model(args: argparse.Namespace) -> int:
    from .tools import model

    return model.main(_layout(args), check=args.check)


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="python -m phase25", description=__doc__,
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
    top.add_argument("--root", help=argparse.SUPPRESS)
    top.add_argument("--records", help="records folder (default: records/)")
    sub = top.add_subparsers(dest="command", required=True)
    p = sub.add_parser("run", help="execute the runs whose record is missing or stale")
    _run_options(p)
    p.add_argument("--device", choices=[*DEVICES, "all"], default="cpu")
    p.add_argument("--require-device", choices=DEVICES, help="fail unless this device is present")
    p.add_argument("--force", action="store_true", help="re-execute even current records")
    p.add_argument("--archive", help="afterwards, pack the records of the devices run into this .tar.gz")
    _run_options(sub.add_parser("update", help="re-execute every CPU run and rewrite its record"))
    _run_options(sub.add_parser("check", help="re-execute CPU runs into a scratch folder; diff against records"))
    sub.add_parser("report", help="every (snippet, device) and the state of its record")
    sub.add_parser("labs", help="lab notebooks").add_argument("action", choices=["build", "check"])
    p = sub.add_parser("translations", help="Spanish pages: check, or stamp as current")
    p.add_argument("action", choices=["check", "stamp"])
    p.add_argument("pages", nargs="*")
    p = sub.add_parser("drift", help="compare records made under another torch with records/")
    p.add_argument("action", choices=["compare"])
    p.add_argument("after", help="records folder of the new run")
    p.add_argument("--before", help="records folder of the old run (default: records/)")
    p.add_argument("--name", required=True, help="report name, e.g. torch-2.13.0-to-2.14.1")
    p = sub.add_parser("upgrade", help="the torch upgrade pipeline: find a release, measure its drift")
    p.add_argument("action", choices=["latest", "drift"])
    p.add_argument("version", nargs="?", default="", help="torch version (default for latest: the newest on PyPI)")
    p.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    p = sub.add_parser("bench", help="build and execution figures (numbers to read, not a test)")
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--json", help="also write the figures to this file")
    sub.add_parser("model", help="retrain the running example").add_argument(
        "--check", action="store_true", help="compare with the committed checkpoint; write nothing")
    return top


COMMANDS = {"run": cmd_run, "check": cmd_check, "report": cmd_report, "labs": cmd_labs,
            "translations": cmd_translations, "drift": cmd_drift, "upgrade": cmd_upgrade, "bench": cmd_bench,
            "model": cmd_model}


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.command == "update":
        args.command, args.device, args.require_device, args.force, args.archive = "run", "cpu", None, True, None
        args.fresh = True  # committed records are made by fresh interpreters: the reference
    for signum in (signal.SIGINT, signal.SIGTERM):  # Ctrl-C and `kill` both stop everything at once
        signal.signal(signum, signal.default_int_handler)
    try:
        return COMMANDS[args.command](args)
    except Interrupted as exc:
        print(str(exc), file=sys.stderr)
        return 130
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except (SourceError, KeyError, ValueError, FileNotFoundError) as exc:
        print(f"error: {exc.args[0] if isinstance(exc, KeyError) else exc}", file=sys.stderr)
        return 2
