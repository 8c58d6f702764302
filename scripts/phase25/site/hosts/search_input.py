"""What Material's search plugin parses: each page's prose, not its code blocks, and a notebook's cells
without the prompts and buttons around them.

Search is for concepts. A snippet's source is mostly harness and its output is data: indexed, they made up
nine tenths of the index (6.3 MB per language, the drift report's diffs 4.8 MB of it) and outranked the
prose that teaches (``grad_fn`` found the drift report first). So a Markdown page reaches the parser
without its ``<pre>`` blocks, and the atlas without its list of 3,706 overloads (search_index.py adds one
entry per operator instead). A notebook keeps its cells, code included, but not the prompt (``In [5]:``)
nor the copy button's "Copied!", which had become words of every cell; its cell wrappers are taken away so
that each cell lands in the section of the heading above it, not in the page's first entry.

The plugin reads every page's HTML with Python's ``HTMLParser``: one callback per tag, and a set
intersection over the open elements in each. A notebook's code is highlighted token by token, thousands
of ``<span>`` elements, so it is handed over without them: inside ``<pre>`` the index keeps the text alone,
every piece of it, whitespace included, so the index is the same, entry for entry
(tests/test_search_input.py). The published page keeps everything.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig

# Scripts, styles and comments are matched too so that a "<pre" inside one of them never opens a block.
# A tag's attributes may hold a ">" inside quotes.
_ATTRS = r"""(?:[^>"']|"[^"]*"|'[^']*')*"""
_BLOCK = re.compile(rf"<!--.*?-->|<(script|style|pre)\b{_ATTRS}>.*?</\1\s*>", re.DOTALL | re.IGNORECASE)
_SPAN = re.compile(rf"</?span\b{_ATTRS}>", re.IGNORECASE)


def without_code_spans(html: str) -> str:
    """``html`` with the ``<span>`` tags inside each ``<pre>`` removed, their text kept. A block holding an
    attribute the search plugin reads (``data-search-exclude`` and its kind) is left whole."""

    def strip(block: re.Match[str]) -> str:
        text = block.group()
        if (block.group(1) or "").lower() != "pre" or "data-search" in text:
            return text
        return _SPAN.sub("", text)

    return _BLOCK.sub(strip, html)


_NOTEBOOK = re.compile(r'<div class="jp-Notebook"')
_UNREAD = re.compile(rf"<!--.*?-->|<(script|style)\b{_ATTRS}>.*?</\1\s*>", re.DOTALL | re.IGNORECASE)
_ATLAS_LIST = re.compile(r'<ul class="atlas-list">.*?</ul>', re.DOTALL)
# A notebook's chrome: the prompts' text (its div kept), the copy button (its "Copied!" notice) and the copy of
# the cell's source it copies from, the headings' "¶" links, and the cell wrappers (div tags, content kept).
_PROMPT = re.compile(r'(<div class="jp-(?:In|Out)putPrompt[^"]*"[^>]*>)[^<]*')
_NOTEBOOK_CHROME = (
    re.compile(r"<clipboard-copy\b.*?</clipboard-copy>", re.DOTALL),
    re.compile(r'<div class="clipboard-copy-txt"[^>]*>.*?</div>', re.DOTALL),
    re.compile(r'<a class="anchor-link"[^>]*>.*?</a>', re.DOTALL),
    re.compile(rf"</?div\b{_ATTRS}>", re.IGNORECASE),
)


def without_code_blocks(html: str) -> str:
    """A Markdown page as search reads it: its prose, without the ``<pre>`` blocks (sources, outputs, diffs)
    and without the atlas's list of overloads. Scripts, styles and comments are left whole."""

    def drop(block: re.Match[str]) -> str:
        return "" if (block.group(1) or "").lower() == "pre" else block.group()

    return _BLOCK.sub(drop, _ATLAS_LIST.sub("", html))


def notebook_cells(html: str) -> str:
    """A notebook page as search reads it: every cell's text, code and output included, without its prompt,
    its copy button, its headings' "¶" and the wrappers that kept each cell out of its heading's section.
    Its scripts, styles and comments go first (the parser reads none of them), so that nothing inside them
    is taken for a tag."""
    html = _PROMPT.sub(r"\1", _UNREAD.sub("", html))
    for chrome in _NOTEBOOK_CHROME:
        html = chrome.sub("", html)
    return without_code_spans(html)


def for_search(html: str) -> str:
    """What the search plugin is handed for a page: a notebook's cells, or a Markdown page's prose."""
    return notebook_cells(html) if _NOTEBOOK.search(html) else without_code_blocks(html)


def lighter_search_input(config: MkDocsConfig) -> None:
    """Hand Material's search index each page as :func:`for_search` gives it (see the module's docstring).

    Called on every build's ``pre_build``: the plugin makes a new index in ``on_config``, which
    mkdocs-static-i18n runs again for each language. Without the plugin, or without the method, nothing
    changes (another engine, another theme)."""
    index: Any = getattr(config.plugins.get("material/search"), "search_index", None)
    add = getattr(index, "add_entry_from_context", None)
    if add is None or getattr(add, "for_search", False):
        return

    def add_entry_from_context(page: Any) -> None:
        full = page.content
        page.content = for_search(full)
        try:
            add(page)
        finally:
            page.content = full

    add_entry_from_context.for_search = True  # type: ignore[attr-defined]
    index.add_entry_from_context = add_entry_from_context
