"""``releases.toml``: the torch releases published beside the current one, each by commits of this repository.

A git tag does not travel with a push or a plain clone; a commit of the history does. So each past release is
recorded in the tree: the last commit pinned on it (its pages, snippets, records, and the snippets' own code,
``scripts/minigpt`` and the rest, exactly as its records were made with) and, where that commit's site
machinery cannot build its records with today's environment, the commit whose machinery does. Everything read
here reaches git's command line, so it is checked first: a release name of digits, full hex commits of this
repository's history, and a commit that pins the torch its entry says.
"""

from __future__ import annotations

import re
import subprocess
import tomllib
from dataclasses import dataclass
from pathlib import Path

from ..core import bounded
from ..core.errors import SourceError, toml_problem
from ..core.names import refuse_unreadable

FILE = "releases.toml"
GIT_S = 120  # seconds: one git command
TORCH = re.compile(r"[0-9]{1,4}\.[0-9]{1,4}\.[0-9]{1,4}")  # a torch release, X.Y.Z
NAME = re.compile(r"[0-9]{1,4}\.[0-9]{1,4}(\.[0-9]{1,4})?")  # a release as `--previous` names it: X.Y or X.Y.Z
COMMIT = re.compile(r"[0-9a-f]{40}")  # a full commit id: never a branch, a tag or an abbreviation that moves
KEYS = {"torch", "commit", "machinery"}


@dataclass(frozen=True)
class Release:
    """One past release: ``torch`` pinned by ``commit``, built by the machinery of ``machinery``."""

    torch: str
    commit: str
    machinery: str
    line: int  # of its ``[[release]]`` in releases.toml: where an error about it points

    @property
    def version(self) -> str:
        """The published version: one per minor release (``2.13``)."""
        return minor(self.torch)


def minor(version: str) -> str:
    """``2.15.0`` -> ``2.15``: one published version per minor release."""
    return ".".join(version.split(".")[:2])


def git(root: Path, *args: str) -> str:
    done = bounded.run(["git", *args], cwd=root, check=True, capture_output=True, text=True, timeout=GIT_S)
    return str(done.stdout).strip()


def _in_history(root: Path, commit: str) -> bool:
    """``commit`` is a commit that HEAD descends from: every full clone of this branch has it."""
    try:
        git(root, "cat-file", "-e", f"{commit}^{{commit}}")
        git(root, "merge-base", "--is-ancestor", commit, "HEAD")
    except subprocess.CalledProcessError:
        return False
    return True


def pinned_at(root: Path, commit: str) -> str | None:
    """The torch ``commit``'s requirements.txt pins."""
    try:
        text = git(root, "show", f"{commit}:requirements.txt")
    except subprocess.CalledProcessError:
        return None
    found = re.search(r"^torch==(\S+)", text, re.MULTILINE)
    return found.group(1) if found else None


def _lines(text: str) -> list[dict[str, int]]:
    """For each ``[[release]]``, in order, the line of each of its keys, and of its header as ``""``."""
    found: list[dict[str, int]] = []
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip().startswith("[[release]]"):
            found.append({"": number})
        elif found and (key := re.match(r"\s*([A-Za-z0-9_-]+)\s*=", line)):
            found[-1].setdefault(key.group(1), number)
    return found


def _entry(root: Path, raw: object, at: dict[str, int]) -> Release:
    """One ``[[release]]`` table, checked field by field before any of it reaches git."""

    def refuse(key: str, message: str) -> SourceError:
        return SourceError(FILE, message, at.get(key) or at.get("") or None)

    if not isinstance(raw, dict):
        raise refuse("", "a release is a [[release]] table")
    if unknown := sorted(set(raw) - KEYS):
        raise refuse(unknown[0], f"unknown key(s) {', '.join(unknown)}: a release has {', '.join(sorted(KEYS))}")
    torch, commit = raw.get("torch"), raw.get("commit")
    machinery = raw.get("machinery", commit)
    if not isinstance(torch, str) or not TORCH.fullmatch(torch):
        raise refuse("torch", f"torch = {torch!r} is not a torch release (X.Y.Z, digits)")
    for key, value in (("commit", commit), ("machinery", machinery)):
        if not isinstance(value, str) or not COMMIT.fullmatch(value):
            raise refuse(key, f"{key} = {value!r} is not a full commit id (40 lowercase hex digits)")
        if not _in_history(root, value):
            raise refuse(key, f"{key} {value} is not a commit of this branch's history (git log)")
    assert isinstance(commit, str) and isinstance(machinery, str)
    pinned = pinned_at(root, commit)
    if pinned != torch:
        raise refuse("commit", f"commit {commit[:12]} pins torch {pinned}, not {torch}: the wrong commit?")
    return Release(torch, commit, machinery, at.get("", 0))


def read(root: Path) -> list[Release]:
    """Every recorded release, oldest first, no minor release twice."""
    path = root / FILE
    refuse_unreadable(path, root)  # a FIFO would make the read wait forever; a link would read another file
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message, line = toml_problem(exc)
        raise SourceError(FILE, message, line) from None
    if unknown := sorted(set(data) - {"release"}):
        raise SourceError(FILE, f"unknown table(s) {', '.join(unknown)}: the file holds [[release]] tables only")
    raw = data.get("release", [])
    if not isinstance(raw, list):
        raise SourceError(FILE, "release is a list of [[release]] tables")
    lines = _lines(text) + [{}] * len(raw)
    releases: list[Release] = []
    for entry, at in zip(raw, lines, strict=False):
        release = _entry(root, entry, at)
        if any(r.version == release.version for r in releases):
            raise SourceError(
                FILE, f"torch {release.version} is recorded twice: one version per minor release", at.get("torch")
            )
        releases.append(release)
    return sorted(releases, key=lambda r: tuple(int(p) for p in r.torch.split(".")))


def chosen(releases: list[Release], name: str | None) -> list[Release]:
    """All of them, or the one ``name`` (``X.Y`` or ``X.Y.Z``) names; a name that is not there is said in one line."""
    if not name:
        return releases
    if not NAME.fullmatch(name):
        raise ValueError(f"{name!r} is not a release name (X.Y or X.Y.Z, digits)")
    found = [r for r in releases if name in (r.torch, r.version)]
    if not found:
        listed = ", ".join(r.torch for r in releases) or "none"
        raise ValueError(f"no release {name} in {FILE} (recorded: {listed})")
    return found


def beside(recorded: list[Release], current: str) -> None:
    """None of them is the current pin's minor release: that one is the current tree."""
    for release in recorded:
        if release.version == minor(current):
            raise SourceError(
                FILE, f"torch {release.version} is the current pin's: the current tree publishes it", release.line
            )
