"""Which snippets a page shows has one answer, the directives the renderer finds (``directives.shown``).

A page may show the syntax itself: a ``::: snippet`` line inside fenced code or inside an HTML comment is text
(or nothing), not a directive. The MkDocs adapter once answered with a regular expression over the raw Markdown,
which took such a line for a snippet the page shows: a note on that snippet then passed although the page never
shows its output. Here each of the three callers (the adapter's events, the Python-Markdown extension and
``render_markdown``) renders such a page, and every real page, and they agree with what the HTML shows.
"""

from __future__ import annotations

import logging
import re
from types import SimpleNamespace

import markdown
import pytest
from conftest import REPO
from phase25.core.catalog import Catalog
from phase25.core.paths import Layout
from phase25.site.hosts import adapter
from phase25.site.hosts import build as build_module
from phase25.site.hosts.markdown_extension import SnippetExtension
from phase25.site.kinds.assemble import render_markdown
from phase25.site.page import directives, page_source
from phase25.site.page.context import Page
from phase25.site.page.highlight import Highlighter

HIGHLIGHTER = Highlighter()  # one for the module: each block is highlighted once, whichever caller renders it
EXTENSIONS = ["admonition", "attr_list", "md_in_html", "pymdownx.details", "pymdownx.superfences"]
RENDERED = re.compile(r'<div class="snippet" data-snippet="([^"]+)"')
HIDDEN = (
    "# T\n\n"
    "```markdown\n::: snippet page/a\n```\n\n"  # the syntax shown as code
    "<!-- ::: snippet page/a -->\n\n"  # a comment on one line
    "<!--\n::: snippet page/a\n-->\n\n"  # a comment over three lines
    "::: note page/a cpu\n    It prints `hi`.\n"
)
NOT_SHOWN = "a note on page/a, which this page does not show"


def through_the_adapter(text: str, catalog: Catalog, monkeypatch, caplog, src_uri: str = "en/page.md") -> tuple:
    """A page through MkDocs' two events around Markdown, as a build runs them: (HTML, shown, warnings)."""
    config = SimpleNamespace(docs_dir=str(catalog.layout.root / "docs"))
    build = adapter.Build(config, catalog, HIGHLIGHTER)
    monkeypatch.setattr(adapter, "_CURRENT", build)
    page = SimpleNamespace(url="page/", file=SimpleNamespace(src_uri=src_uri, abs_src_path=None))
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="mkdocs.plugins.phase25"):
        converted = markdown.markdown(adapter.on_page_markdown(text, page, config, None), extensions=EXTENSIONS)
        shown = set(build.prepared[src_uri][0].shown)
        html = adapter.on_page_content(converted, page, config, None)
    return html, shown, [r.getMessage() for r in caplog.records]


def through_the_extension(text: str, catalog: Catalog, where: str = "page.md", lang: str = "en") -> tuple:
    """A page through the Python-Markdown extension: (HTML, shown, problems). The extension reads the records of
    ``catalog``'s layout itself; it is handed the catalog already read, and the highlighter, to spare the time."""
    extension = SnippetExtension(layout=catalog.layout, where=where, lang=lang)
    extension.catalog, extension.highlighter = catalog, HIGHLIGHTER
    html = markdown.Markdown(extensions=[*EXTENSIONS, extension]).convert(text)
    assert extension.prepared is not None
    return html, set(extension.prepared.shown), [p.message for p in extension.problems]


def test_a_snippet_line_in_fenced_code_or_a_comment_is_neither_rendered_nor_shown_by_any_caller(
    toy, monkeypatch, caplog
):
    toy.add("page/a", "print('hi')\n")
    toy.run()
    catalog = Catalog.here(toy.layout)
    assert directives.shown(directives.parse(HIDDEN)) == set()

    html, shown, warnings = through_the_adapter(HIDDEN, catalog, monkeypatch, caplog)
    assert shown == set() and RENDERED.findall(html) == []
    assert "<code>::: snippet page/a\n</code>" in html  # the fence is shown as it is written
    assert warnings == [f"docs/en/page.md:13: {NOT_SHOWN}"]

    html, shown, problems = through_the_extension(HIDDEN, catalog)
    assert shown == set() and RENDERED.findall(html) == [] and problems == [NOT_SHOWN]

    html, problems = render_markdown(HIDDEN, Page("en", "page.md", catalog, HIGHLIGHTER))
    assert RENDERED.findall(html) == [] and [p.message for p in problems] == [NOT_SHOWN]

    shown_for_real = HIDDEN.replace("# T\n\n", "# T\n\n::: snippet page/a\n\n")
    html, shown, warnings = through_the_adapter(shown_for_real, catalog, monkeypatch, caplog)
    assert shown == {"page/a"} and RENDERED.findall(html) == ["page/a"] and warnings == []


def test_an_atlas_line_in_fenced_code_or_a_comment_publishes_no_data(tmp_path):
    page = "# A\n\n::: atlas a/real\n\n```text\n::: atlas a/fenced\n```\n\n<!--\n::: atlas a/commented\n-->\n"
    (tmp_path / "en").mkdir()
    (tmp_path / "en" / "atlas.md").write_text(page, encoding="utf-8")
    assert build_module.atlases(tmp_path) == {"a/real"}


PAGES = sorted(p for p in (REPO / "docs").glob("*/**/*.md") if not p.name.endswith(".lab.md"))


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.here(Layout.of(REPO))


@pytest.mark.slow  # every page rendered three times: `make test` runs it, `make check` does not
@pytest.mark.parametrize("path", PAGES, ids=[p.relative_to(REPO / "docs").as_posix() for p in PAGES])
def test_the_three_callers_give_the_same_answer_on_every_real_page(path, catalog, monkeypatch, caplog):
    text = page_source.strip_front_matter(path.read_text(encoding="utf-8"))
    where = path.relative_to(REPO).as_posix()
    expected = directives.shown(directives.parse(text, where))

    src_uri = path.relative_to(REPO / "docs").as_posix()
    html, by_adapter, _ = through_the_adapter(text, catalog, monkeypatch, caplog, src_uri)
    assert by_adapter == expected == set(RENDERED.findall(html))

    html, by_extension, _ = through_the_extension(text, catalog, where, src_uri.split("/")[0])
    assert by_extension == expected == set(RENDERED.findall(html))

    html, _ = render_markdown(text, Page(src_uri.split("/")[0], where, catalog, HIGHLIGHTER))
    assert set(RENDERED.findall(html)) == expected
