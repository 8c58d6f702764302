"""The offline copy (``make offline``) read in Chromium from ``file://``: a page of each language opens with its
stylesheet, a link to another page opens that page, the language switch lands on the same page in the other
language, the search finds a page, and nothing is requested from outside the copy.

The copy is the built site made readable from the disk (tools/offline.py), here from the session's strict build.
"""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

import pytest
from phase25.tools import offline

pytestmark = [pytest.mark.browser, pytest.mark.slow]
SWITCH = """() => document.querySelector(
    `a.md-select__link:not([hreflang="${document.documentElement.lang}"])`).click()"""  # the other language


@pytest.fixture(scope="module")
def offline_copy(built_site, tmp_path_factory) -> Path:
    copy = tmp_path_factory.mktemp("offline") / "site"
    shutil.copytree(built_site, copy)
    assert offline.make_offline(copy) >= 2 * 14
    return copy


def test_the_zip_holds_the_copy_under_one_folder(offline_copy, tmp_path):
    archive = tmp_path / "site-offline.zip"
    offline.pack(offline_copy, archive)
    names = zipfile.ZipFile(archive).namelist()
    assert f"{offline.FOLDER}/index.html" in names and f"{offline.FOLDER}/es/index.html" in names
    assert all(n.startswith(f"{offline.FOLDER}/") for n in names)
    assert f"{offline.FOLDER}/{offline.SHIM_NAME}" in names and f"{offline.FOLDER}/es/search/search_index.js" in names


def test_folder_links_become_file_links_and_nothing_else_moves():
    page = '<a href="../es/">x</a><a href="..">h</a><a href="#top">t</a><a href="https://pytorch.org/">p</a>'
    made = offline.readable_from_disk(f"<head></head>{page}", 1)
    assert '<a href="../es/index.html">' in made and '<a href="../index.html">' in made
    assert '<a href="#top">' in made and '<a href="https://pytorch.org/">' in made
    assert f'<head><script src="../{offline.SHIM_NAME}"></script>' in made


def _open(tab, url: str, outside: list[str]) -> None:
    tab.goto(url)
    tab.wait_for_load_state("load")
    assert tab.evaluate("getComputedStyle(document.querySelector('.md-header')).position") in ("sticky", "fixed")
    assert not outside, outside


@pytest.mark.parametrize(("start", "other"), [("index.html", "es/index.html"), ("es/index.html", "index.html")])
def test_each_language_opens_from_the_disk_follows_a_link_and_switches_language(browser, offline_copy, start, other):
    context = browser.new_context()
    tab = context.new_page()
    outside: list[str] = []
    tab.on("request", lambda r: None if r.url.startswith(("file://", "data:", "blob:")) else outside.append(r.url))
    try:
        _open(tab, (offline_copy / start).as_uri(), outside)
        tab.click("a.md-nav__link[href*='theory/01-dispatcher-and-aten/']")
        tab.wait_for_load_state("load")
        here = tab.url
        assert here.endswith("theory/01-dispatcher-and-aten/index.html"), here
        assert tab.locator(".snippet-outputs").count() > 0 and tab.locator(".md-twin a").count() == 1
        with tab.expect_navigation():
            tab.evaluate(SWITCH)
        switched = str((offline_copy / other).parent / "theory/01-dispatcher-and-aten/index.html")
        assert Path(tab.url.removeprefix("file://")) == Path(switched), tab.url
        tab.click("label.md-search__icon, .md-search__input")
        tab.locator(".md-search__input").fill("autocast")
        tab.locator(".md-search__input").press("End")  # Material searches on the key that ends a query
        tab.wait_for_selector(".md-search-result__item", timeout=60_000)
        with tab.expect_navigation():
            tab.locator(".md-search-result__item a").first.click()  # a result opens its page's file
        assert tab.url.split("?")[0].endswith("/index.html") and tab.locator(".md-typeset h1").count() == 1
        assert not outside, outside
    finally:
        context.close()


def test_the_offline_copy_holds_the_readers_path(offline_copy):
    """Every link, anchor, id and download of the copy, read from the disk, leads where it does on the site."""
    from phase25.tools import reader_path

    problems = reader_path.check(offline_copy)  # the 404 page keeps the published prefix: read from the copy
    assert [str(p) for p in problems] == []
