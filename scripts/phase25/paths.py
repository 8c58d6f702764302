"""Where things live in the repository; one place so tests can point elsewhere."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]


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
