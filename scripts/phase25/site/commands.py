"""The commands about pages: ``labs`` (the notebooks) and ``translations`` (the Spanish pages)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..core.catalog import Catalog
from ..core.paths import Layout
from .downloads import labs as lab_notebooks
from .lang import translations as spanish


def labs(args: argparse.Namespace, layout: Layout) -> int:
    """``build`` writes every lab notebook from its sources; ``check`` names each one that differs."""
    catalog = Catalog.here(layout)
    docs = layout.root / "docs"
    if args.action == "build":
        for path in lab_notebooks.write_all(catalog, docs):
            print(f"wrote {path.relative_to(layout.root)}")
        return 0
    problems = lab_notebooks.stale(catalog, docs)
    for problem in problems:
        print(problem)
    return 1 if problems else 0


def _translated(docs: Path, page: Path) -> tuple[str, str]:
    """(language, path inside its folder) of a translated page; any other path is refused, named."""
    for lang in spanish.TARGETS:
        folder = (docs / lang).resolve()
        if page.resolve().is_relative_to(folder):
            return lang, page.resolve().relative_to(folder).as_posix()
    folders = ", ".join(f"docs/{lang}/" for lang in spanish.TARGETS)
    raise ValueError(f"{page} is not a translated page (those live under {folders})")


def translations(args: argparse.Namespace, layout: Layout) -> int:
    """``check`` reports parity and freshness problems; ``stamp`` marks pages as translating the English now."""
    docs = layout.root / "docs"
    if args.action == "check":
        issues = spanish.parity(docs) + spanish.outdated(docs)
        for issue in issues:
            print(issue)
        print(f"{len(issues)} translation problems", file=sys.stderr)
        return 1 if issues else 0
    if not args.pages:
        raise ValueError("translations stamp needs the Spanish page(s), e.g. docs/es/index.md")
    for page in args.pages:
        lang, rel = _translated(docs, Path(page))
        print(f"{page}: translation_of {spanish.stamp(docs, rel, lang)}")
    return 0
