#!/usr/bin/env python3
"""Compare two record folders and write a drift report for the site.

    python scripts/drift.py compare NEW_RECORDS --name torch-2.13.0-to-2.14.1
        compares records/ (before) with NEW_RECORDS (after) and writes
        reports/drift/<name>.json, which a page shows with `::: drift-report <name>`
"""

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from phase25 import drift, records
from phase25.paths import DEFAULT_LAYOUT, Layout


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("compare")
    p.add_argument("after", help="records folder of the new run")
    p.add_argument("--before", default=str(DEFAULT_LAYOUT.records), help="records folder of the old run")
    p.add_argument("--name", required=True, help="report name, e.g. torch-2.13.0-to-2.14.1")
    args = parser.parse_args(argv)
    before = Layout(DEFAULT_LAYOUT.root, DEFAULT_LAYOUT.snippets, Path(args.before).resolve())
    after = Layout(DEFAULT_LAYOUT.root, DEFAULT_LAYOUT.snippets, Path(args.after).resolve())
    report = drift.compare(before, after)
    target = DEFAULT_LAYOUT.root / drift.REPORTS / f"{args.name}.json"
    records.write_atomic(target, drift.dumps(report))
    counts = {}
    for entry in report["entries"]:
        counts[entry["state"]] = counts.get(entry["state"], 0) + 1
    print(f"wrote {target.relative_to(DEFAULT_LAYOUT.root)}: {counts} "
          f"(torch {report['a']['torch']} -> {report['b']['torch']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
