"""Material's own search, in headless Chromium, on the built site: the page a reader's query must rank first,
in both languages, and an operator's result that opens its entry in the atlas.

Each query is typed into the header's search box of the language's home page, as a reader does; the first
result (Material groups results by page) must be the page named, and for an operator, its best section the
operator's entry. The index behind it is made by phase25.site.hosts.search_input and search_index (fast
tests of its content in test_search_index.py).
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlparse

import pytest
from browsing import BROWSER_MARKS

pytestmark = BROWSER_MARKS

THEORY_01, THEORY_02, THEORY_03 = "theory/01-dispatcher-and-aten/", "theory/02-autograd-and-custom-ops/", "theory/03"
ATLAS = "reference/dispatcher-atlas/"
# (query, the page that must come first: a page's address below the language's root, or the start of it for
# theory 03, which may be split into pages of its own; for an operator, the name its entry must open)
ENGLISH = [
    ("grad_fn", THEORY_02, None),
    ("backpropagation", THEORY_02, None),
    ("autodiff", THEORY_02, None),
    ("dispatch key", THEORY_01, None),
    ("fallthrough", THEORY_01, None),
    ("torch.compile", THEORY_03, None),
    ("Inductor", THEORY_03, None),
    ("addmm", ATLAS, "aten::addmm"),
    ("native_layer_norm", ATLAS, "aten::native_layer_norm"),
    ("index_put_", ATLAS, "aten::index_put_"),
    ("_foreach_add", ATLAS, "aten::_foreach_add"),
]
SPANISH = [
    ("retropropagación", THEORY_02, None),
    ("retropropagacion", THEORY_02, None),
    ("diferenciación automática", THEORY_02, None),
    ("grad_fn", THEORY_02, None),
    ("clave de dispatch", THEORY_01, None),  # the glossary's words
    ("clave de despacho", THEORY_01, None),  # a reader's: the glossary keeps «despacho» off the pages
    ("despachador", THEORY_01, None),
    ("ruptura de grafo", THEORY_03, None),
    ("torch.compile", THEORY_03, None),
    ("Inductor", THEORY_03, None),
    ("native_layer_norm", ATLAS, "aten::native_layer_norm"),
    ("_foreach_add", ATLAS, "aten::_foreach_add"),
]
# Operators named by a word lunr's stop-word filter drops (English where, all, any, to; Spanish sin, le): the
# index keeps them, and each is found first, as torch and aten write it too, on both sites; an English name typed
# on the Spanish site finds its Spanish entry (tests/test_search_index.py checks every such name in the index).
OPERATORS = [
    (query, ATLAS, "aten::" + query.rpartition(":")[2].rpartition(".")[2])
    for query in ("where", "any", "all", "to", "sin", "le", "torch.where", "aten::where", "addmm")
]
SEARCH = ".md-search__input"


def open_search(tab, home: str) -> None:
    """The language's home tab, its search box focused and its index loaded: the line above the results, which
    says the search is starting until the worker has read the index, answers a query that finds nothing."""
    tab.goto(home)
    tab.click("label.md-search__icon, .md-search__input")
    meta = tab.locator(".md-search-result__meta")
    starting = meta.inner_text()
    ask(tab, "zzqxzzqx")
    changed = "(was) => document.querySelector('.md-search-result__meta').innerText !== was"
    tab.wait_for_function(changed, arg=starting, timeout=60000)


def ask(tab, query: str) -> None:
    """Type a query as a reader does: Material searches on the key that ends it."""
    tab.locator(SEARCH).fill(query)
    tab.locator(SEARCH).press("End")


def top_hit(tab, query: str) -> tuple[str, str]:
    """(tab, best section's hash) of the first result: its article's address without the query string, and the
    fragment of its highest-scored link (the article's own when no section scores higher)."""
    ask(tab, "zzqxzzqx")
    tab.wait_for_function("!document.querySelector('.md-search-result__item')", timeout=30000)
    ask(tab, query)
    first = tab.locator(".md-search-result__item").first
    first.wait_for(timeout=30000)
    links = first.locator("a.md-search-result__link").evaluate_all(
        "els => els.map(e => [e.href, +e.querySelector('article').dataset.mdScore])"
    )
    best = max(links, key=lambda link: link[1])[0]
    return urlparse(links[0][0]).path, urlparse(best).fragment


def misranked(tab, served, lang: str, queries: list[tuple[str, str, str | None]]) -> list[str]:
    """The queries whose first result is not the page expected (or not the operator's entry), each said."""
    base, prefix = served
    root = f"{prefix}{'' if lang == 'en' else 'es/'}"
    open_search(tab, f"{base}/{'' if lang == 'en' else 'es/'}")
    found = {query: top_hit(tab, query) for query, _, _ in queries}
    wrong = []
    for query, expected, operator in queries:
        where, fragment = found[query]
        opens = parse_qs(fragment).get("op", [""])[0]
        if not where.startswith(root + expected) or (operator and opens.split(".")[0] != operator):
            wrong.append(f"{query!r}: {where}#{fragment}, not {root}{expected}{'#op=' + operator if operator else ''}")
    return wrong


@pytest.mark.parametrize(("lang", "queries"), [("en", ENGLISH), ("es", SPANISH)])
def test_each_readers_query_ranks_the_page_that_teaches_it_first(page, served, lang, queries):
    wrong = misranked(page, served, lang, queries)
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_an_operator_named_by_a_stop_word_or_in_english_on_the_spanish_site_is_found_first(page, served, lang):
    wrong = misranked(page, served, lang, OPERATORS)
    assert not wrong, "\n".join(wrong)


def atlas_item(tab, name: str):
    """The atlas's list item of an overload: its button's text is the name (Material may have marked a part of
    it, the words searched for, which splits the text Playwright's ``text-is`` compares)."""
    button = tab.locator(".atlas-op").filter(has_text=re.compile(f"^{re.escape(name)}$"))
    return tab.locator(".atlas-list > li").filter(has=button)


@pytest.mark.parametrize(("lang", "title"), [("en", "The dispatcher atlas"), ("es", "El atlas del dispatcher")])
def test_an_operators_result_opens_its_entry_in_the_atlas_from_any_page_and_from_the_atlas_itself(
    page,
    served,
    lang,
    title,
):
    base, _ = served
    home = f"{base}/{'' if lang == 'en' else 'es/'}"
    open_search(page, home)
    ask(page, "native_layer_norm")
    page.locator('.md-search-result__link[href*="#op=aten::native_layer_norm"]').first.click()
    page.wait_for_url("**/reference/dispatcher-atlas/**")
    assert page.locator("h1").inner_text().startswith(title)
    entry = atlas_item(page, "aten::native_layer_norm")
    entry.locator(".atlas-entry").wait_for()
    assert entry.locator(".atlas-op").get_attribute("aria-expanded") == "true"
    assert entry.is_visible() and entry.locator(".atlas-entry").count() == 1
    # Searching again on the atlas itself: the result's address differs (its ?h=), the page loads again
    page.click("label.md-search__icon, .md-search__input")
    ask(page, "index_put_")
    page.locator('.md-search-result__link[href*="#op=aten::index_put_"]').first.click()
    other = atlas_item(page, "aten::index_put_")
    other.locator(".atlas-entry").wait_for()
    # An address that changes only its hash (the same result clicked again, a link): the page stays
    page.evaluate("window.stays = true; location.hash = 'op=aten::addmm'")
    addmm = atlas_item(page, "aten::addmm")
    addmm.locator(".atlas-entry").wait_for()
    assert page.evaluate("window.stays") and other.locator(".atlas-entry").count() == 1
    page.evaluate(  # the same operator again, written otherwise: it stays open, once
        "new Promise(done => { addEventListener('hashchange', () => setTimeout(done, 100), {once: true});"
        " location.hash = 'op=aten%3A%3Aaddmm'; })"
    )
    assert addmm.locator(".atlas-entry").count() == 1
    assert addmm.locator(".atlas-op").get_attribute("aria-expanded") == "true"
