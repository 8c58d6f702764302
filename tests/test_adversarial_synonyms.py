"""Search synonyms (``site/lang/search_synonyms.toml``): what an entry may attach its words to, and what they carry.

An entry's words are added to the search text of the sections whose heading holds its ``heading`` word, word
for word. Tried here as someone editing the table carelessly or on purpose would: markup among the words, a
heading word that the search cannot see, one that no heading holds, an entry for a language the site lacks.
"""

from __future__ import annotations

import html
from pathlib import Path

import pytest
from phase25.core.errors import SourceError
from phase25.site.hosts import search_terms

SEPARATOR = r'[\s\-,:!=\[\]()"/]+|\.(?!\d)|&[lg]t;'  # mkdocs.yml's search separator


def docs() -> list[dict[str, str]]:
    return [
        {"location": "a/#backward", "title": "How .backward() walks the graph", "text": "<p>walks</p>"},
        {"location": "b/#guards", "title": "Guards", "text": "<p>guards</p>"},
        {"location": "c/#backwards", "title": "Backwards compatibility", "text": "<p>compat</p>"},
    ]


def table(tmp_path: Path, body: str) -> list[search_terms.Synonym]:
    path = tmp_path / "search_synonyms.toml"
    path.write_text(body, encoding="utf-8")
    return search_terms.load(path)


def test_markup_among_a_synonyms_words_lands_as_text(tmp_path):
    found = docs()
    hostile = '<img src=x onerror="alert(1)">'
    entries = table(tmp_path, f'[[synonym]]\nheading = "backward"\nen = [{hostile!r}, "backprop"]\n')
    search_terms.add_words(found, entries, "en", SEPARATOR, "table.toml")
    assert "<img" not in found[0]["text"] and html.escape(hostile, quote=False) in found[0]["text"]


def test_a_synonym_attaches_only_to_headings_that_hold_its_whole_word(tmp_path):
    found = docs()
    entries = table(tmp_path, '[[synonym]]\nheading = "backward"\nen = ["backprop"]\n')
    search_terms.add_words(found, entries, "en", SEPARATOR, "table.toml")
    assert ["backprop" in doc["text"] for doc in found] == [True, False, False]


@pytest.mark.parametrize("heading", ["-", " . ", "()", "&lt;"])
def test_a_heading_word_the_search_cannot_see_is_refused_never_attached_everywhere(tmp_path, heading):
    """A heading word made only of the search's separators is no word at all: every heading would 'hold' it and
    the entry's words would be attached to every section of the language."""
    found = docs()
    entries = table(tmp_path, f'\n[[synonym]]\nheading = {heading!r}\nen = ["everywhere"]\n')
    with pytest.raises(SourceError) as caught:
        search_terms.add_words(found, entries, "en", SEPARATOR, "table.toml")
    assert (caught.value.path, caught.value.line) == ("table.toml", 3)
    assert not any("everywhere" in doc["text"] for doc in found)


def test_a_heading_word_no_heading_holds_is_refused_with_file_and_line(tmp_path):
    entries = table(tmp_path, '[[synonym]]\nheading = "backpropagation"\nen = ["x"]\n')
    with pytest.raises(SourceError, match="would lead nowhere") as caught:
        search_terms.add_words(docs(), entries, "en", SEPARATOR, "table.toml")
    assert caught.value.line == 2


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ('[[synonym]]\nheading = "backward"\nfr = ["rétropropagation"]\n', "neither 'heading' nor a language"),
        ('[[synonym]]\nheading = "backward"\nen = []\n', "must list the reader's words"),
        ('[[synonym]]\nheading = "backward"\nen = ["  "]\n', "must list the reader's words"),
        ('[[synonym]]\nen = ["x"]\n', "needs heading"),
        ("[other]\nx = 1\n", "holds only"),
        ("[[synonym]\n", "not TOML"),
    ],
)
def test_a_damaged_entry_is_named_with_its_file_never_a_traceback(tmp_path, body, said):
    with pytest.raises(SourceError, match=said) as caught:
        table(tmp_path, body)
    assert caught.value.path.endswith("search_synonyms.toml")
