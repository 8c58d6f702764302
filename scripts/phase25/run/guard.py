"""The checkout guard: files of the project that change while snippets run.

Each run works on a private copy of its snippet and dependencies, so a snippet
that writes through ``__file__`` changes its copy. What isolation cannot stop
(a write through an absolute path) this notices, and the run is blamed: the
runner reports it, and a strict build refuses it.

It sees every file git knows in the checkout (tracked, and untracked but not
ignored), or every file outside the ignored folders when the checkout is not a
git repository, and it compares their content, so a change that keeps a file's
size and modification time is seen too. It sees the ignored folders as well,
by cheaper signatures: the caches the build reuses (``.cache/``), the built
site and the virtual environment (by its folders' times, down to its packages),
since a run that writes there poisons a later build or run, and git's own settings
and hooks, which name programs git starts on a maintainer's next command. The developer's
tool caches and the runner's own lock files are left out; nothing else of the
checkout is a run's to write (Inductor's precompiled headers are each run's own,
in its scratch: see ``bootstrap._own_headers``).
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
# Ignored folders that neither the build nor a run trusts: the developer's tools rewrite them at any time.
TOOL_CACHES = {"__pycache__", ".pytest_cache", ".ruff_cache", ".mypy_cache"}
# Ignored trees too big to read after each run: a file added, removed or renamed there changes its folder's
# time, and that is what is compared (a .pth file or a replaced module in the environment is seen).
BY_FOLDER = {".venv"}
FOLDER_DEPTH = 4  # .venv/lib/python3.X/site-packages/<package>: where a .pth, a sitecustomize or a module lands
RUNNER_OWNED = (".cache/phase25/locks/",)  # the runner's own locks
# What git itself obeys on a maintainer's next command, in the checkout's git folder (and a worktree's common one):
# its settings (an alias, a filter, core.hooksPath, core.fsmonitor each name a program git starts) and its hooks.
GIT_CONTROLS = ("config", "hooks")


def _git(root: Path, *args: str) -> list[str] | None:
    try:
        listed = subprocess.run(
            ["git", "-C", str(root), "ls-files", "-z", *args], capture_output=True, timeout=60, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if listed.returncode != 0:
        return None
    return [name.decode("utf-8", "surrogateescape") for name in listed.stdout.split(b"\0") if name]


def _git_files(root: Path) -> list[Path] | None:
    names = _git(root, "--cached", "--others", "--exclude-standard")
    return None if names is None else [root / name for name in names]


def git_lines(root: Path, *args: str, timeout: float = 60) -> list[str]:
    """What ``git -C root <args>`` prints, a line each; none outside git, or when git fails or outlives ``timeout``."""
    try:
        asked = subprocess.run(
            ["git", "-C", str(root), *args], capture_output=True, text=True, timeout=timeout, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return []
    return asked.stdout.splitlines() if asked.returncode == 0 else []


def _git_controls(root: Path) -> list[Path]:
    """The files of :data:`GIT_CONTROLS` in the checkout's git folders; none outside git."""
    folders = dict.fromkeys(root / line for line in git_lines(root, "rev-parse", "--git-dir", "--git-common-dir"))
    found = []
    for folder in folders:
        for name in GIT_CONTROLS:
            path = folder / name
            found += _walk(path, set()) if path.is_dir() else [path]
    return found


def _ignored(root: Path) -> list[str] | None:
    """The checkout's ignored files and folders (a folder once, ending in '/'), as git sees them."""
    return _git(root, "--others", "--ignored", "--exclude-standard", "--directory")


def _walk(top: Path, skip: set[str] = UNWATCHED) -> list[Path]:
    found = []
    for folder, dirs, names in os.walk(top):
        dirs[:] = [d for d in dirs if d not in skip]
        found += [Path(folder) / name for name in names]
    return found


def _folders(top: Path, depth: int) -> list[Path]:
    """``top`` and its folders down to ``depth`` levels, links not followed."""
    found, level = [top], [top]
    for _ in range(depth):
        level = [entry for folder in level for entry in _subfolders(folder)]
        found += level
    return found


def _subfolders(folder: Path) -> list[Path]:
    try:
        return [Path(e.path) for e in os.scandir(folder) if e.is_dir(follow_symlinks=False)]
    except OSError:
        return []


def _stat(path: Path) -> str:
    """A cheap signature of an ignored file: a write changes its size, its time or (replaced) its inode."""
    info = path.lstat()
    return f"stat:{info.st_size}:{info.st_mtime_ns}:{info.st_ino}"


class CheckoutGuard:
    """Notices files of the checkout that change while snippets run, other than the records we write."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.lock = threading.Lock()
        self.ours: set[str] = set()
        self.seen: dict[str, str] = {}
        self.seen = self._scan()

    def _files(self) -> list[Path]:
        found = _git_files(self.layout.root) or _walk(self.layout.root)
        if not self.layout.records.is_relative_to(self.layout.root):
            found += _walk(self.layout.records)
        # (an atomic write's temporary file comes and goes: not a change)
        return [p for p in found if "__pycache__" not in p.parts and not p.name.endswith(".tmp")]

    def _ignored_files(self) -> tuple[list[Path], list[Path]]:
        """(the ignored files, the folders of the ignored trees seen by folder): what the build reuses
        (.cache/), what it publishes (site/) and what it runs (.venv) are the checkout's too."""
        root = self.layout.root
        tops = _ignored(root)
        if tops is None:
            tops = [name + "/" for name in UNWATCHED - TOOL_CACHES - {".git"} if (root / name).is_dir()]
        files, folders = [], []
        for top in tops:
            path = root / top.rstrip("/")
            if TOOL_CACHES & set(Path(top).parts):
                continue
            if not top.endswith("/") or path.is_symlink():
                files.append(path)
            elif path.name in BY_FOLDER:
                folders += _folders(path, FOLDER_DEPTH)
            else:
                files += _walk(path, TOOL_CACHES)
        return files, folders

    def _scan(self) -> dict[str, str]:
        found = {}
        ignored, folders = self._ignored_files()
        controls = _git_controls(self.layout.root)
        for path, how in [*((p, "content") for p in [*self._files(), *controls]), *((p, "stat") for p in ignored)]:
            shown = records.display(self.layout, path)
            if shown.startswith(RUNNER_OWNED) or path.name.endswith(".tmp"):
                continue
            try:
                if path.is_symlink():
                    digest = "link:" + os.readlink(path)
                elif how == "stat":
                    digest = _stat(path)
                else:
                    digest = hashlib.blake2b(path.read_bytes(), digest_size=16).hexdigest()
            except (FileNotFoundError, IsADirectoryError, PermissionError):
                continue
            found[shown] = digest
        for folder in folders:
            try:
                found[records.display(self.layout, folder) + "/"] = f"folder:{folder.lstat().st_mtime_ns}"
            except FileNotFoundError:
                continue
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
