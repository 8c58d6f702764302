"""The MkDocs adapter in-process: bad input becomes one build error with file and line, never a traceback."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from mkdocs.exceptions import PluginError
from phase25.site.hosts import adapter as site


class Config(SimpleNamespace):
    plugins = SimpleNamespace(get=lambda name: None)


def config_for(toy) -> Config:
    docs = toy.root / "docs"
    for lang in ("en", "es"):
        (docs / lang).mkdir(parents=True, exist_ok=True)
    (toy.root / "mkdocs.yml").write_text("site_name: toy\n")
    return Config(config_file_path=str(toy.root / "mkdocs.yml"), docs_dir=str(docs))


@pytest.mark.parametrize("execute", ["0", "1"], ids=["build", "build-and-execute"])
@pytest.mark.parametrize(
    ("header", "message"),
    [
        (
            'devices = ["tpu"]',
            "snippets/page/bad.py:2: devices must be a non-empty list drawn from ['cpu', 'sm90-codegen', 'cuda']",
        ),
        ("colour = 1", "snippets/page/bad.py:2: unknown key 'colour' in the header"),
        ("timeout = [", "snippets/page/bad.py:2: the header is not valid TOML"),
    ],
)
def test_a_bad_header_stops_the_build_with_one_message(toy, monkeypatch, execute, header, message):
    monkeypatch.setenv("PHASE25_EXECUTE", execute)
    monkeypatch.setattr(site, "_CURRENT", None)
    path = toy.root / "snippets/page/bad.py"
    path.parent.mkdir(parents=True)
    path.write_text(f"# /// snippet\n# {header}\n# ///\nprint(1)\n")
    with pytest.raises(PluginError) as excinfo:
        site.on_pre_build(config_for(toy))
    assert str(excinfo.value).startswith(message)
    assert excinfo.value.__cause__ is None and excinfo.value.__suppress_context__


def test_a_malformed_directive_names_the_page_and_its_line_in_the_source_file(toy, monkeypatch):
    monkeypatch.setenv("PHASE25_EXECUTE", "0")
    monkeypatch.setattr(site, "_CURRENT", None)
    toy.add("page/a", "print(1)\n")
    config = config_for(toy)
    site.on_pre_build(config)
    source = toy.root / "docs/en/page.md"
    source.write_text("---\ntitle: x\n---\n# Page\n\n::: snipet page/a\n")
    page = SimpleNamespace(url="page/", file=SimpleNamespace(src_uri="en/page.md", abs_src_path=str(source)))
    with pytest.raises(PluginError, match=r"^docs/en/page.md:6: unknown directive '::: snipet'"):
        site.on_page_markdown("# Page\n\n::: snipet page/a\n", page, config, None)


def test_sitemaps_are_split_per_language_once_however_often_the_hook_runs(tmp_path):
    """static-i18n writes one sitemap of both languages and runs the post-build hook once per language."""
    from phase25.site.hosts.quirks import i18n

    url = "https://example.org/p/"
    both = "".join(
        f'<url><loc>{url}{loc}</loc><xhtml:link rel="alternate" hreflang="en" href="{url}a/"/>'
        f'<xhtml:link rel="alternate" hreflang="es" href="{url}es/a/"/></url>'
        for loc in ("a/", "es/a/")
    )
    (tmp_path / "sitemap.xml").write_text(f"<urlset>{both}</urlset>")
    notebook = {"en": "labs/x/", "es": "es/labs/x/"}
    for _ in range(2):
        i18n.sitemap_per_language(tmp_path, url, [notebook])
    english, spanish = (tmp_path / "sitemap.xml").read_text(), (tmp_path / "es/sitemap.xml").read_text()
    assert english.count("<loc>") == spanish.count("<loc>") == 2
    assert f"<loc>{url}a/</loc>" in english and f"<loc>{url}labs/x/</loc>" in english
    assert f"<loc>{url}es/a/</loc>" in spanish and f"<loc>{url}es/labs/x/</loc>" in spanish
    assert spanish.count('hreflang="x-default"') == 2 and f'hreflang="x-default" href="{url}labs/x/"' in spanish


def test_a_lab_that_cannot_be_written_stops_the_build_with_one_line(toy, monkeypatch):
    """What an executing build met after every record went stale: a LabError traceback, now one line."""
    from phase25.site.downloads import labs

    def refuse(catalog, docs):
        raise labs.LabError("docs/en/labs/03-inductor-code.lab.md: lab-03/inductor_h200 (sm90-codegen) has no record")

    monkeypatch.setenv("PHASE25_EXECUTE", "1")
    monkeypatch.setattr(site, "_CURRENT", None)
    monkeypatch.setattr(labs, "write_all", refuse)
    with pytest.raises(PluginError) as excinfo:
        site.on_pre_build(config_for(toy))
    assert str(excinfo.value).startswith("docs/en/labs/03-inductor-code.lab.md: lab-03/inductor_h200 (sm90-codegen)")
    assert excinfo.value.__cause__ is None and excinfo.value.__suppress_context__
