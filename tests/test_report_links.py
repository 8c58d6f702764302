"""The execution report links each snippet to the block that shows it, on the page of the reader's language.

A link is computed from the pages' directives, never written by hand, so it can only be wrong if the
directives are read wrong: a snippet named in fenced code or in a comment is not shown there, and a link
to it would land on nothing. The built site's links are checked against the ids its pages really carry.
"""

from __future__ import annotations

import os
import re
import time
from html import unescape
from urllib.parse import urljoin, urlparse

import pytest
from phase25.core.catalog import Catalog
from phase25.site.kinds.assemble import render_markdown
from phase25.site.page.context import Page
from phase25.site.page.highlight import Highlighter


@pytest.fixture
def report(toy):
    """A toy site: snippets page/a, page/b and page/c, pages in docs/<lang>/; renders its execution report."""
    for name in "abc":
        toy.add(f"page/{name}", "print(1)\n")

    def write(lang: str, rel: str, text: str) -> None:
        path = toy.root / "docs" / lang / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")

    def render(lang: str = "en", where: str = "reference/report.md") -> str:
        view = Page(lang, f"docs/{lang}/{where}", Catalog(toy.layout, "2.13.0"), Highlighter())
        html, _ = render_markdown("# Report\n\n::: execution-report\n", view)
        return html

    return write, render


def links(html: str) -> dict[str, str]:
    """Snippet id -> href of its row's link."""
    return {m.group(2): unescape(m.group(1)) for m in re.finditer(r'<a href="([^"]*)"><code>([^<]+)</code></a>', html)}


def test_a_row_links_to_the_block_on_the_page_that_shows_it_relative_to_the_report(report):
    write, render = report
    write("en", "theory/one.md", "# One\n\n::: snippet page/a\n")
    write("en", "index.md", "# Home\n\n::: snippet page/b\n")
    found = links(render())
    assert found["page/a"] == "../../theory/one/#snippet-page-a"
    assert found["page/b"] == "../../#snippet-page-b"


def test_a_snippet_only_named_in_a_fence_or_a_comment_is_not_linked(report):
    write, render = report
    write("en", "one.md", "# One\n\n```\n::: snippet page/a\n```\n\n<!--\n::: snippet page/b\n-->\n")
    html = render()
    assert links(html) == {} and "<code>page/a</code>" in html and "<code>page/b</code>" in html


def test_each_language_links_to_its_own_pages(report):
    write, render = report
    write("en", "one.md", "# One\n\n::: snippet page/a\n")
    write("es", "uno.md", "# Uno\n\n::: snippet page/a\n")
    assert links(render("es"))["page/a"] == "../../uno/#snippet-page-a"
    assert links(render("en"))["page/a"] == "../../one/#snippet-page-a"


def test_the_first_page_in_path_order_wins_and_a_report_beside_it_links_without_climbing(report):
    write, render = report
    write("en", "b.md", "# B\n\n::: snippet page/c\n")
    write("en", "a.md", "# A\n\n::: snippet page/c\n")
    assert links(render(where="report.md"))["page/c"] == "../a/#snippet-page-c"


def test_a_page_edited_during_a_preview_is_read_again(report, toy):
    write, render = report
    write("en", "one.md", "# One\n\n::: snippet page/a\n")
    assert "page/a" in links(render())
    write("en", "one.md", "# One\n\nno snippet any more\n")
    later = time.time() + 5  # a coarse clock could give the edit the same time as the first write
    for md in (toy.root / "docs").rglob("*.md"):
        os.utime(md, (later, later))
    assert "page/a" not in links(render())


@pytest.mark.slow
def test_every_link_of_the_built_report_lands_on_an_element_of_that_id(built_site):
    for lang in ("", "es/"):
        report = built_site / lang / "reference/execution-report/index.html"
        html = report.read_text(encoding="utf-8")
        found = links(html)
        assert len(found) >= 100, len(found)
        base = f"http://site/{lang}reference/execution-report/"
        for snippet_id, href in found.items():
            url = urlparse(urljoin(base, href))
            target = built_site / url.path.lstrip("/") / "index.html"
            assert target.is_file(), (snippet_id, href)
            if url.fragment:
                assert f'id="{url.fragment}"' in target.read_text(encoding="utf-8"), (snippet_id, href)


def test_a_lab_cell_links_to_the_lab_page_where_no_block_carries_an_id(report):
    write, render = report
    write("en", "labs/01-first.lab.md", "# Lab\n\n::: cell page/a#setup\n")
    assert links(render())["page/a"] == "../../labs/01-first/"
