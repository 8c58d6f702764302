"""The checkout guard: files of the project that change while snippets run.

Each run works on a private copy of its snippet and dependencies, so a snippet
that writes through ``__file__`` changes its copy. What isolation cannot stop
(a write through an absolute path) this notices, and the run is blamed: the
runner reports it, and a strict build refuses it.

It sees every file git knows in the checkout (tracked, and untracked but not
ignored), or every file outside the ignored folders when the checkout is not a
git repository, and it compares their content, so a change that keeps a file's
size and modification time is seen too.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import threading
from pathlib import Path

from ..core import records
from ..core.paths import Layout

# Outside git: folders that are the machine's, not the project's (what .gitignore lists).
UNWATCHED = {".git", ".venv", "site", ".cache", "__pycache__", ".pytest_cache", ".ruff_cache", ".mypy_cache"}


def _git_files(root: Path) -> list[Path] | None:
    try:
        listed = subprocess.run(
            ["git", "-C", str(root), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            capture_output=True,
            timeout=60,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if listed.returncode != 0:
        return None
    return [root / name.decode("utf-8", "surrogateescape") for name in listed.stdout.split(b"\0") if name]


def _walk(top: Path) -> list[Path]:
    found = []
    for folder, dirs, names in os.walk(top):
        dirs[:] = [d for d in dirs if d not in UNWATCHED]
        found += [Path(folder) / name for name in names]
    return found


class CheckoutGuard:
    """Notices files of the checkout that change while snippets run, other than the records we write."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.lock = threading.Lock()
        self.ours: set[str] = set()
        self.seen = self._scan()

    def _files(self) -> list[Path]:
        found = _git_files(self.layout.root) or _walk(self.layout.root)
        if not self.layout.records.is_relative_to(self.layout.root):
            found += _walk(self.layout.records)
        # (an atomic write's temporary file comes and goes: not a change)
        return [p for p in found if "__pycache__" not in p.parts and not p.name.endswith(".tmp")]

    def _scan(self) -> dict[str, str]:
        found = {}
        for path in self._files():
            try:
                if path.is_symlink():
                    digest = "link:" + os.readlink(path)
                else:
                    digest = hashlib.blake2b(path.read_bytes(), digest_size=16).hexdigest()
            except (FileNotFoundError, IsADirectoryError, PermissionError):
                continue
            found[records.display(self.layout, path)] = digest
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
