"""A picture a snippet draws is shown in the page's language: its labels said from the language's strings, names
from the code and numbers left as drawn, and a label a language has no words for named by the build."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from phase25.core.catalog import Catalog
from phase25.core.paths import DEFAULT_LAYOUT
from phase25.site.downloads import picture_words
from phase25.site.lang import strings

SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg"><text x="1">main thread</text><text x="2">lm_head</text>'
    '<text x="3">blocks.0</text><text x="4">12</text><text x="5">bucket 2</text><text>rank 10</text></svg>'
)


def labels(svg: str) -> list[str]:
    return re.findall(r"<text\b[^>]*>([^<]*)</text>", svg)


def test_words_are_said_in_the_language_names_and_numbers_are_left() -> None:
    said, missing = picture_words.translated(SVG, "es")
    assert missing == []
    assert labels(said) == ["hilo principal", "lm_head", "blocks.0", "12", "bucket 2", "rank 10"]
    assert picture_words.translated(SVG, "en") == (SVG, [])


@pytest.mark.parametrize(
    ("label", "is_words"),
    [("main thread", True), ("Forward", True), ("lm_head", False), ("ln_f", False), ("blocks.0", False), ("14", False)],
)
def test_what_counts_as_words(label: str, is_words: bool) -> None:
    assert picture_words.words(label) is is_words


def test_a_label_without_words_in_a_language_is_named_and_left_as_drawn() -> None:
    svg = "<svg><text>gradient buckets</text><text>main thread</text></svg>"
    said, missing = picture_words.translated(svg, "es")
    assert missing == ["gradient buckets"] and "gradient buckets" in said and "hilo principal" in said


def test_a_translation_is_escaped_into_the_picture(monkeypatch) -> None:
    monkeypatch.setitem(strings.STRINGS["es"], "picture: main thread", "<b>hilo</b> & co")
    said, _ = picture_words.translated("<svg><text>main thread</text></svg>", "es")
    assert "<text>&lt;b&gt;hilo&lt;/b&gt; &amp; co</text>" in said


def test_the_name_of_each_languages_copy() -> None:
    assert picture_words.picture_name("ddp_timeline.svg", strings.DEFAULT) == "ddp_timeline.svg"
    assert picture_words.picture_name("ddp_timeline.svg", "es") == "ddp_timeline.es.svg"


def test_every_picture_of_the_site_has_words_in_every_language() -> None:
    """No English label on another language's page: every published SVG of a current record, every language."""
    catalog = Catalog.here(DEFAULT_LAYOUT)
    pictures = [
        (standing.record, name)
        for standing in catalog.standings.values()
        if standing.state == "current" and standing.record is not None
        for name in standing.record.published
        if name.endswith(".svg")
    ]
    assert pictures, "the DDP timeline at least"
    for record, name in pictures:
        for lang in strings.LANGUAGES[1:]:
            _, missing = picture_words.translated(str(record.published[name]), lang)
            assert missing == [], (record.snippet, name, lang)


def test_a_spanish_page_shows_its_pictures_spanish_copy(built_site: Path) -> None:
    page = (built_site / "es/theory/03-distributed-training/index.html").read_text()
    sources = re.findall(r'<img src="([^"]*ddp_timeline[^"]*)"', page)
    assert sources and all(s.endswith("ddp_timeline.es.svg") for s in sources), sources
    copy = built_site / "snippet-files/theory-03/dist_ddp_overlap/cpu/ddp_timeline.es.svg"
    assert "hilo principal" in copy.read_text() and "main thread" not in copy.read_text()
    english = (built_site / "theory/03-distributed-training/index.html").read_text()
    assert re.findall(r'<img src="[^"]*ddp_timeline\.svg"', english)
