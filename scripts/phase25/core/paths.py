"""Where things live in the repository; one place so tests can point elsewhere."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from .names import refuse_unreadable

REPO_ROOT = Path(__file__).resolve().parents[3]


@dataclass(frozen=True)
class Layout:
    """The folders the runner reads from and writes to."""

    root: Path
    snippets: Path
    records: Path

    @classmethod
    def of(cls, root: Path, records: Path | None = None) -> Layout:
        root = root.resolve()
        return cls(root=root, snippets=root / "snippets", records=(records or root / "records").resolve())


DEFAULT_LAYOUT = Layout.of(REPO_ROOT)


# What a build reads: a scratch copy of these is a project to break on purpose
# (tests) or to time (benchmark) without touching the working tree.
BUILD_INPUTS = ("docs", "snippets", "records", "reports", "scripts", "overrides", "mkdocs.yml")


def copy_project(target: Path, source: Path = REPO_ROOT) -> Path:
    """A copy of what a build reads; a symbolic link among it (copying would read its target, wherever it points),
    a FIFO, a name that is not text or a file too large is refused before anything is copied."""
    for name in BUILD_INPUTS:
        refuse_unreadable(source / name, source)
    target.mkdir(parents=True, exist_ok=True)
    for name in BUILD_INPUTS:
        if (source / name).is_dir():
            shutil.copytree(source / name, target / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source / name, target / name)
    return target
