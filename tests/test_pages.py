"""Page sources: directives, heading ids, bilingual parity and translation freshness."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import REPO
from phase25.core.catalog import Catalog
from phase25.core.paths import DEFAULT_LAYOUT
from phase25.site.lang import translations
from phase25.site.page import directives, page_source

DOCS = REPO / "docs"


def test_directives_outside_fences_only_with_their_bodies():
    text = (
        "intro\n::: snippet a/b\n```markdown\n::: snippet not/this\n```\n  ::: execution-report\n"
        "::: note a/b cuda\n    First line.\n\n    Second `x`.\nafter\n"
    )
    found = directives.parse(text)
    assert [(d.kind, d.args, d.line, d.indent) for d in found] == [
        ("snippet", ("a/b",), 2, ""),
        ("execution-report", (), 6, "  "),
        ("note", ("a/b", "cuda"), 7, ""),
    ]
    assert found[2].body == "First line.\n\nSecond `x`." and found[2].end == 10


def test_headings_and_their_ids():
    text = "---\ntranslation_of: x\n---\n# Title\n## Tabla { #dispatch-table }\n```\n## not a heading\n```\n### Plain\n"
    assert page_source.headings(text) == [
        (1, "Title", None),
        (2, "Tabla { #dispatch-table }", "dispatch-table"),
        (3, "Plain", None),
    ]


def test_the_real_site_has_both_languages_in_parity():
    assert [str(issue) for issue in translations.parity(DOCS)] == []


def test_the_real_spanish_pages_translate_the_current_english_pages():
    assert [str(issue) for issue in translations.outdated(DOCS)] == [], (
        "re-translate, then `make stamp-translation PAGE=docs/es/...`"
    )


def test_every_directive_names_an_existing_snippet_and_every_snippet_is_shown():
    known = set(Catalog(DEFAULT_LAYOUT).snippets)
    used = {
        (d.arg or "").partition("#")[0]  # a lab cell names its snippet before the "#"
        for md in (DOCS / "en").rglob("*.md")
        for d in directives.parse(md.read_text(), str(md))
        if d.kind in ("snippet", "cell")
    }
    assert used - known == set(), "directives naming unknown snippets"
    assert known - used == set(), "snippets that no page shows"


@pytest.fixture
def docs_copy(tmp_path: Path) -> Path:
    shutil.copytree(DOCS, tmp_path / "docs")
    return tmp_path / "docs"


def test_parity_names_the_missing_the_extra_and_the_changed(docs_copy):
    (docs_copy / "en" / "extra.md").write_text("# Extra\n")
    es_index = docs_copy / "es" / "index.md"
    lines = es_index.read_text().split("\n")
    dropped = next(i for i, line in enumerate(lines) if line.startswith("::: snippet 00-orientation/dispatch_keys"))
    del lines[dropped]
    text = "\n".join(lines).replace("{ #why-now }", "{ #por-que-ahora }")
    es_index.write_text(text + "\n::: snippet 00-orientation/shape_mismatch\n")
    messages = [str(issue) for issue in translations.parity(docs_copy)]
    english_line = next(
        i
        for i, line in enumerate((docs_copy / "en/index.md").read_text().split("\n"), 1)
        if line.startswith("::: snippet 00-orientation/dispatch_keys")
    )
    assert "es/extra.md: missing translation of en/extra.md" in messages
    assert (
        f"es/index.md: missing directive '::: snippet 00-orientation/dispatch_keys' (English line {english_line})"
        in messages
    )
    assert any(
        m.startswith("es/index.md:") and "'::: snippet 00-orientation/shape_mismatch' is not in the English" in m
        for m in messages
    )
    assert any(m.startswith("es/index.md: missing heading id #why-now") for m in messages)
    assert any("heading id #por-que-ahora is not in the English page" in m for m in messages)


def test_freshness_flags_an_edited_english_page_until_restamped(docs_copy):
    assert translations.outdated(docs_copy) == []
    english = docs_copy / "en" / "index.md"
    english.write_text(english.read_text() + "\nOne more sentence.\n")
    [issue] = translations.outdated(docs_copy)
    assert issue.page == "es/index.md" and "the English page is now" in issue.message
    translations.stamp(docs_copy, "index.md", "es")
    assert translations.outdated(docs_copy) == []
    stamped = page_source.front_matter((docs_copy / "es" / "index.md").read_text())["translation_of"]
    assert stamped == page_source.revision(english)


def test_every_kind_a_page_may_hold_has_a_renderer_and_every_renderer_a_kind():
    from phase25.site.kinds.renderers import RENDERERS

    assert set(RENDERERS) == {name for name, kind in directives.KINDS.items() if not kind.lab_only}


def _titles(items) -> list[str]:
    """The titles a reader sees in the sidebar. A notebook's entry shows the notebook's own first heading,
    in each language's notebook (mkdocs-jupyter), so its title in mkdocs.yml is never displayed."""
    found = []
    for item in items:
        for title, target in item.items():
            if isinstance(target, list):
                found += [title, *_titles(target)]
            elif not str(target).endswith(".ipynb"):
                found.append(title)
    return found


def _config(path):
    import yaml

    class Loader(yaml.SafeLoader):  # mkdocs.yml may hold !!python/name tags: read them as nothing
        pass

    Loader.add_multi_constructor("", lambda loader, suffix, node: None)
    return yaml.load(path.read_text(encoding="utf-8"), Loader=Loader)


def nav_titles(path=REPO / "mkdocs.yml") -> list[str]:
    """Every title of the navigation, sections included."""
    return _titles(_config(path)["nav"])


def spanish_nav_titles(path=REPO / "mkdocs.yml") -> dict[str, str]:
    """The Spanish language's nav_translations: English title -> Spanish title."""
    plugins = _config(path)["plugins"]
    i18n = next(p["i18n"] for p in plugins if isinstance(p, dict) and "i18n" in p)
    return next(lang for lang in i18n["languages"] if lang["locale"] == "es").get("nav_translations", {})


def test_every_navigation_title_has_a_spanish_title_and_no_translation_is_left_over():
    titles, translated = set(nav_titles()), set(spanish_nav_titles())
    assert titles - translated == set(), "navigation titles without a Spanish title in nav_translations"
    assert translated - titles == set(), "nav_translations for titles the navigation no longer has"
