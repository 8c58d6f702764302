"""Material's search index is the same whether its parser sees a page's code spans or not.

The build hands the search plugin a notebook's code without the ``<span>`` tags of its ``<pre>`` blocks
(``phase25.site.hosts.search_input``; a Markdown page goes without its ``<pre>`` blocks at all, see
test_search_index.py): these tests build the index both ways, with the plugin's own ``SearchIndex``, and
compare every entry — on the ways a page could make the two differ, on the heaviest pages rendered
in-process, and on the notebook pages of the built site.
"""

from __future__ import annotations

import html as html_lib
from pathlib import Path
from types import SimpleNamespace

import pytest
from conftest import REPO
from material.plugins.search.plugin import SearchIndex
from phase25.core.catalog import Catalog
from phase25.core.paths import DEFAULT_LAYOUT
from phase25.site.hosts import search_input
from phase25.site.kinds.assemble import render_markdown
from phase25.site.page.context import Page
from phase25.site.page.highlight import Highlighter
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer

CODE = 'def f(x):\n    """<doc> & "quotes"\'s"""\n\n\treturn x  @  W.T   +  b  # tabs, runs of spaces\n\n\n'


def entries(html: str) -> list[dict]:
    index = SearchIndex()
    page = SimpleNamespace(content=html, meta={}, toc=[], url="page/", title="Page")
    index.add_entry_from_context(page)
    return index.entries


def same_index(html: str) -> None:
    stripped = search_input.without_code_spans(html)
    assert entries(stripped) == entries(html)


PYGMENTS = highlight(CODE, PythonLexer(), HtmlFormatter())
CASES = {
    "highlighted code, whitespace and entities": f"<h1 id='t'>Title</h1><p>Before</p>{PYGMENTS}<p>after</p>",
    "line numbers": highlight(CODE, PythonLexer(), HtmlFormatter(linenos="table")),
    "uppercase tags and a spaced end tag": (
        '<H2 id="a">A</H2><PRE class="x"><SPAN class="n">x</SPAN> <Span>=</Span>\n1</PRE >'
    ),
    "an attribute holding a >": (
        '<h2 id="b">B</h2><pre><span title="a>b">kept</span> <span data-x=\'1>2\'>too</span></pre>'
    ),
    "a heading holding code": '<h2 id="c"><span>Heading</span> <code><span class="n">x</span></code></h2><p>p</p>',
    "spans outside any pre": (
        "<p><span>one</span>\n<span> </span>\n\n<span>two</span></p><ul><li><span>li</span></li></ul>"
    ),
    "a pre inside a heading": '<h3 id="d">Title <pre><span class="k">def</span>  <span>f</span></pre></h3><p>x</p>',
    "an empty pre and an unclosed one": '<h2 id="e">E</h2><pre></pre><pre><span class="n">open</span>',
    "code blocks next to each other": f'<h2 id="f">F</h2>{PYGMENTS}{PYGMENTS}<div><pre><span>y</span></pre></div>',
    "whitespace-only spans": '<h2 id="g">G</h2><pre><span> </span><span>\n</span><span>  </span>x<span>\t</span></pre>',
    "entities split by spans": (
        '<h2 id="h">H</h2><pre><span>&lt;</span><span>&amp;</span>&gt;<span>&#39;x&#x27;</span></pre>'
    ),
}


@pytest.mark.parametrize("html", CASES.values(), ids=CASES.keys())
def test_the_index_is_the_same_without_code_spans(html):
    same_index(html)
    inside = search_input.without_code_spans(html).lower().partition("<pre")[2].partition("</pre")[0]
    assert "<span" not in inside


LEFT_WHOLE = {
    "a pre excluded from search": '<h2 id="x">X</h2><pre data-search-exclude><span>secret</span></pre><p>y</p>',
    "a pre holding an excluded span": (
        '<h2 id="x">X</h2><pre><span data-search-exclude>secret</span> <span>x</span></pre>'
    ),
    "a script that writes <pre>": '<script>document.write("<pre>")</script><p><span>a</span> <span> </span></p></pre>',
    "a comment that holds <pre>": "<!-- <pre> --><p><span>a</span>\n<span>b</span></p><!-- </pre> -->",
    "a style that names pre": "<style>pre > span { color: red }</style><p><span>a</span></p>",
}


@pytest.mark.parametrize("html", LEFT_WHOLE.values(), ids=LEFT_WHOLE.keys())
def test_what_is_not_a_plain_code_block_is_left_whole(html):
    assert search_input.without_code_spans(html) == html
    same_index(html)


@pytest.mark.parametrize(
    "where", ["docs/en/theory/03-compile-and-distributed.md", "docs/es/theory/01-dispatcher-and-aten.md"]
)
def test_the_index_of_the_heaviest_pages_is_the_same(where):
    path = REPO / where
    view = Page(Path(where).parts[1], where, Catalog.here(DEFAULT_LAYOUT), Highlighter())
    html, _ = render_markdown(path.read_text(encoding="utf-8"), view)
    stripped = search_input.without_code_spans(html)
    assert html.count("<span") > 5000 and stripped.count("<span") < html.count("<span") / 10
    assert entries(stripped) == entries(html)


@pytest.mark.slow
def test_the_index_of_each_built_notebook_page_is_the_same(built_site):
    notebooks = sorted(built_site.glob("labs/*/index.html"))
    assert len(notebooks) >= 3
    for path in notebooks:
        html = path.read_text(encoding="utf-8")
        assert entries(search_input.without_code_spans(html)) == entries(html), path


def plugin_config(index) -> SimpleNamespace:
    return SimpleNamespace(plugins={"material/search": SimpleNamespace(search_index=index)})


NOTEBOOK = f'<div class="jp-Notebook"><p>x</p>{PYGMENTS}</div>'


def test_the_plugin_sees_the_light_page_and_the_page_keeps_its_spans():
    seen = []
    index = SimpleNamespace(add_entry_from_context=lambda page: seen.append(page.content))
    config = plugin_config(index)
    search_input.lighter_search_input(config)
    search_input.lighter_search_input(config)  # a second build of the same config: wrapped once
    page = SimpleNamespace(content=NOTEBOOK)
    index.add_entry_from_context(page)
    assert seen == [search_input.for_search(page.content)] and "<span" not in seen[0] and "x  @  W.T" in seen[0]
    assert page.content == NOTEBOOK
    index.add_entry_from_context(markdown := SimpleNamespace(content=f"<p>x</p>{PYGMENTS}"))
    assert (
        "<pre" not in seen[1] and "W.T" not in seen[1] and markdown.content == f"<p>x</p>{PYGMENTS}"
    )  # a Markdown page: prose only


def test_a_failing_index_still_gives_the_page_back_and_no_plugin_is_no_change():
    def refuse(page):
        raise ValueError("bad page")

    index = SimpleNamespace(add_entry_from_context=refuse)
    search_input.lighter_search_input(plugin_config(index))
    page = SimpleNamespace(content=PYGMENTS)
    with pytest.raises(ValueError, match="bad page"):
        index.add_entry_from_context(page)
    assert page.content == PYGMENTS
    search_input.lighter_search_input(SimpleNamespace(plugins={}))  # another engine or theme: nothing to wrap
    search_input.lighter_search_input(plugin_config(SimpleNamespace()))


def test_the_text_of_the_code_is_what_the_index_holds():
    [entry] = entries(f"<p>intro</p>{PYGMENTS}")
    assert html_lib.escape('"""<doc> & "quotes"', quote=False) in entry["text"]
    assert "\treturn x  @  W.T   +  b" in entry["text"]
