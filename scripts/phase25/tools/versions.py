"""``python -m phase25 versions``: the site published per torch release, the way MkDocs sites do (mike).

The current tree is deployed as its torch's minor release (``2.15``) with the alias ``latest``; each past release
recorded in ``releases.toml`` (:mod:`.releases`) is deployed from its own commit as its minor (``2.13``), from its
own pages, snippets and committed records, never re-executed: its build judges the records by the torch its own
requirements pin (``PHASE25_ARCHIVED=1``). Nothing of this checkout's working tree reaches a past release: a
change to ``scripts/minigpt`` today cannot make its records stale. Its site machinery (:data:`MACHINERY`) is that
of the commit its entry names, which must build it with today's environment, or the publish stops, naming it.
Every deploy is committed to a branch of its own; ``gh-pages`` moves to it in one step when all of them built, so
a failed build leaves it as it was. mike builds each version with the engine :data:`ENGINE` names, never the one
it would pick by itself (ProperDocs whenever that is installed). Both languages are inside each version
(``2.13/es/``); Material's version selector reads mike's ``versions.json`` (see :func:`share_versions_list`).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ..core import bounded
from ..core.catalog import installed_torch, pinned_torch
from ..core.errors import SourceError
from ..site.lang import strings, translations
from . import releases
from .releases import Release, git, minor

DEPLOY_S = 3600  # seconds: one mike deploy (a strict build of the whole site)
VERSIONED_CONFIG = "mkdocs.versioned.yml"
BRANCH = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,99}")  # the branch the versions are committed to
MACHINERY = ("scripts/phase25", "scripts/mkdocs_hooks.py", "overrides")  # what builds a tree's records into pages
ENGINE = "mkdocs"  # the engine that builds the published site: MkDocs, the default (maintaining/site.md)
BRANDS = {"mkdocs": "MkDocs", "properdocs": "ProperDocs"}  # as mike names each in its commit messages
# mike 2.2.0 picks its builder once, at import (mike/mkdocs_utils.py): ProperDocs when it is installed. This sets
# the choice before mike runs, and stops by name if a later mike no longer reads it from there.
LAUNCH = (
    "import sys\nfrom importlib import metadata\nimport mike.mkdocs_utils as u\n"
    "if not hasattr(u, '_program_name'):\n"
    "    sys.exit('mike ' + metadata.version('mike') + ' no longer picks its engine in mkdocs_utils._program_name: '\n"
    "             'read its mkdocs_utils.py and make phase25 versions choose {engine} again')\n"
    "u._program_name, u._brand, u._version = {engine!r}, {brand!r}, metadata.version({engine!r})\n"
    "from mike.driver import main\nmain()\n"
)
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
ZERO = "0" * 40  # git's "no commit": update-ref's old value for a branch that must not exist yet


class BuildFailed(ValueError):
    """mike, or the build it ran, stopped: what it said is above, and the branch is left as it was."""


def _mike(tree: Path, args: list[str], *, archived: bool = False) -> None:
    """mike, on ``tree``, building with :data:`ENGINE` and the machinery of ``tree`` itself."""
    env = {k: v for k, v in os.environ.items() if k != "PHASE25_EXECUTE"}  # a published build never executes
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])  # the engine's command
    env["PYTHONPATH"] = str(tree / "scripts")  # the tree's own phase25, before this checkout's (phase25.pth)
    env.pop("PHASE25_ARCHIVED", None)
    if archived:
        env["PHASE25_ARCHIVED"] = "1"
    launch = LAUNCH.format(engine=ENGINE, brand=BRANDS[ENGINE])
    try:
        bounded.run([sys.executable, "-c", launch, *args], cwd=tree, env=env, check=True, timeout=DEPLOY_S)
    except subprocess.CalledProcessError:
        raise BuildFailed(f"mike {args[0]} in {tree} failed (its errors are above): nothing published") from None


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


def current_torch(root: Path) -> str:
    """The current release: the torch this tree pins, which must be the one installed (its records' torch)."""
    pinned, installed = pinned_torch(root), installed_torch()
    if pinned is None:
        raise ValueError(f"{root}/requirements.txt pins no torch: no version to publish it as")
    if installed != pinned:
        raise ValueError(f"requirements.txt pins torch {pinned}, this environment has {installed}: set up first")
    return pinned


@contextmanager
def archived_tree(root: Path, release: Release) -> Iterator[Path]:
    """``release``'s commit checked out apart, its :data:`MACHINERY` replaced by that of its machinery commit."""
    with tempfile.TemporaryDirectory(prefix="phase25-version-") as scratch:
        tree = Path(scratch) / "tree"
        git(root, "worktree", "add", "--detach", "--quiet", str(tree), release.commit)
        try:
            if release.machinery != release.commit:
                git(tree, "rm", "-r", "-q", "--ignore-unmatch", "--", *MACHINERY)
                there = git(root, "ls-tree", "--name-only", release.machinery, "--", *MACHINERY).split()
                git(tree, "checkout", release.machinery, "--", *there)
            yield tree
        finally:
            git(root, "worktree", "remove", "--force", str(tree))


def deploy_release(root: Path, release: Release, branch: str) -> str:
    """Build a past release from its own commits and commit it to ``branch``; a failure names the release."""
    with archived_tree(root, release) as tree:
        try:
            return deploy(tree, branch, archived=True)
        except BuildFailed:
            built = f"commit {release.commit[:12]} with the machinery of {release.machinery[:12]}"
            raise SourceError(
                releases.FILE,
                f"torch {release.torch} ({built}) did not build (its errors are above); record a "
                "machinery commit that builds it. Nothing was published",
                release.line,
            ) from None


def _tip(root: Path, ref: str) -> str | None:
    try:
        return git(root, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}")
    except subprocess.CalledProcessError:
        return None


@contextmanager
def staged(root: Path, branch: str) -> Iterator[str]:
    """A branch of its own for the deploys, from ``branch``'s tip (origin's where there is no local one, as mike
    would); ``branch`` moves to it in one compare-and-swap once every deploy is in, and not at all if one fails
    (or if ``branch`` moved meanwhile)."""
    old, work = _tip(root, f"refs/heads/{branch}"), f"phase25-versions-{os.getpid()}"
    base = old or _tip(root, f"refs/remotes/origin/{branch}")
    if _tip(root, f"refs/heads/{work}"):
        git(root, "branch", "-D", work)
    if base:
        git(root, "branch", "--no-track", work, base)
    try:
        yield work
        new = _tip(root, f"refs/heads/{work}")
        if new and new != old:
            try:
                git(root, "update-ref", "-m", "phase25 versions", f"refs/heads/{branch}", new, old or ZERO)
            except subprocess.CalledProcessError:
                raise ValueError(
                    f"{branch} moved while the versions were built: nothing published, run again"
                ) from None
    finally:
        if _tip(root, f"refs/heads/{work}"):
            git(root, "branch", "-D", work)


def publish(root: Path, previous: str | None = None, branch: str = "gh-pages") -> list[str]:
    """Every recorded release (or the one ``previous`` names), then the current tree as ``latest``, the default."""
    if not BRANCH.fullmatch(branch) or ".." in branch:  # it reaches git's command line: a name, no option
        raise ValueError(f"{branch!r} is not a branch name to publish to (letters, digits, '.', '_', '-')")
    recorded = releases.read(root)
    wanted = releases.chosen(recorded, previous)
    releases.beside(recorded, current_torch(root))
    with staged(root, branch) as work:
        published = [deploy_release(root, release, work) for release in reversed(wanted)]
        published.insert(0, deploy(root, work, ("latest",)))
        _mike(root, ["set-default", "--branch", work, "--config-file", "mkdocs.yml", "latest"])
        share_versions_list(root, work)
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
        git(root, "worktree", "add", "--quiet", str(pages), branch)
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
            git(pages, "add", "--all")
            if git(pages, "status", "--porcelain"):
                who = ["-c", "user.name=phase25 versions", "-c", "user.email=versions@phase25.invalid"]
                identity = [] if git(root, "config", "--default", "", "user.email") else who
                git(pages, *identity, "commit", "--quiet", "-m", "The versions list at the root of each version")
        finally:
            git(root, "worktree", "remove", "--force", str(pages))
