"""What Material's search plugin parses: each page without the highlighting markup of its code blocks.

The plugin reads every page's HTML with Python's ``HTMLParser``: one callback per tag, and a set
intersection over the open elements in each. The site's code and outputs are highlighted token by
token, tens of thousands of ``<span>`` elements: parsing them was a fifth of a build (10.4 s -> 8.1 s
without them; cProfile, which inflates small calls, put it at half). Inside ``<pre>`` the index keeps the
text alone, every piece of it, whitespace included, so the parser is handed the page with those spans
taken out: the index is the same, entry for entry (tests/test_search_input.py), and the published page
keeps its spans.
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


def lighter_search_input(config: MkDocsConfig) -> None:
    """Hand Material's search index each page without its code spans (see the module's docstring).

    Called on every build's ``pre_build``: the plugin makes a new index in ``on_config``, which
    mkdocs-static-i18n runs again for each language. Without the plugin, or without the method, nothing
    changes (another engine, another theme)."""
    index: Any = getattr(config.plugins.get("material/search"), "search_index", None)
    add = getattr(index, "add_entry_from_context", None)
    if add is None or getattr(add, "without_code_spans", False):
        return

    def add_entry_from_context(page: Any) -> None:
        full = page.content
        page.content = without_code_spans(full)
        try:
            add(page)
        finally:
            page.content = full

    add_entry_from_context.without_code_spans = True  # type: ignore[attr-defined]
    index.add_entry_from_context = add_entry_from_context
