"""The one command line: ``python -m phase25 <command>``.

    run [ID...]           execute the runs whose record is missing or stale (CPU by default)
    update [ID...]        re-execute CPU runs and rewrite their records, on purpose
    check [ID...]         re-execute CPU runs in a scratch folder; print each mismatch as a diff
    report                every (snippet, device) and the state of its record
    merge DIR...          merge the records folders of shards (--shard i/n): every run once, or nothing
    unpack ARCHIVE        check a GPU capture's archive record by record, then write its CUDA records
    labs build|check      write the lab notebooks, or check them against their sources
    translations check    parity and freshness of the Spanish pages
    translations stamp P  mark docs/es/P as translating the current English page
    drift compare DIR     compare a records folder made under another torch with records/
    upgrade latest        the torch release to measure, and whether it is newer than the pin
    upgrade drift V       run the CPU snippets under torch V; write the drift report and its pages
    upgrade shard V       one machine's share of that run (--shard i/n), spread over a CI matrix
    upgrade report V DIR  merge the shards' records (each run once) and write the drift report
    versions              publish the current release as latest and each one releases.toml records (mike)
    upgrade pin V         keep the committed records aside; pin torch V and the triton it requires
    upgrade review V      drift report of the kept records against the new ones; pages; review checklist
    bench                 build and execution figures
    model [--check]       retrain the running example (and compare with the committed checkpoint)
    engines               build the site with MkDocs and with ProperDocs; compare them page by page
    site-check [--site D] the reader's path on a built site: links, anchors, ids, downloads, references
    offline               build the site and pack it as a zip a reader opens from the disk (file://)

Bad input is reported as one line naming the file (and line) and exits with 2;
Ctrl-C stops everything at once and exits with 130.
"""

from __future__ import annotations

import argparse
import importlib
import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path

from .core.devices import DEVICES
from .core.errors import Interrupted, SourceError
from .core.paths import REPO_ROOT, Layout
from .run.plan import parse_shard

# Each command lives with its concern and is imported only when it runs: `run` on the GPU machine
# imports the standard library, core/ and run/, nothing of the site.
COMMANDS = {
    "run": "run.commands:run",
    "update": "run.commands:update",
    "check": "run.commands:check",
    "report": "run.commands:report",
    "merge": "run.commands:merge",
    "unpack": "run.commands:unpack",
    "labs": "site.commands:labs",
    "translations": "site.commands:translations",
    "drift": "tools.commands:drift",
    "upgrade": "tools.commands:upgrade",
    "versions": "tools.commands:versions",
    "bench": "tools.commands:bench",
    "model": "tools.commands:model",
    "engines": "tools.commands:engines",
    "site-check": "tools.commands:site_check",
    "offline": "tools.offline:main",
}


def _run_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("snippets", nargs="*", help="snippet ids (default: all), e.g. 00-orientation/linear_grad_fn")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1, help="runs in parallel")
    parser.add_argument("--shard", type=parse_shard, help="i/n: this machine's share of the work")
    parser.add_argument("--python", help="interpreter that runs the snippets (default: this one)")
    parser.add_argument("--fresh", action="store_true", help="a fresh interpreter for every run (no warm fork)")
    parser.add_argument(
        "--timeout-factor",
        type=float,
        default=1.0,
        help="multiply every timeout, for a slow interpreter such as an emulated CPU",
    )


def _site_and_tool_commands(sub: argparse._SubParsersAction) -> None:
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
    p.add_argument("action", choices=["latest", "drift", "shard", "report", "pin", "review"])
    p.add_argument("version", nargs="?", default="", help="torch version (default for latest: the newest on PyPI)")
    p.add_argument("folders", nargs="*", help="report: the records folder of each shard")
    p.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--shard", type=parse_shard, help="shard: this machine's share, i/n")
    p = sub.add_parser("versions", help="publish the current release as latest and each recorded one beside it")
    p.add_argument("--previous", default="", help="one recorded release, X.Y (default: every one releases.toml lists)")
    p.add_argument("--branch", default="gh-pages", help="the branch the versions are committed to")
    p = sub.add_parser("bench", help="build and execution figures (numbers to read, not a test)")
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--json", help="also write the figures to this file")
    sub.add_parser("engines", help="build with MkDocs and with ProperDocs; compare the two sites").add_argument(
        "--site-url", help="the address both sites are built for (default: mkdocs.yml's)"
    )
    p = sub.add_parser("site-check", help="the reader's path on a built site: links, anchors, ids, downloads")
    p.add_argument("--site", help="the built site (default: site/)")
    p.add_argument("--prefix", help="the path the site is published under (default: its pages' canonical address)")
    sub.add_parser("offline", help="the site as a zip readable from file://, both languages").add_argument(
        "--output", default="site-offline.zip", help="the zip to write (default: site-offline.zip)"
    )
    sub.add_parser("model", help="retrain the running example").add_argument(
        "--check", action="store_true", help="compare with the committed checkpoint; write nothing"
    )


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="python -m phase25", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    top.add_argument("--root", help=argparse.SUPPRESS)
    top.add_argument("--records", help="records folder (default: records/)")
    sub = top.add_subparsers(dest="command", required=True)
    p = sub.add_parser("run", help="execute the runs whose record is missing or stale")
    _run_options(p)
    p.add_argument("--device", choices=[*DEVICES, "local", "all"], default="cpu", help="local: cpu and the emulated")
    p.add_argument("--require-device", choices=DEVICES, help="fail unless this device is present")
    p.add_argument("--force", action="store_true", help="re-execute even current records")
    p.add_argument("--archive", help="afterwards, pack the records of the devices run into this .tar.gz")
    _run_options(sub.add_parser("update", help="re-execute every CPU and emulated run and rewrite its record"))
    _run_options(sub.add_parser("check", help="re-execute CPU and emulated runs into a scratch folder; diff them"))
    sub.add_parser("report", help="every (snippet, device) and the state of its record")
    p = sub.add_parser("merge", help="merge the records folders of shards: every run exactly once, or nothing")
    p.add_argument("folders", nargs="+", help="one records folder per shard")
    p.add_argument("--device", choices=[*DEVICES, "local"], default="local")
    p.add_argument("--into", help="records folder to write (default: records/)")
    sub.add_parser("unpack", help="check a GPU capture's archive, then write its CUDA records").add_argument(
        "archive", help="the .tar.gz the capture made"
    )
    _site_and_tool_commands(sub)
    return top


def command(name: str) -> Callable[[argparse.Namespace, Layout], int]:
    """The function of a command, imported from its concern's module."""
    module, _, function = COMMANDS[name].partition(":")
    found: Callable[[argparse.Namespace, Layout], int] = getattr(
        importlib.import_module(f"{__package__}.{module}"), function
    )
    return found


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    layout = Layout.of(Path(args.root) if args.root else REPO_ROOT, Path(args.records) if args.records else None)
    for signum in (signal.SIGINT, signal.SIGTERM):  # Ctrl-C and `kill` both stop everything at once
        signal.signal(signum, signal.default_int_handler)
    try:
        return command(args.command)(args, layout)
    except Interrupted as exc:
        print(str(exc), file=sys.stderr)
        return 130
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except (SourceError, KeyError, ValueError) as exc:
        print(f"error: {exc.args[0] if isinstance(exc, KeyError) else exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # a folder that cannot be made, a disk that is full: the path and the reason
        print(f"error: {exc.filename or 'a file'}: {exc.strerror or exc}", file=sys.stderr)
        return 2
