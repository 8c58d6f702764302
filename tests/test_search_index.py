"""What the site's search index holds: prose, not code; notebook cells without their chrome; one entry per
operator of the atlas, ranked so that the name typed comes first; the glossary's synonyms on the sections that
teach them, and a clear error for a synonym that leads nowhere.

Fast: built from small pages, from the plugin's own ``SearchIndex`` and from the atlas page rendered
in-process. The built site's indexes are checked at the end (slow: the site is built once per session); the
browser's ranking is in test_browser_search.py.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import parse_qs

import pytest
from conftest import REPO
from material.plugins.search.plugin import SearchIndex
from phase25.core.catalog import Catalog
from phase25.core.errors import SourceError
from phase25.core.paths import DEFAULT_LAYOUT
from phase25.site.hosts import search_index, search_input, search_rank, search_terms, stop_words
from phase25.site.kinds.assemble import render_markdown
from phase25.site.page.context import Page
from phase25.site.page.highlight import Highlighter

SEPARATOR = r'[\s\-,:!=\[\]()"/]+|\.(?!\d)|&[lg]t;'  # mkdocs.yml's, checked below


def entries(html: str) -> list[dict]:
    index = SearchIndex()
    index.add_entry_from_context(SimpleNamespace(content=html, meta={}, toc=[], url="page/", title="Page"))
    return index.entries


def test_the_separator_tested_here_is_the_sites():
    assert f"separator: '{SEPARATOR}'" in (REPO / "mkdocs.yml").read_text(encoding="utf-8")


def test_the_search_pipeline_keeps_stop_words_four_operators_are_named_by():
    """lunr's stopWordFilter drops where, all, any, to (and Spanish sin, le) from the index; the pipeline
    leaves it out (and the stemmer, as Material's default already did)."""
    text = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    block = text[text.index("  - search:") :].split("\n  - ", 1)[0]
    assert re.search(r"^      pipeline: \[\](\s+#.*)?$", block, re.M), block


def test_lunrs_stop_words_are_read_from_the_installed_theme():
    en, es = stop_words.for_language("en"), stop_words.for_language("es")
    assert len(en) == 119 and {"where", "all", "any", "to", "the"} <= en  # lunr's English list
    assert len(es) > 300 and {"sin", "le", "de", "la", "y"} <= es and "where" not in es
    assert stop_words.of(["en", "es"]) == en | es and stop_words.of(["xx"]) == frozenset()


# The shape nbconvert (mkdocs-jupyter) gives a markdown cell and a code cell with its output.
NOTEBOOK = """<div class="jupyter-wrapper"><div class="jp-Notebook">
<div class="jp-Cell jp-MarkdownCell"><div class="jp-InputArea"><div class="jp-InputPrompt jp-InputArea-prompt">
</div><div class="jp-RenderedMarkdown">
<h2 id="walk">5. Walk the graph<a class="anchor-link" href="#walk">¶</a></h2><p>Every node is callable.</p>
</div></div></div>
<div class="jp-Cell jp-CodeCell"><div class="jp-InputArea">
<div class="jp-InputPrompt jp-InputArea-prompt">In&nbsp;[5]:</div><div class="jp-CodeMirrorEditor">
<div class="zeroclipboard-container"><clipboard-copy aria-label="Copy to Clipboard" for="cell-5"><div>
<span class="notice" hidden="">Copied!</span><svg><path d="M0"></path></svg></div></clipboard-copy></div>
<div class="highlight-ipynb hl-python"><pre><span></span><span class="n">node</span> <span class="o">=</span>
loss.grad_fn</pre></div>
<div class="clipboard-copy-txt" id="cell-5">node =
loss.grad_fn</div>
</div></div>
<div class="jp-OutputArea"><div class="jp-OutputPrompt jp-OutputArea-prompt">Out[5]:</div>
<div class="jp-RenderedText"><pre>AddmmBackward0</pre></div></div></div>
<script>document.write('<div class="x">');</script>
</div></div>"""


def test_a_notebook_cell_is_indexed_in_its_section_without_prompt_button_or_pilcrow():
    found = entries(search_input.for_search(NOTEBOOK))
    walk = next(e for e in found if e["location"] == "page/#walk")
    assert walk["title"] == "5. Walk the graph"
    assert "node =\nloss.grad_fn" in walk["text"] and "AddmmBackward0" in walk["text"]  # the cell, code and output
    everything = json.dumps(found)
    for chrome in ("Copied", "In&nbsp;", "[5]:", "Out[5]", "¶", "Copy to Clipboard"):
        assert chrome not in everything, chrome
    assert walk["text"].count("loss.grad_fn") == 1  # not twice: the button's hidden copy is gone


def test_a_markdown_page_is_indexed_without_its_code_blocks_but_with_its_inline_code():
    page = (
        '<h2 id="a">A</h2><p>Each tensor has a <code>grad_fn</code>.</p>'
        '<div class="snippet"><pre><code>import subprocess  # harness</code></pre></div>'
        '<ul class="atlas-list"><li><button class="atlas-op">aten::addmm</button></li></ul>'
        "<script>var s = '<pre>kept</pre>';</script><p>after</p>"
    )
    shown = search_input.for_search(page)
    assert "subprocess" not in shown and "aten::addmm" not in shown
    assert "var s = '<pre>kept</pre>'" in shown  # a script is left whole
    [_, section] = entries(shown)
    assert section["text"] == "<p>Each tensor has a <code>grad_fn</code>.</p><p>after</p>"


def atlas_page(*overloads: str) -> str:
    """The list of the atlas as kinds/atlas.py writes it (names escaped), around other HTML."""
    items = "".join(
        f'<li data-shard="s"><button type="button" class="atlas-op" aria-expanded="false">{html.escape(name)}</button> '
        '<span class="atlas-facts" data-search-exclude>facts</span></li>'
        for name in overloads
    )
    return f'<p><button type="button" class="atlas-op">not::listed</button></p><ul class="atlas-list">{items}</ul>'


def test_one_entry_per_operator_opening_its_default_overload_else_its_first():
    page = atlas_page("aten::add.Tensor", "aten::add", "aten::add.out", "aten::_foreach_add.List", "prims::add")
    assert search_index.operators(page) == {
        "aten::add": "aten::add",
        "aten::_foreach_add": "aten::_foreach_add.List",
        "prims::add": "prims::add",
    }
    docs = search_index.operator_docs("reference/dispatcher-atlas/", page)
    assert [(d["title"], d["location"].split("#")[1]) for d in docs] == [
        ("add", "op=aten::add"),
        ("_foreach_add", "op=aten::_foreach_add.List"),
        ("prims::add", "op=prims::add"),
    ]
    assert all(d["text"] == "" for d in docs)  # Material's teaser reads a text


@pytest.mark.parametrize("name", ["my_ns::odd name#1+2&x=y%z.ov", "my_ns::<b>&amp;'\"", "ns::ñandú/ü?"])
def test_an_operator_name_that_needs_escaping_gets_an_address_that_gives_it_back(name):
    [doc] = search_index.operator_docs("reference/dispatcher-atlas/", atlas_page(name))
    location = doc["location"]
    assert re.fullmatch(r"reference/dispatcher-atlas/#op=[A-Za-z0-9_.~:%-]+", location), location
    # atlas.js reads it with URLSearchParams, which decodes as parse_qs does
    assert parse_qs(location.split("#", 1)[1])["op"] == [name]
    namespace, _, rest = name.partition("::")
    assert "<" not in doc["title"] and html.unescape(doc["title"]) == f"{namespace}::{rest.split('.')[0]}"


def lunr_weight(doc: dict, rarity: dict[str, float]) -> float:
    """The weight of an operator entry's title term in Material's worker: idf x boost (x the field's 1000)."""
    term = doc["title"].rpartition("::")[2]
    return rarity[term] * doc["boost"]


def test_the_operator_typed_ranks_before_its_longer_namesakes_however_often_the_prose_names_it():
    prose = [{"location": f"p{i}/", "title": "Page", "text": "<p>addmm and native_layer_norm</p>"} for i in range(40)]
    page = atlas_page(
        "aten::addmm_", "aten::addmm", "aten::addmm.out", "aten::native_layer_norm_backward", "aten::native_layer_norm"
    )
    ours = search_index.operator_docs("atlas/", page)
    docs = prose + ours
    search_index.rank_operators(docs, ours, SEPARATOR)
    rarity = search_index.idf(docs, SEPARATOR)
    weight = {doc["title"]: lunr_weight(doc, rarity) for doc in ours}
    assert rarity["addmm"] < rarity["addmm_"]  # the prose names addmm forty times, addmm_ never
    assert weight["addmm"] > weight["addmm_"]
    assert weight["native_layer_norm"] > weight["native_layer_norm_backward"]
    # below a heading that names the word (weight: its idf, above 1), far above a mention in a text (a thousandth)
    assert all(0.3 < w < 1 for w in weight.values())


SITE = {
    "lang": ["en", "es"],
    "separator": SEPARATOR,
    "pipeline": [],
    "fields": {"title": {"boost": 1000.0}, "text": {"boost": 1.0}, "tags": {"boost": 1000000.0}},
}


def first(docs: list[dict], config: dict, query: str) -> str:
    """The entry Material's worker ranks first for a query, as search_rank models it."""
    scores = search_rank.Scores(docs, config)
    found = scores.query(scores.words(query))
    return docs[max(found, key=found.__getitem__)]["location"] if found else ""


def ranked_atlas(config: dict) -> list[dict]:
    prose = [
        {"location": "t/", "title": "The dispatcher and aten", "text": "<p>where it goes</p>"},
        {"location": "t/#less", "title": "Keeping less", "text": "<p>x</p>"},
        {"location": "t/#where", "title": "Anomaly detection: where a NaN was born", "text": "<p>x</p>"},
        {"location": "t/#mode", "title": "Function vs dispatch mode", "text": "<p>x</p>"},
        {"location": "x/", "title": "torch.export and torch.compile", "text": "<p>sinh, exp</p>"},
    ]
    ours = search_index.operator_docs(
        "atlas/", atlas_page("aten::le.Scalar", "aten::less", "aten::where.self", "aten::sin", "aten::sinh")
    ) + search_index.operator_docs("atlas/", atlas_page("aten::mode", "aten::to", "aten::exp", "aten::expm1"))
    docs = prose + ours
    search_index.rank_operators(docs, ours, SEPARATOR)
    search_rank.first_for_their_names(docs, ours, config)
    return docs


@pytest.mark.parametrize(
    ("query", "opens"),
    [
        ("where", "atlas/#op=aten::where.self"),  # a stop word: above the heading that says it
        ("torch.where", "atlas/#op=aten::where.self"),
        ("aten::where", "atlas/#op=aten::where.self"),  # above the page whose title says aten
        ("le", "atlas/#op=aten::le.Scalar"),  # above "less", the heading and the operator
        ("sin", "atlas/#op=aten::sin"),  # above sinh
        ("sinh", "atlas/#op=aten::sinh"),
        ("to", "atlas/#op=aten::to"),  # above every torch
        ("exp", "atlas/#op=aten::exp"),  # above torch.export and expm1
        ("less", "t/#less"),  # a heading that says the name stays above it
        ("mode", "t/#mode"),
    ],
)
def test_an_operators_name_ranks_its_entry_first_unless_a_heading_says_it(query, opens):
    assert first(ranked_atlas(SITE), SITE, query) == opens


def test_with_the_stop_word_filter_an_operator_named_by_a_stop_word_is_not_found():
    """The model drops what the pipeline drops: with lunr's filter, no entry holds ``where``."""
    config = {**SITE, "pipeline": ["stopWordFilter"]}
    assert search_rank.dropped(config) >= {"where", "sin"}
    assert first(ranked_atlas(config), config, "where") == ""


def test_pages_that_do_not_teach_weigh_less():
    docs = [{"location": loc} for loc in ("", "#first-look", "theory/01/", "labs/01/#a", "reference/x/", "labsx/")]
    search_index.weigh_pages(docs)
    assert [d.get("boost") for d in docs] == [0.5, 0.5, None, 0.3, 0.3, None]
    for lang in ("en", "es"):  # each folder weighed holds pages, in both languages
        assert all(any((REPO / "docs" / lang / where).glob("*.*")) for where in search_index.WEIGHTS if where)


def table(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "search_synonyms.toml"
    path.write_text(text, encoding="utf-8")
    return path


def index(titles: dict[str, str]) -> list[dict]:
    return [{"location": loc, "title": title, "text": "<p>x</p>"} for loc, title in titles.items()]


def test_a_synonym_reaches_every_section_whose_heading_says_its_word_and_no_other(tmp_path):
    path = table(tmp_path, '[[synonym]]\nheading = "backward"\nen = ["backpropagation", "backprop"]\n')
    docs = index(
        {
            "t/#walk": "How <code>.backward()</code> walks the graph",
            "t/#double": "Double backward: the gradient of a gradient",
            "t/#hooks": "Backward hooks",
            "t/#backwards": "Backwards compatibility",  # a longer word is not the word
            "t/#other": "The forward",
        }
    )
    search_terms.add_words(docs, search_terms.load(path), "en", SEPARATOR, "t.toml")
    search_terms.add_words(docs, search_terms.load(path), "en", SEPARATOR, "t.toml")  # twice: added once
    said = {d["location"]: d["text"] for d in docs}
    assert said["t/#walk"] == said["t/#double"] == said["t/#hooks"] == "<p>x</p> <p>backpropagation, backprop</p>"
    assert said["t/#backwards"] == said["t/#other"] == "<p>x</p>"
    search_terms.add_words(docs, search_terms.load(path), "es", SEPARATOR, "t.toml")  # no Spanish words: nothing


def test_a_synonym_whose_word_no_heading_says_fails_naming_the_file_and_line(tmp_path):
    path = table(
        tmp_path,
        '# comment\n\n[[synonym]]\nheading = "backward"\nen = ["backprop"]\n\n'
        '[[synonym]]\nes = ["retropropagación"]\nheading = "retroceso"\n',
    )
    docs = index({"t/#walk": "How .backward() walks the graph"})
    with pytest.raises(SourceError, match=r"^t\.toml:9: no heading of the 'es' pages says 'retroceso'"):
        search_terms.add_words(docs, search_terms.load(path), "es", SEPARATOR, "t.toml")


@pytest.mark.parametrize(
    ("text", "line", "says"),
    [
        ('[[synonym]]\nheading = "x"\nen = ["a"\n', 3, "not TOML"),
        ('[[synonym]]\nheading = "x"\nfr = ["mot"]\n', 2, "'fr' is neither 'heading' nor a language"),
        ('[[synonym]]\nheading = "x"\nen = []\n', 2, "'en' must list the reader's words"),
        ('[[synonym]]\nheading = "x"\nen = ["ok", " "]\n', 2, "'en' must list"),
        ('[[synonym]]\nheading = "x"\nen = "backprop"\n', 2, "'en' must list"),
        ('[[synonym]]\nen = ["a"]\n', 1, "an entry needs heading"),
        ('[[synonym]]\nheading = "x"\n', 2, "gives no reader's word"),
        ('[synonym]\nheading = "x"\n', None, "holds only [[synonym]] entries"),
        ('words = ["x"]\n', None, "holds only [[synonym]] entries"),
    ],
)
def test_a_bad_synonyms_table_is_refused_with_its_file_and_line(tmp_path, text, line, says):
    path = table(tmp_path, text)
    with pytest.raises(SourceError) as refused:
        search_terms.load(path)
    assert refused.value.line == line and says in refused.value.message
    assert str(refused.value).startswith(search_terms.shown(path))


def test_the_sites_synonyms_table_loads_and_gives_both_languages_words():
    table = search_terms.load()
    assert {"backward", "dispatch"} <= {s.heading for s in table}
    backward = next(s for s in table if s.heading == "backward")
    assert "backpropagation" in backward.words["en"] and "retropropagación" in backward.words["es"]


def built(tmp_path: Path, docs: dict[str, list[dict]], pages: dict[str, str]) -> Path:
    """A built site's indexes (one per language) and pages, as complete() finds them."""
    for lang, entries_ in docs.items():
        path = search_index.index_file(tmp_path, lang)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"config": {"separator": SEPARATOR}, "docs": entries_}), encoding="utf-8")
    for where, text in pages.items():
        (tmp_path / where).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / where).write_text(text, encoding="utf-8")
    return tmp_path


def test_complete_adds_the_operators_after_the_atlas_page_and_gives_the_same_index_twice(tmp_path):
    atlas = [{"location": "reference/atlas/", "title": "Atlas", "text": ""}]
    docs = {"en": index({"": "Home", "t/#w": "The backward"}) + atlas, "es": index({"t/#w": "El backward"}) + atlas}
    page = atlas_page("aten::addmm", "aten::addmm.out")
    site = built(tmp_path, docs, {"reference/atlas/index.html": page, "es/reference/atlas/index.html": page})
    synonyms = table(tmp_path, '[[synonym]]\nheading = "backward"\nen = ["backprop"]\nes = ["retropropagación"]\n')
    search_index.complete(site, synonyms)
    first = search_index.index_file(site, "en").read_text(encoding="utf-8")
    search_index.complete(site, synonyms)
    assert search_index.index_file(site, "en").read_text(encoding="utf-8") == first
    en = json.loads(first)["docs"]
    assert [d["location"] for d in en] == ["", "t/#w", "reference/atlas/", "reference/atlas/#op=aten::addmm"]
    assert en[0]["boost"] == 0.5 and "backprop" in en[1]["text"]
    es = json.loads(search_index.index_file(site, "es").read_text(encoding="utf-8"))["docs"]
    assert "retropropagación" in es[0]["text"] and es[-1]["location"] == "reference/atlas/#op=aten::addmm"


def test_an_index_not_built_yet_is_left_alone(tmp_path):
    """static-i18n builds one language per pass: the other language's index is empty until the last pass."""
    site = built(tmp_path, {"en": []}, {})
    search_index.complete(site, table(tmp_path, '[[synonym]]\nheading = "nowhere"\nen = ["x"]\n'))
    assert json.loads(search_index.index_file(site, "en").read_text(encoding="utf-8"))["docs"] == []


@pytest.mark.parametrize("where", ["docs/en/reference/dispatcher-atlas.md", "docs/es/reference/dispatcher-atlas.md"])
def test_the_atlas_page_gives_an_entry_to_each_operator_and_none_to_its_list(where):
    view = Page(Path(where).parts[1], where, Catalog.here(DEFAULT_LAYOUT), Highlighter())
    html, _ = render_markdown((REPO / where).read_text(encoding="utf-8"), view)
    found = search_index.operators(html)
    assert len(found) > 2000 and len(found) < html.count('class="atlas-op"')  # overloads grouped
    for name in ("aten::native_layer_norm", "aten::index_put_", "aten::_foreach_add", "aten::addmm"):
        assert found[name].split(".")[0] == name
    assert found["aten::addmm"] == "aten::addmm"  # the default overload
    read = search_input.for_search(html)  # the list is not indexed as text: the prose's few names are
    assert 'class="atlas-list"' not in read and read.count("aten::") < 20 < html.count("aten::")


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_built_index_holds_prose_operators_and_synonyms_and_no_notebook_chrome(built_site, lang):
    path = search_index.index_file(built_site, lang)
    assert path.stat().st_size < 1_500_000  # 6.3 MB per language when it held every source and output
    docs = json.loads(path.read_text(encoding="utf-8"))["docs"]
    for doc in docs:
        for chrome in ("Copied!", "In&nbsp;[", "In\u00a0[", "¶"):
            assert chrome not in doc["title"] + doc["text"], (doc["location"], chrome)
    titles = {doc["title"]: doc["location"] for doc in docs if "#op=" in doc["location"]}
    assert titles["native_layer_norm"] == "reference/dispatcher-atlas/#op=aten::native_layer_norm"
    assert titles["index_put_"] == "reference/dispatcher-atlas/#op=aten::index_put_"
    assert titles["_foreach_add"].startswith("reference/dispatcher-atlas/#op=aten::_foreach_add.")
    word = {"en": "backpropagation", "es": "retropropagación"}[lang]
    walk = next(doc for doc in docs if doc["location"] == "theory/02-autograd-and-custom-ops/#walking-the-graph")
    assert word in walk["text"]


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "es"])
def test_every_operators_name_is_in_the_index_and_a_stop_words_operator_ranks_first(built_site, lang):
    """Findable: each operator's name is a term of its entry as the worker indexes it (the pipeline drops no
    stop word). First: each operator named by a stop word of the index's languages, written as a reader does."""
    index = json.loads(search_index.index_file(built_site, lang).read_text(encoding="utf-8"))
    config, docs = index["config"], index["docs"]
    assert "stopWordFilter" not in config["pipeline"] and search_rank.dropped(config) == frozenset()
    scores = search_rank.Scores(docs, config)
    ours = [i for i, doc in enumerate(docs) if "#op=" in doc["location"]]
    assert len(ours) > 2000 and all(search_rank.name(docs[i]) in scores.titles[i] for i in ours)
    stopped = [i for i in ours if search_rank.name(docs[i]) in stop_words.of(config["lang"])]
    assert {"where", "all", "any", "to", "sin", "le"} <= {search_rank.name(docs[i]) for i in stopped}
    wrong = []
    for i in stopped:  # first: this entry, or one of its namesakes (prims::where's query is aten::where's too)
        for form in search_rank.forms(docs[i]):
            found = scores.query(scores.words(form))
            best = docs[max(found, key=found.__getitem__)]
            if "#op=" not in best["location"] or search_rank.name(best) != search_rank.name(docs[i]):
                wrong.append(f"{form!r}: {best['location']}")
    assert not wrong, wrong
