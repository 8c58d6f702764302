"""Quirks of mkdocs-static-i18n 1.3.1 (the pin in requirements.txt), each with the behaviour it works around.

static-i18n builds one language per pass and merges what it writes: notebooks become static files (its issue
#198), one search index and one sitemap hold every language, and the one 404 page keeps the last page's
language links. Each function can go when its plugin stops doing what it says: tests/test_site.py and
tests/test_build.py then pass without it (a notebook published as a page, an index and a sitemap per language,
a 404 page in every language).
"""

from __future__ import annotations

import gzip
import html
import json
import re
from pathlib import Path, PurePosixPath
from types import SimpleNamespace
from typing import TYPE_CHECKING
from urllib.parse import urlparse

from ...lang import languages, strings
from .material import alternates_in_sitemaps_only

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files


def notebooks_as_pages(files: Files, config: MkDocsConfig) -> Files:
    """mkdocs-static-i18n recreates every File as a plain one, so notebooks become static files and
    are published as raw JSON (mkdocs-static-i18n issue #198). Each becomes a page File again, keeping
    the language's output path, and gets its language-switcher alternates (static-i18n links Markdown
    pages only)."""
    plugin = config.plugins.get("mkdocs-jupyter")
    if plugin is None:
        return files
    from mkdocs.structure.files import File

    class NotebookPage(File):
        alternates: dict[str, SimpleNamespace]

        def is_documentation_page(self) -> bool:
            return True

    for notebook in [f for f in files if f.src_uri.endswith(".ipynb") and plugin.should_include(f)]:
        stem = PurePosixPath(notebook.dest_uri).with_suffix("")
        dest = f"{stem}/index.html" if config.use_directory_urls else f"{stem}.html"
        page = NotebookPage(
            notebook.src_uri, notebook.src_dir, config.site_dir, config.use_directory_urls, dest_uri=dest
        )
        page.__dict__.update({k: v for k, v in vars(notebook).items() if k not in vars(page)})
        rel = notebook.src_uri.split("/", 1)[1]
        stem_rel = PurePosixPath(rel).with_suffix("")
        page.alternates = {
            lang: SimpleNamespace(url=f"{languages.prefix(lang)}{stem_rel}/")
            for lang in strings.LANGUAGES
            if (Path(config.docs_dir) / lang / rel).exists()
        }
        files.remove(notebook)  # in place: the Files object is static-i18n's own subclass
        files.append(page)
    return files


_BASE = re.compile(r'("base": ")((?:\.\./)*\.\.)(")')


def search_base(output: str, lang: str) -> str:
    """mkdocs-static-i18n puts every language into one search index; each language gets its own
    (see :func:`split_search_index`), and a page of an alternate language looks for it under /<lang>/."""
    if lang == strings.DEFAULT:
        return output
    return _BASE.sub(lambda m: m.group(1) + (m.group(2)[3:] or ".") + m.group(3), output, count=1)


def split_search_index(site: Path) -> None:
    """Split static-i18n's merged search index into one index per language."""
    merged = site / "search" / "search_index.json"
    if not merged.exists():
        return
    index = json.loads(merged.read_text(encoding="utf-8"))
    prefixes = {lang: languages.prefix(lang) for lang in strings.LANGUAGES if lang != strings.DEFAULT}
    default = [d for d in index["docs"] if not d["location"].startswith(tuple(prefixes.values()))]
    for lang, prefix in prefixes.items():
        docs = [
            {**d, "location": d["location"][len(prefix) :]} for d in index["docs"] if d["location"].startswith(prefix)
        ]
        if docs:
            target = site / lang / "search" / "search_index.json"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(json.dumps({**index, "docs": docs}, ensure_ascii=False), encoding="utf-8")
    merged.write_text(json.dumps({**index, "docs": default}, ensure_ascii=False), encoding="utf-8")


_URL = re.compile(r"<url>.*?</url>", re.DOTALL)
_LINK = re.compile(r'<xhtml:link rel="alternate" hreflang="([\w-]+)" href="([^"]+)"/>')
_URLSET = (
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
    'xmlns:xhtml="http://www.w3.org/1999/xhtml">\n'
)


def _pages(sitemap: str) -> list[dict[str, str]]:
    """Each ``<url>`` of a sitemap as its language -> absolute URL alternates (``x-default`` left out)."""
    return [
        {lang: href for lang, href in _LINK.findall(block) if lang != "x-default"} for block in _URL.findall(sitemap)
    ]


def _entry(lang: str, links: dict[str, str]) -> str:
    """A sitemap entry for the ``lang`` version of a page, naming every version and the default one."""
    alternates = {**links, "x-default": links[strings.DEFAULT]} if strings.DEFAULT in links else links
    rows = "".join(
        f'\n        <xhtml:link rel="alternate" hreflang="{code}" href="{href}"/>'
        for code, href in sorted(alternates.items())
    )
    return f"    <url>\n        <loc>{links[lang]}</loc>{rows}\n    </url>\n"


def sitemap_per_language(site: Path, site_url: str | None, extra: list[dict[str, str]]) -> None:
    """static-i18n writes one sitemap of every language's Markdown pages; the notebook pages it
    does not know are added (``extra``: language -> path). Each language gets a sitemap of its own
    pages, where Material's language selector looks for it: the default language's at the root,
    the others' at ``<lang>/sitemap.xml``. Rewriting is idempotent: static-i18n calls the hook once
    per language."""
    root = site / "sitemap.xml"
    if not root.exists():
        return
    base = site_url or "/"
    found = _pages(root.read_text(encoding="utf-8"))
    found += [{lang: f"{base}{path}" for lang, path in paths.items()} for paths in extra]
    pages = {links.get(strings.DEFAULT, next(iter(links.values()))): links for links in found if links}
    for lang in strings.LANGUAGES:
        text = _URLSET + "".join(_entry(lang, links) for links in pages.values() if lang in links) + "</urlset>\n"
        folder = site / languages.prefix(lang)
        folder.mkdir(exist_ok=True)
        (folder / "sitemap.xml").write_text(text, encoding="utf-8")
        (folder / "sitemap.xml.gz").write_bytes(gzip.compress(text.encode(), mtime=0))


NOT_FOUND = "<!-- phase25: not-found -->"


def not_found_content(output: str) -> str:
    """The 404 page's words in every language the site declares, from its strings: one heading, then per
    language a paragraph and the same three ways on, each link relative to the site's root (the template's
    ``<base>``), the default language's first."""

    def said(lang: str, key: str) -> str:
        return html.escape(strings.text(lang, key), quote=False)

    def marked(lang: str, tag: str = "span", link: str = "") -> str:
        href = f' href="{link}"' if link else ""
        own = "" if lang == strings.DEFAULT else f' lang="{lang}"' + (f' hreflang="{lang}"' if link else "")
        return f"<{tag}{href}{own}>"

    def home(lang: str, path: str) -> str:
        return languages.prefix(lang) + path or "./"

    title = " · ".join(said(lang, "not_found_title") for lang in strings.LANGUAGES)
    parts = [f'<h1 id="not-found">{title}</h1>']
    parts += [f"{marked(lang, 'p')}{said(lang, 'not_found_text')}</p>" for lang in strings.LANGUAGES]
    ways = (
        ("not_found_home", ""),
        ("not_found_report", "reference/execution-report/"),
        ("not_found_search", None),
    )
    items = []
    for key, path in ways:
        links = [
            f"{marked(lang, 'a', home(lang, path))}{said(lang, key)}</a>"
            if path is not None
            else f"{marked(lang)}{said(lang, key)}</span>"
            for lang in strings.LANGUAGES
        ]
        items.append("<li>" + " · ".join(links) + "</li>")
    parts.append("<ul>" + "".join(items) + "</ul>")
    return output.replace(NOT_FOUND, "\n".join(parts), 1)


def not_found_page(output: str, site_url: str | None) -> str:
    """static-i18n leaves the last rendered page's language alternates on the 404 page; there, the
    languages' home pages are the useful alternates. The 404 page is served at any address, so its
    links are absolute paths, like the ones MkDocs gives its stylesheets there."""
    base = urlparse(site_url).path if site_url else "/"
    homes = {lang: f"{base}{languages.prefix(lang)}" for lang in strings.LANGUAGES}
    output = alternates_in_sitemaps_only(output)
    return re.sub(
        r'<a href="[^"]*" hreflang="([\w-]+)" class="md-select__link">',
        lambda m: f'<a href="{homes.get(m.group(1), base)}" hreflang="{m.group(1)}" class="md-select__link">',
        output,
    )
