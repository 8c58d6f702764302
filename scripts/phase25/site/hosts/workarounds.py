"""Fixes for the plugins' quirks, each with the upstream behaviour it works around.

Kept apart from the adapter so that each can be dropped the day its plugin
changes; every function says which plugin behaviour makes it necessary.
"""

from __future__ import annotations

import gzip
import hashlib
import html
import json
import logging
import re
import tempfile
from pathlib import Path, PurePosixPath
from types import SimpleNamespace
from typing import TYPE_CHECKING
from urllib.parse import urlparse

from ..lang import strings

log = logging.getLogger("mkdocs.plugins.phase25")

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files


def keep_notebook_cache(config: MkDocsConfig) -> None:
    """mkdocs-jupyter evicts every cached notebook a build did not use, and static-i18n builds one
    language per pass: each pass evicted the other language's notebooks, so the cache never hit.
    Declaring every notebook of every language as used keeps it warm."""
    plugin = config.plugins.get("mkdocs-jupyter")
    if plugin is None or not plugin.config.get("cache"):
        return
    writable_notebook_cache(plugin.config)
    if not plugin.config.get("cache"):
        return
    from mkdocs_jupyter.plugin import _compute_cache_key, _get_cache_path

    for notebook in Path(config.docs_dir).rglob("*.ipynb"):
        key = _compute_cache_key(str(notebook), plugin.config, plugin.config["execute"])
        plugin._used_cache_paths.add(_get_cache_path(plugin.config["cache_dir"], key))


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder):
            return True
    except OSError:
        return False


def writable_notebook_cache(plugin_config: dict) -> None:
    """mkdocs-jupyter writes its cache into the checkout (``.cache/``) and dies on a read-only one: reading a
    checkout must need no write into it. Where that folder cannot be written, the cache moves to the machine's
    temporary folder (one line says so), or is turned off when that cannot be written either."""
    folder = Path(plugin_config["cache_dir"])
    if _writable(folder):
        return
    elsewhere = (
        Path(tempfile.gettempdir())
        / "phase25-notebook-cache"
        / hashlib.sha256(str(folder.resolve()).encode()).hexdigest()[:12]
    )
    if _writable(elsewhere):
        plugin_config["cache_dir"] = str(elsewhere)
        log.info("phase25: %s cannot be written; the notebooks' cache is kept in %s", folder, elsewhere)
    else:
        plugin_config["cache"] = False
        log.info("phase25: %s cannot be written, nor a temporary folder; notebooks are converted uncached", folder)


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
            lang: SimpleNamespace(url=f"{'' if lang == strings.DEFAULT else lang + '/'}{stem_rel}/")
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
    prefixes = {lang: f"{lang}/" for lang in strings.LANGUAGES if lang != strings.DEFAULT}
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


_ALTERNATE = re.compile(r'<link rel="alternate" href="(?P<href>[^"]*)" hreflang="(?P<lang>[\w-]+)">')


def alternates_in_sitemaps_only(output: str) -> str:
    """Each page's language alternates are announced in the sitemaps (absolute, with ``x-default``),
    not in the page's head. Material reads every ``<link rel="alternate">`` of a head as the root of
    another site and requests ``<that page>/sitemap.xml``, a 404 on every page but the home pages;
    search engines accept ``hreflang`` from a sitemap as they do from a head."""
    return _ALTERNATE.sub("", output)


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
        folder = site if lang == strings.DEFAULT else site / lang
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
        return (f"{lang}/" if lang != strings.DEFAULT else "") + path or "./"

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
    homes = {lang: base if lang == strings.DEFAULT else f"{base}{lang}/" for lang in strings.LANGUAGES}
    output = alternates_in_sitemaps_only(output)
    return re.sub(
        r'<a href="[^"]*" hreflang="([\w-]+)" class="md-select__link">',
        lambda m: f'<a href="{homes.get(m.group(1), base)}" hreflang="{m.group(1)}" class="md-select__link">',
        output,
    )


def accessible(output: str, lang: str) -> str:
    """Two gaps axe-core finds in the themes' HTML: Material's search dialog has no accessible name,
    and mkdocs-jupyter's scrollable code cells cannot be reached with the keyboard."""
    label = strings.text(lang if lang in strings.LANGUAGES else strings.DEFAULT, "search_label")
    output = output.replace(
        '<div class="md-search" data-md-component="search" role="dialog">',
        f'<div class="md-search" data-md-component="search" role="dialog" aria-label="{label}">',
        1,
    )
    return output.replace(
        '<div class="highlight-ipynb hl-python">',
        f'<div class="highlight-ipynb hl-python" tabindex="0" role="region" aria-label="{strings.text(lang, "code")}">',
    )


# English the themes write whatever the page's language: MkDocs' heading permalinks (one toc setting for every
# language), mkdocs-jupyter's copy buttons, and Material's Spanish where it differs from the site's: its search
# prompt says usted where the site says tú, its skip link and footer landmark («Saltar a contenido», «Pie») lack
# their article and noun. (theme string, the site's own string key)
_THEME_ENGLISH = (
    ('title="Permanent link"', 'title="{permalink}"'),
    ('aria-label="Copy to Clipboard"', 'aria-label="{copy}"'),
    ('<span class="notice" hidden="">Copied!</span>', '<span class="notice" hidden="">{copied}</span>'),
    ("Teclee para comenzar b\\u00fasqueda", "{search_prompt}"),
    ("Saltar a contenido", "{skip}"),
    ('aria-label="Pie"', 'aria-label="{footer}"'),
)
_THEME_KEYS = ("permalink", "copy", "copied", "search_prompt", "skip", "footer")


def localized(output: str, lang: str) -> str:
    """The themes' own words in the page's language (the strings come from strings.py, like every other)."""
    if lang == strings.DEFAULT:
        return output
    words = {key: strings.text(lang, f"theme_{key}") for key in _THEME_KEYS}
    for english, ours in _THEME_ENGLISH:
        output = output.replace(english, ours.format(**words))
    return output


_PROMPT = re.compile(r'(<div class="jp-InputPrompt jp-InputArea-prompt">)In(?:&nbsp;|\s|\u00a0)\[(\d*)\]:')


def notebook_prompts(output: str) -> str:
    """A code cell's prompt as JupyterLab 4 writes it, ``[1]:``, in every language: nbconvert's template still
    writes ``In [1]:``, English on a Spanish page."""
    return _PROMPT.sub(r"\1[\2]:", output)
