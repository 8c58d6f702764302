"""The maintainers' commands: ``drift``, ``upgrade``, ``bench`` and ``model``."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..core import atomic
from ..core import drift as drift_report
from ..core.paths import Layout


def drift(args: argparse.Namespace, layout: Layout) -> int:
    """Compare a records folder made under another torch with the committed one; write the report."""
    before = Layout(layout.root, layout.snippets, Path(args.before).resolve() if args.before else layout.records)
    after = Layout(layout.root, layout.snippets, Path(args.after).resolve())
    report = drift_report.between(before, after)
    target = layout.root / drift_report.REPORTS / f"{args.name}.json"
    atomic.write_atomic(target, drift_report.dumps(report))
    print(
        f"wrote {target.relative_to(layout.root)}: {drift_report.counts(report)} "
        f"(torch {report['a']['torch']} -> {report['b']['torch']})"
    )
    return 0


def upgrade(args: argparse.Namespace, layout: Layout) -> int:
    """``latest``: the release to measure and whether it is newer; ``drift V``: measure torch V's drift."""
    from . import upgrade as pipeline

    if args.action == "latest":
        print(pipeline.latest(layout.root, args.version or None))
        return 0
    if not args.version:
        raise ValueError("upgrade drift needs the torch version, e.g. upgrade drift 2.14.1")
    print(f"wrote reports/drift/{pipeline.measure(layout.root, args.version, args.jobs)}.json and its pages")
    return 0


def bench(args: argparse.Namespace, layout: Layout) -> int:
    """Build and execution figures, side by side (numbers to read, not a test)."""
    from . import bench as figures

    return figures.main(args)


def model(args: argparse.Namespace, layout: Layout) -> int:
    """Retrain the running example (``--check``: compare with the committed checkpoint, write nothing)."""
    from . import model as retraining

    return retraining.main(layout, check=args.check)
