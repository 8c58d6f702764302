"""The checkout guard: files of the project that change while snippets run.

Each run works on a private copy of its snippet and dependencies, so a snippet
that writes through ``__file__`` changes its copy. What isolation cannot stop
(a write through an absolute path) this notices, and the run is blamed: the
runner reports it, and a strict build refuses it.
"""

from __future__ import annotations

import threading
from pathlib import Path

from ..core import records
from ..core.paths import BUILD_INPUTS, Layout


class CheckoutGuard:
    """Notices files of the checkout that change while snippets run, other than the records we write.

    Runs work on private copies, so a snippet that writes through ``__file__`` changes
    its copy; this catches what isolation cannot, such as an absolute path.
    """

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.lock = threading.Lock()
        self.ours: set[str] = set()
        self.seen = self._scan()

    def _files(self) -> list[Path]:
        found = []
        for top in [self.layout.root / name for name in BUILD_INPUTS] + [self.layout.records]:
            found += [top] if top.is_file() else [p for p in top.rglob("*") if p.is_file()] if top.is_dir() else []
        # (an atomic write's temporary file comes and goes: not a change)
        return [p for p in found if "__pycache__" not in p.parts and not p.name.endswith(".tmp")]

    def _scan(self) -> dict[str, tuple[int, int]]:
        found = {}
        for path in self._files():
            try:
                stat = path.stat()
            except FileNotFoundError:
                continue
            found[records.display(self.layout, path)] = (stat.st_mtime_ns, stat.st_size)
        return found

    def expect(self, path: Path) -> None:
        """A file the runner is about to write itself."""
        with self.lock:
            self.ours.add(records.display(self.layout, path))

    def check(self, suspects: list[str]) -> str | None:
        """After a run: what changed since the last check, blamed on the runs that were running."""
        with self.lock:
            now = self._scan()
            changed = sorted(
                k for k in set(now) | set(self.seen) if now.get(k) != self.seen.get(k) and k not in self.ours
            )
            self.seen = now
        if not changed:
            return None
        return f"{' or '.join(sorted(suspects))} changed files of the checkout while running: {', '.join(changed[:10])}"
