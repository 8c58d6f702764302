"""``python -m phase25 versions``: the site published per torch release, the way MkDocs sites do (mike).

The current tree is deployed as its torch's minor release (``2.15``) with the alias ``latest``; the previous
release is deployed from its git tag (``torch-2.13.0``) as ``2.13``, from its own pages and committed records,
never re-executed: its build judges the records by the torch its own requirements pin (``PHASE25_ARCHIVED=1``).
The past tree is built by today's site machinery (``scripts/`` and ``overrides/`` of this checkout), so a fix to
the site reaches every version. Both languages are inside each version (``2.13/es/``); Material's version selector
reads mike's ``versions.json`` (copied into each version for the Spanish pages, see :func:`share_versions_list`).
Everything lands on one branch (default ``gh-pages``): publish with this command, not with ``mike`` alone.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from ..core import bounded
from ..core.catalog import pinned_torch
from ..site.lang import strings, translations

GIT_S, DEPLOY_S = 120, 3600  # seconds: one git command, one mike deploy (a strict build of the whole site)
VERSIONED_CONFIG = "mkdocs.versioned.yml"
TAG = re.compile(r"torch-[0-9]{1,4}\.[0-9]{1,4}\.[0-9]{1,4}")  # a release tag, as `make versions PREVIOUS=` names it
BRANCH = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,99}")  # the branch the versions are committed to
REDIRECT = (  # the selector's stub for a translated page (see share_versions_list), in that page's language
    '<!DOCTYPE html>\n<html lang="{lang}"><head><meta charset="utf-8"><title>{title}</title>'
    '<meta http-equiv="refresh" content="0; url={target}"><link rel="canonical" href="{target}"></head>'
    '<body><a href="{target}">{target}</a></body></html>\n'
)
CONFIG = (
    "# Written by `python -m phase25 versions` for one deploy, then removed: the site's config, strict,\n"
    "# with Material's version selector.\n"
    "INHERIT: mkdocs.yml\nstrict: true\nextra:\n  version:\n    provider: mike\n    default: latest\n"
)


def minor(version: str) -> str:
    """``2.15.0`` -> ``2.15``: one published version per minor release."""
    return ".".join(version.split(".")[:2])


def _mike(tree: Path, args: list[str], *, archived: bool = False) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PHASE25_EXECUTE"}  # a published build never executes
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])  # mike runs the builder
    if archived:
        env["PHASE25_ARCHIVED"] = "1"
    mike = [sys.executable, "-c", "from mike.driver import main; main()"]  # mike has no __main__
    bounded.run([*mike, *args], cwd=tree, env=env, check=True, timeout=DEPLOY_S)


def deploy(tree: Path, branch: str, aliases: tuple[str, ...] = (), *, archived: bool = False) -> str:
    """Build ``tree`` strictly and commit it to ``branch`` as its torch's minor release."""
    torch = pinned_torch(tree)
    if torch is None:
        raise ValueError(f"{tree}/requirements.txt pins no torch: no version to publish it as")
    version = minor(torch)
    config = tree / VERSIONED_CONFIG
    config.write_text(CONFIG, encoding="utf-8")
    try:
        args = ["deploy", "--branch", branch, "--config-file", VERSIONED_CONFIG, "--title", f"torch {version}"]
        args += [*(["--update-aliases"] if aliases else []), version, *aliases]
        _mike(tree, args, archived=archived)
    finally:
        config.unlink(missing_ok=True)
    return version


def _git(root: Path, *args: str) -> str:
    done = bounded.run(["git", *args], cwd=root, check=True, capture_output=True, text=True, timeout=GIT_S)
    return str(done.stdout).strip()


def previous_tag(root: Path) -> str:
    """The newest ``torch-X.Y.Z`` tag of another minor release than the current pin."""
    current = minor(pinned_torch(root) or "")
    tags = [t for t in _git(root, "tag", "--list", "torch-*").split() if minor(t.removeprefix("torch-")) != current]
    if not tags:
        raise ValueError("no torch-X.Y.Z tag of an earlier release: tag the last commit of each pin (see README)")
    return max(tags, key=lambda t: tuple(int(p) for p in t.removeprefix("torch-").split(".") if p.isdigit()))


def publish(root: Path, previous: str | None = None, branch: str = "gh-pages") -> list[str]:
    """The current tree as ``latest``, the tag ``previous`` beside it; ``latest`` is the default."""
    previous = previous or previous_tag(root)
    # Both reach git's command line as arguments: each is checked as a name first (no option, no path, no ref
    # expression), and a tag that is not there is said in one line.
    if not TAG.fullmatch(previous):
        raise ValueError(f"{previous!r} is not a release tag (torch-X.Y.Z)")
    if not BRANCH.fullmatch(branch) or ".." in branch:
        raise ValueError(f"{branch!r} is not a branch name to publish to (letters, digits, '.', '_', '-')")
    try:
        _git(root, "rev-parse", "--verify", "--quiet", f"refs/tags/{previous}")  # a tag, never a branch that moves
    except subprocess.CalledProcessError:
        raise ValueError(f"no tag {previous} in {root}: fetch the tags (git fetch --tags)") from None
    published = [deploy(root, branch, ("latest",))]
    with tempfile.TemporaryDirectory(prefix="phase25-version-") as scratch:
        tree = Path(scratch) / "tree"
        _git(root, "worktree", "add", "--detach", str(tree), previous)
        try:
            for machinery in ("scripts", "overrides"):
                shutil.rmtree(tree / machinery, ignore_errors=True)
                shutil.copytree(root / machinery, tree / machinery, ignore=shutil.ignore_patterns("__pycache__"))
            published.append(deploy(tree, branch, archived=True))
        finally:
            _git(root, "worktree", "remove", "--force", str(tree))
    _mike(root, ["set-default", "--branch", branch, "--config-file", "mkdocs.yml", "latest"])
    share_versions_list(root, branch)
    return published


def share_versions_list(root: Path, branch: str) -> None:
    """What Material's selector needs on the Spanish pages, committed to ``branch``.

    The selector works from the page's language root: right for English pages (``2.15/`` -> ``../versions.json``
    is the branch's root, ``../2.13/`` the other version), one level short for Spanish ones (``2.15/es/`` ->
    ``2.15/versions.json``, ``2.15/2.13/``). So each version gets a copy of the root list, and a page at
    ``<version>/<other>/`` that sends the reader on to the other version's Spanish pages (no script)."""
    # One stub per version can send a reader to one language only: the first translation's (with a third
    # language, its pages' selector would need a stub of its own, which a static folder cannot tell apart).
    translated = translations.TARGETS[0]
    with tempfile.TemporaryDirectory(prefix="phase25-pages-") as scratch:
        pages = Path(scratch) / "pages"
        _git(root, "worktree", "add", "--quiet", str(pages), branch)
        try:
            listing = (pages / "versions.json").read_bytes()
            versions = [entry["version"] for entry in json.loads(listing)]
            for version in versions:
                (pages / version / "versions.json").write_bytes(listing)
                for other in versions:  # where the selector of a Spanish page of `version` sends a reader
                    stub = pages / version / other / "index.html"
                    if other != version and not stub.exists():
                        stub.parent.mkdir(parents=True, exist_ok=True)
                        title = strings.text(translated, "version_title")
                        page = REDIRECT.format(lang=translated, title=title, target=f"../../{other}/{translated}/")
                        stub.write_text(page, encoding="utf-8")
            _git(pages, "add", "--all")
            if _git(pages, "status", "--porcelain"):
                who = ["-c", "user.name=phase25 versions", "-c", "user.email=versions@phase25.invalid"]
                identity = [] if _git(root, "config", "--default", "", "user.email") else who
                _git(pages, *identity, "commit", "--quiet", "-m", "The versions list at the root of each version")
        finally:
            _git(root, "worktree", "remove", "--force", str(pages))
