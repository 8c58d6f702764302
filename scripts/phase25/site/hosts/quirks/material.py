"""Quirks of the themes' HTML: mkdocs-material 9.8.2 (the pin in requirements.txt), with the mkdocs-jupyter
cells and MkDocs permalinks it holds, each with the behaviour it works around.

Each function can go when the theme stops doing what it says: Material no longer reads a head's
``<link rel="alternate">`` as another site's root (no request of ``<page>/sitemap.xml`` in the browser tests
without ``alternates_in_sitemaps_only``); axe finds nothing on the search dialog and the notebook cells without
``accessible``; the themes write the page's language (tests/test_localized_chrome.py passes without
``localized``).
"""

from __future__ import annotations

import re

from ...lang import strings

_ALTERNATE = re.compile(r'<link rel="alternate" href="(?P<href>[^"]*)" hreflang="(?P<lang>[\w-]+)">')


def alternates_in_sitemaps_only(output: str) -> str:
    """Each page's language alternates are announced in the sitemaps (absolute, with ``x-default``),
    not in the page's head. Material reads every ``<link rel="alternate">`` of a head as the root of
    another site and requests ``<that page>/sitemap.xml``, a 404 on every page but the home pages;
    search engines accept ``hreflang`` from a sitemap as they do from a head."""
    return _ALTERNATE.sub("", output)


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
