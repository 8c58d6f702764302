"""The site published per torch release (``make versions``), deployed for real into a scratch repository.

A fresh clone of this repository, tags or none, publishes three versions: the current tree, the 2.13 release
from the commits ``releases.toml`` records, and a third release made in the clone by a synthetic commit (a
two-page site, no output, pinned on torch 2.14.1) that a second commit records in ``releases.toml``, the way a
pin move records the release it leaves. The tests read the branch mike wrote, then serve it and use Material's
version selector in Chromium, in both languages; a release whose recorded machinery cannot build it stops the
publish by name and leaves the branch as it was. The fast tests check what ``releases.toml`` may say.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import re
import subprocess
import sys
import threading
from importlib import metadata
from pathlib import Path
from urllib.parse import urljoin

import pytest
from conftest import EARLY, REPO, early_result, start_niced
from phase25.core import bounded
from phase25.core.errors import SourceError
from phase25.tools import releases, versions
from phase25.tools.releases import minor

WHO = ["-c", "user.name=versions test", "-c", "user.email=versions-test@phase25.invalid"]
SYNTHETIC = "2.14.1"  # the synthetic release's pin: no record of this site was made with it, and it shows none
PAGES = {  # the synthetic release's whole tree
    "requirements.txt": f"torch=={SYNTHETIC}\n",
    "mkdocs.yml": (
        'site_name: "Synthetic release"\nsite_url: !ENV [PHASE25_SITE_URL, "http://127.0.0.1/site/"]\n'
        "docs_dir: docs\ntheme:\n  name: material\nplugins:\n  - search\n  - i18n:\n      docs_structure: folder\n"
        "      languages:\n        - {locale: en, name: English, default: true, build: true}\n"
        "        - {locale: es, name: Español, build: true}\n"
    ),
    "docs/en/index.md": "# Synthetic release\n\nA release made by the versions test: two pages, no output.\n",
    "docs/es/index.md": "# Versión sintética\n\nLa crea la prueba de versiones: dos páginas, sin salidas.\n",
}


def git(cwd: Path, *args: str) -> str:
    return bounded.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True, timeout=120).stdout


def record_synthetic_release(clone: Path) -> str:
    """A commit whose tree is :data:`PAGES` alone, then one on the clone's branch that has it as a parent and
    records it in releases.toml (the tree otherwise the clone's): a release of this branch's history."""
    side = clone.parent / "synthetic"
    git(clone, "worktree", "add", "--quiet", "--detach", str(side), "HEAD")
    git(side, "rm", "-r", "-q", ".")
    for name, text in PAGES.items():
        (side / name).parent.mkdir(parents=True, exist_ok=True)
        (side / name).write_text(text, encoding="utf-8")
    git(side, "add", *PAGES)
    git(side, *WHO, "commit", "--quiet", "-m", f"A synthetic release pinned on torch {SYNTHETIC}")
    commit = git(side, "rev-parse", "HEAD").strip()
    git(clone, "worktree", "remove", "--force", str(side))
    git(clone, *WHO, "merge", "--quiet", "--no-commit", "-s", "ours", commit)
    entry = f'\n[[release]]\ntorch = "{SYNTHETIC}"\ncommit = "{commit}"\n'
    with (clone / "releases.toml").open("a", encoding="utf-8") as listing:
        listing.write(entry)
    git(clone, "add", "releases.toml")
    git(clone, *WHO, "commit", "--quiet", "-m", f"Record the synthetic release {SYNTHETIC}")
    return commit


def start_versions(scratch: Path) -> dict[str, subprocess.Popen]:
    """A scratch clone of this repository (no tags fetched), a third release recorded in it, publishing."""
    clone = scratch / "repo"
    git(scratch, "clone", "--quiet", "--no-tags", str(REPO), str(clone))
    record_synthetic_release(clone)
    env = {**os.environ, "PYTHONPATH": str(clone / "scripts"), "PHASE25_SITE_URL": "http://127.0.0.1/site/"}
    env.pop("PHASE25_EXECUTE", None)
    return {"versions": start_niced([sys.executable, "-m", "phase25", "versions"], cwd=clone, env=env)}


EARLY["published"] = start_versions  # started at collection, beside the first tests (conftest.EarlyWork)


@pytest.fixture(scope="module")
def published() -> tuple[Path, str, str]:
    """The gh-pages branch of the scratch clone after ``python -m phase25 versions``, checked out beside it;
    the current release and the recorded one of this repository (``releases.toml``)."""
    scratch, done = early_result("published", "make versions")
    clone = scratch / "repo"
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert not git(clone, "tag"), "published from commits: the clone has no tag"
    pages = scratch / "pages"
    if not pages.exists():
        git(clone, "worktree", "add", "--quiet", str(pages), "gh-pages")
    [recorded] = releases.read(REPO)
    return pages, minor(versions.current_torch(REPO)), recorded.version


@pytest.mark.slow
def test_every_release_is_listed_the_current_one_as_latest_and_default(published):
    pages, current, previous = published
    listed = {v["version"]: v for v in json.loads((pages / "versions.json").read_text())}
    assert set(listed) == {current, minor(SYNTHETIC), previous}
    assert [listed[v]["aliases"] for v in (current, minor(SYNTHETIC), previous)] == [["latest"], [], []]
    assert "latest/" in (pages / "index.html").read_text(), "the site's root leads to the latest release"


@pytest.mark.slow
def test_each_release_has_both_languages_and_shows_its_own_torch(published):
    pages, current, previous = published
    for version in (current, previous):
        for lang in ("", "es/"):
            page = (pages / version / lang / "theory" / "01-dispatcher-and-aten" / "index.html").read_text()
            printed = set(re.findall(r"torch (\d+\.\d+)\.\d+ ·", page)) or set(
                re.findall(r"torch (\d+\.\d+)\.\d+", page)
            )
            assert version in printed, (version, lang, printed)
    old = (pages / previous / "theory" / "01-dispatcher-and-aten" / "index.html").read_text()
    assert f"torch {current}." not in old, "the archived release shows none of the new release's outputs"
    for lang, words in (("", "two pages, no output"), ("es/", "dos páginas, sin salidas")):
        assert words in (pages / minor(SYNTHETIC) / lang / "index.html").read_text(), "its own commit's pages"


@pytest.mark.slow
def test_every_version_is_built_by_the_engine_chosen_not_the_one_mike_finds(published):
    """mike 2.2.0 builds with ProperDocs whenever it is installed, and it is (the second engine): each version
    says MkDocs built it, in its pages and in mike's commit."""
    pages, current, previous = published
    assert metadata.version("properdocs"), "ProperDocs is installed: mike would pick it by itself"
    marker = f'<meta name="generator" content="mkdocs-{metadata.version("mkdocs")}'
    for version in (current, minor(SYNTHETIC), previous):
        for lang in ("", "es/"):
            head = (pages / version / lang / "index.html").read_text().split("</head>")[0]
            assert marker in head, (version, lang, re.findall(r'<meta name="generator"[^>]*>', head))
    deploys = [m for m in git(pages, "log", "--format=%s").splitlines() if m.startswith("Deployed")]
    assert len(deploys) == 3 and all(f"with MkDocs {metadata.version('mkdocs')} and mike" in m for m in deploys)


@pytest.mark.slow
def test_language_links_stay_inside_their_release(published):
    pages, current, previous = published
    for version in (current, previous):
        for lang in ("", "es/"):
            html = (pages / version / lang / "index.html").read_text()
            here = f"/site/{version}/{lang}"  # the selector's links may be relative: read as a browser does
            links = {h: urljoin(here, a) for a, h in re.findall(r'<a href="([^"]+)" hreflang="([a-z]+)"', html)}
            assert links == {"en": f"/site/{version}/", "es": f"/site/{version}/es/"}, (version, lang, links)


@pytest.mark.slow
def test_the_version_selector_lists_all_three_and_switches_release_in_the_same_language(published):
    pages, current, previous = published
    from browsing import CHROMIUM, FLAGS
    from playwright.sync_api import sync_playwright

    root = pages.parent / "served"
    root.mkdir(exist_ok=True)
    if not (root / "site").exists():
        (root / "site").symlink_to(pages)
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(root))
    handler.log_message = lambda *args: None  # type: ignore[method-assign]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/site"
    expected = [f"torch {v}" for v in (current, minor(SYNTHETIC), previous)]
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            page = browser.new_page()
            for version, lang in ((previous, "es/"), (previous, ""), (minor(SYNTHETIC), "es/"), (current, "")):
                page.goto(f"{base}/{version}/{lang}")
                page.locator(".md-version").wait_for(timeout=15000)
                titles = [t.strip() for t in page.locator(".md-version__link").all_inner_texts()]
                assert titles == expected, (version, lang, titles)
            page.goto(f"{base}/{previous}/es/")
            page.locator(".md-version").wait_for(timeout=15000)
            page.hover(".md-version")
            page.click(f'.md-version__link:has-text("torch {minor(SYNTHETIC)}")')
            page.wait_for_url(re.compile(rf"{re.escape(base)}/{re.escape(minor(SYNTHETIC))}/es/"))
            assert "Versión sintética" in page.content()
            browser.close()
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.slow
def test_a_release_its_machinery_cannot_build_stops_the_publish_by_name_and_leaves_the_branch(published):
    """2.13.0's own machinery predates the archived mode: with torch 2.15 installed its records are stale."""
    clone = published[0].parent / "repo"
    listing = clone / "releases.toml"
    before, tip = listing.read_text(), git(clone, "rev-parse", "gh-pages")
    listing.write_text(re.sub(r'(?m)^machinery = "[0-9a-f]{40}".*$', "", before), encoding="utf-8")
    try:
        env = {**os.environ, "PYTHONPATH": str(clone / "scripts"), "NO_MKDOCS_2_WARNING": "1"}
        command = [sys.executable, "-m", "phase25", "versions", "--previous", published[2]]
        done = bounded.run(command, cwd=clone, env=env, capture_output=True, text=True, timeout=900)
    finally:
        listing.write_text(before, encoding="utf-8")
    error = done.stderr.strip().splitlines()[-1]
    assert done.returncode == 2 and error.startswith("error: releases.toml:"), done.stderr[-2000:]
    assert "torch 2.13.0 (commit fbba009822db with the machinery of fbba009822db) did not build" in error, error
    assert git(clone, "rev-parse", "gh-pages") == tip, "the branch is left as it was"
    assert not git(clone, "branch", "--list", "phase25-versions-*"), "no branch of the deploys is left"
    assert len(git(clone, "worktree", "list").splitlines()) == 2, "no worktree is left (the clone, the pages)"


# Fast: what releases.toml may say, and what an archived tree is made of, read off this repository's history.


@pytest.fixture
def scratch_clone(tmp_path: Path) -> Path:
    """This repository's history without a checkout (its objects shared): a root for a releases.toml of a test's."""
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "--quiet", "--shared", "--no-checkout", str(REPO), str(clone))
    return clone


def test_the_recorded_release_is_the_last_commit_pinned_on_2_13_built_by_a_later_machinery():
    [release] = releases.read(REPO)
    assert (release.torch, release.version) == ("2.13.0", "2.13")
    assert releases.pinned_at(REPO, release.commit) == "2.13.0"
    child = git(REPO, "rev-list", "--ancestry-path", f"{release.commit}..HEAD", "--reverse").split()[0]
    assert releases.pinned_at(REPO, child) != "2.13.0", "its child moved the pin: it is the last commit on 2.13"
    assert release.machinery != release.commit and releases.pinned_at(REPO, release.machinery) != "2.13.0"


@pytest.mark.parametrize(
    ("entry", "line", "message"),
    [
        ('torch = "2.13"\ncommit = "{fbba}"', 4, "torch = '2.13' is not a torch release"),
        ('torch = "2.13.0"\ncommit = "fbba009"', 5, "commit = 'fbba009' is not a full commit id"),
        ('torch = "2.13.0"\ncommit = "--output=/tmp/x"', 5, "is not a full commit id"),
        ('torch = "2.13.0"\ncommit = "{fbba}"\nmachinery = "HEAD"', 6, "machinery = 'HEAD' is not a full commit"),
        (f'torch = "2.13.0"\ncommit = "{"0" * 40}"', 5, "is not a commit of this branch's history"),
        ('torch = "2.13.0"\ncommit = "{head}"', 5, "pins torch {pin}, not 2.13.0: the wrong commit?"),
        ('torch = "2.13.0"\ncommit = "{fbba}"\ntag = "torch-2.13.0"', 6, "unknown key(s) tag"),
        (
            'torch = "2.13.0"\ncommit = "{fbba}"\n\n[[release]]\ntorch = "2.13.0"\ncommit = "{fbba}"',
            8,
            "recorded twice",
        ),
        ('torch = "2.13.0"\ncommit = {fbba}', 5, "Invalid value"),
    ],
)
def test_a_bad_release_entry_is_refused_with_file_and_line_before_git_sees_it(scratch_clone, entry, line, message):
    head = git(REPO, "rev-parse", "HEAD").strip()
    fbba = releases.read(REPO)[0].commit
    pin = releases.pinned_at(REPO, head)
    text = "# releases\n\n[[release]]\n" + entry.format(fbba=fbba, head=head) + "\n"
    (scratch_clone / "releases.toml").write_text(text, encoding="utf-8")
    with pytest.raises(SourceError) as caught:
        releases.read(scratch_clone)
    assert str(caught.value).startswith(f"releases.toml:{line}: "), str(caught.value)
    assert message.format(pin=pin) in str(caught.value)


def test_the_current_pin_is_never_a_recorded_release(scratch_clone):
    [release] = releases.read(REPO)
    with pytest.raises(SourceError, match=r"releases.toml:\d+: torch 2.13 is the current pin's"):
        releases.beside([release], "2.13.5")
    releases.beside([release], "2.15.0")


def test_a_release_name_or_a_branch_is_checked_before_anything_runs(scratch_clone):
    for name in ("2.13.0 --force", "../2.13", "torch-2.13.0", "-2.13"):
        with pytest.raises(ValueError, match="is not a release name"):
            versions.publish(scratch_clone, name)
    with pytest.raises(ValueError, match=r"no release 2\.14 in releases\.toml"):
        versions.publish(REPO, "2.14", branch="unused-by-this-test")


def test_an_archived_tree_is_its_own_commits_never_this_checkouts_working_tree():
    """Its pages, records and the snippets' code (scripts/minigpt) are the release commit's, its machinery the
    machinery commit's, whatever this checkout holds now: an edit here cannot make its records stale."""
    [release] = releases.read(REPO)
    with versions.archived_tree(REPO, release) as tree:
        outside = [f":(exclude){path}" for path in versions.MACHINERY]
        assert not git(tree, "diff", "--name-only", release.commit, "--", ".", *outside), "the release's own"
        assert not git(tree, "diff", "--name-only", release.machinery, "--", *versions.MACHINERY), "its machinery"
        assert not git(tree, "ls-files", "--others", "--exclude-standard"), "nothing from anywhere else"
        assert (tree / "scripts" / "minigpt").is_dir() and (tree / "scripts" / "phase25" / "tools").is_dir()
    assert not tree.exists()


@pytest.fixture
def pages_repo(tmp_path: Path) -> tuple[Path, str]:
    """A repository whose gh-pages holds one commit."""
    repo = tmp_path / "pages"
    git(tmp_path, "init", "--quiet", str(repo))
    git(repo, *WHO, "commit", "--quiet", "--allow-empty", "-m", "the published versions")
    git(repo, "branch", "gh-pages")
    return repo, git(repo, "rev-parse", "gh-pages").strip()


def deploy_one(repo: Path, branch: str) -> str:
    """What a deploy does to ``branch``: one commit on it."""
    tree = git(repo, "rev-parse", f"{branch}^{{tree}}").strip()
    commit = git(repo, *WHO, "commit-tree", tree, "-p", branch, "-m", "Deployed").strip()
    git(repo, "update-ref", f"refs/heads/{branch}", commit)
    return commit


def test_gh_pages_moves_once_every_deploy_is_in_and_not_at_all_when_one_fails(pages_repo):
    repo, tip = pages_repo
    with pytest.raises(SourceError, match="did not build"), versions.staged(repo, "gh-pages") as work:
        assert work != "gh-pages" and git(repo, "rev-parse", work).strip() == tip
        deploy_one(repo, work)
        raise SourceError("releases.toml", "torch 2.13.0 did not build", 12)
    assert git(repo, "rev-parse", "gh-pages").strip() == tip and git(repo, "branch", "--list", work) == ""
    with versions.staged(repo, "gh-pages") as work:
        first, second = deploy_one(repo, work), deploy_one(repo, work)
        assert git(repo, "rev-parse", "gh-pages").strip() == tip, "nothing moves before the end"
    assert git(repo, "rev-parse", "gh-pages").strip() == second != first
    assert git(repo, "branch", "--list", work) == ""


def test_gh_pages_moved_by_someone_else_meanwhile_is_not_overwritten(pages_repo):
    repo, tip = pages_repo
    with pytest.raises(ValueError, match="gh-pages moved while the versions were built"):
        with versions.staged(repo, "gh-pages") as work:
            deploy_one(repo, work)
            theirs = deploy_one(repo, "gh-pages")
    assert git(repo, "rev-parse", "gh-pages").strip() == theirs != tip


def test_without_a_local_gh_pages_the_deploys_start_from_origins(pages_repo, tmp_path):
    origin, tip = pages_repo
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "--quiet", str(origin), str(clone))
    assert git(clone, "branch", "--list", "gh-pages") == ""
    with versions.staged(clone, "gh-pages") as work:
        assert git(clone, "rev-parse", work).strip() == tip, "origin's versions are kept"
        mine = deploy_one(clone, work)
    assert git(clone, "rev-parse", "gh-pages").strip() == mine


def test_a_mike_that_no_longer_picks_its_engine_where_it_did_stops_by_name(tmp_path):
    """The engine is set in mike's mkdocs_utils before mike runs; a mike without that name must not build with
    whatever it picks itself."""
    (tmp_path / "mike").mkdir()
    (tmp_path / "mike" / "__init__.py").write_text("")
    (tmp_path / "mike" / "mkdocs_utils.py").write_text("program = 'properdocs'  # a mike that moved its choice\n")
    launch = versions.LAUNCH.format(engine=versions.ENGINE, brand=versions.BRANDS[versions.ENGINE])
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    done = bounded.run([sys.executable, "-c", launch, "deploy"], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "no longer picks its engine in mkdocs_utils._program_name" in done.stderr
    assert "choose mkdocs again" in done.stderr, done.stderr
