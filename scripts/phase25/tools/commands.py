"""The maintainers' commands, one function each (cli.py's table names them all): ``drift``, ``upgrade``, ``bench``,
``model``, ``engines``, ``versions`` and ``site-check``."""

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
    target = drift_report.report_path(layout.root, args.name)
    report = drift_report.between(before, after)
    atomic.write_atomic(target, drift_report.dumps(report))
    print(
        f"wrote {target.relative_to(layout.root)}: {drift_report.counts(report)} "
        f"(torch {report['a']['torch']} -> {report['b']['torch']})"
    )
    return 0


def upgrade(args: argparse.Namespace, layout: Layout) -> int:
    """``latest``: the release to measure; ``drift V``: measure torch V's drift on this machine; ``shard V
    --shard i/n``: one machine's share of it; ``report V DIR...``: merge the shards' records and report."""
    from . import upgrade as pipeline

    if args.action == "latest":
        print(pipeline.latest(layout.root, args.version or None))
        return 0
    if not args.version:
        raise ValueError(f"upgrade {args.action} needs the torch version, e.g. upgrade {args.action} 2.14.1")
    if args.action == "pin":
        from .upgrade_pin import pin

        print(pin(layout.root, args.version))
        return 0
    if args.action == "review":
        print(pipeline.review(layout.root, args.version))
        return 0
    if args.action == "shard":
        if args.shard is None:
            raise ValueError("upgrade shard needs --shard i/n")
        folder = pipeline.execute(layout.root, args.version, args.jobs, args.shard)
        print(f"records of shard {args.shard[0]}/{args.shard[1]} in {folder.relative_to(layout.root)}")
        return 0
    if args.action == "report":
        name = pipeline.merged_report(layout.root, args.version, [Path(f) for f in args.folders])
    else:
        name = pipeline.measure(layout.root, args.version, args.jobs)
    print(f"wrote reports/drift/{name}.json and its pages")
    return 0


def bench(args: argparse.Namespace, layout: Layout) -> int:
    """Build and execution figures, side by side (numbers to read, not a test)."""
    from . import bench as figures

    return figures.main(args)


def model(args: argparse.Namespace, layout: Layout) -> int:
    """Retrain the running example (``--check``: compare with the committed checkpoint, write nothing)."""
    from . import model as retraining

    return retraining.main(layout, check=args.check)


def engines(args: argparse.Namespace, layout: Layout) -> int:
    """Build the site with MkDocs and with ProperDocs (strict, nothing executed) and compare them page by page."""
    import tempfile

    from . import build_site
    from . import engines as comparison

    with tempfile.TemporaryDirectory(prefix="phase25-engines-") as scratch:
        sites = {engine: Path(scratch) / engine for engine in build_site.ENGINES}
        for engine, site in sites.items():
            built = build_site.build(layout.root, site, engine=engine, site_url=args.site_url)
            if built.returncode:
                print(f"the {engine} build failed:\n{built.stderr[-3000:]}")
                return 1
        found, causes = comparison.compare(sites["mkdocs"], sites["properdocs"])
    print(comparison.report(found, causes))
    return 1 if found else 0


def versions(args: argparse.Namespace, layout: Layout) -> int:
    """Publish the current release as ``latest`` and the recorded ones (``releases.toml``), on one branch."""
    from . import versions as publishing

    published = publishing.publish(layout.root, args.previous or None, args.branch)
    print(f"published {', '.join(published)} on {args.branch} (default: latest)")
    return 0


def site_check(args: argparse.Namespace, layout: Layout) -> int:
    """The reader's path on a built site: every link, anchor, id, download and reference a reader can follow."""
    from . import reader_path

    site = Path(args.site) if args.site else layout.root / "site"
    problems = reader_path.check(site, args.prefix)
    for problem in problems:
        print(problem)
    print(f"{len(problems)} problem(s) on the reader's path of {site}")
    return 1 if problems else 0
