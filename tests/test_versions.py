"""The site published per torch release (``make versions``), deployed for real into a scratch repository.

A fresh clone of this repository publishes the current release and the previous one from its tag, each in both
languages; the test reads the branch mike wrote, then serves it and uses Material's version selector in
Chromium. What is checked is what a reader relies on: the selector lists both releases, each release shows
the outputs of its own torch, and links between languages and between versions stay inside the site.
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
from pathlib import Path
from urllib.parse import urljoin

import pytest
from conftest import EARLY, REPO, early_result, start_niced
from phase25.core import bounded
from phase25.tools.versions import minor, previous_tag

pytestmark = pytest.mark.slow


def git(cwd: Path, *args: str) -> str:
    return bounded.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True, timeout=120).stdout


def start_versions(scratch: Path) -> dict[str, subprocess.Popen]:
    """A scratch clone of this repository (its tags included) running ``python -m phase25 versions``; nothing
    in a clone without tags (the test is skipped there)."""
    try:
        previous_tag(REPO)
    except ValueError:
        return {}
    clone = scratch / "repo"
    git(scratch, "clone", "--quiet", str(REPO), str(clone))
    git(clone, "fetch", "--quiet", "--tags", str(REPO))
    env = {**os.environ, "PYTHONPATH": str(clone / "scripts"), "PHASE25_SITE_URL": "http://127.0.0.1/site/"}
    env.pop("PHASE25_EXECUTE", None)
    return {"versions": start_niced([sys.executable, "-m", "phase25", "versions"], cwd=clone, env=env)}


EARLY["published"] = start_versions  # started at collection, beside the first tests (conftest.EarlyWork)


@pytest.fixture(scope="module")
def published() -> tuple[Path, str, str]:
    """The scratch clone after ``python -m phase25 versions``; the gh-pages branch checked out beside it."""
    try:
        previous = previous_tag(REPO)
    except ValueError as exc:
        pytest.skip(f"{exc} (a clone without tags)")
    scratch, done = early_result("published", "make versions")
    clone = scratch / "repo"
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    pages = scratch / "pages"
    git(clone, "worktree", "add", "--quiet", str(pages), "gh-pages")
    current = minor(re.search(r"^torch==(\S+)", (clone / "requirements.txt").read_text(), re.M).group(1))
    return pages, current, minor(previous.removeprefix("torch-"))


def test_both_releases_are_listed_the_current_one_as_latest_and_default(published):
    pages, current, previous = published
    listed = {v["version"]: v for v in json.loads((pages / "versions.json").read_text())}
    assert set(listed) == {current, previous}
    assert listed[current]["aliases"] == ["latest"] and listed[previous]["aliases"] == []
    assert "latest/" in (pages / "index.html").read_text(), "the site's root leads to the latest release"


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


def test_language_links_stay_inside_their_release(published):
    pages, current, previous = published
    for version in (current, previous):
        for lang in ("", "es/"):
            html = (pages / version / lang / "index.html").read_text()
            here = f"/site/{version}/{lang}"  # the selector's links may be relative: read as a browser does
            links = {h: urljoin(here, a) for a, h in re.findall(r'<a href="([^"]+)" hreflang="([a-z]+)"', html)}
            assert links == {"en": f"/site/{version}/", "es": f"/site/{version}/es/"}, (version, lang, links)


def test_the_version_selector_lists_both_and_switches_release_in_the_same_language(published):
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
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            page = browser.new_page()
            page.goto(f"{base}/{previous}/es/")
            selector = page.locator(".md-version")
            selector.wait_for(timeout=15000)
            titles = page.locator(".md-version__link").all_inner_texts()
            assert [t.strip() for t in titles][:2] == [f"torch {current}", f"torch {previous}"], titles
            page.hover(".md-version")
            page.click(f'.md-version__link:has-text("torch {current}")')
            page.wait_for_url(re.compile(rf"{re.escape(base)}/({current}|latest)/es/"))
            assert "/es/" in page.url
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
