"""The code half of a snippet directive: the lines the section teaches, and the whole file one click away.

A snippet that marks sections (see :mod:`phase25.core.sections`) is shown as those lines, numbered as in
its file; the whole file, header and harness included, stays one click away (and in the reproduce kit).
A snippet that marks none is shown whole. Kept apart from the output tabs
(:mod:`snippet_html`): what a reader is shown of the source does not depend on what it printed.
"""

from __future__ import annotations

from ...core.sections import Section, excerpt, line_count
from ...core.snippets import Snippet
from ..lang.strings import text
from ..page.context import Page
from ..page.markup import escape


def anchor(snippet_id: str) -> str:
    """The id a page gives a snippet's block, so that a link (the execution report's) lands on it."""
    return "snippet-" + snippet_id.replace("/", "-")


def unique_anchor(snippet_id: str, page: Page) -> str:
    """The snippet's anchor the first time the page shows it, ``<anchor>-2``, ``-3``... after: an id is given once
    per page, and a link to the snippet lands on its first showing."""
    base = anchor(snippet_id)
    page.ids[base] = page.ids.get(base, 0) + 1
    return base if page.ids[base] == 1 else f"{base}-{page.ids[base]}"


def _ranges(lang: str, shown: list[Section]) -> str:
    spans = [f"{s.first}–{s.last}" if s.last > s.first else str(s.first) for s in shown]
    if len(spans) == 1:
        return spans[0]
    return ", ".join(spans[:-1]) + text(lang, "shown_and") + spans[-1]


def _caption(snippet: Snippet, page: Page, changed: str) -> str:
    name = f"<code>snippets/{escape(snippet.id)}.py</code>"
    if snippet.sections:
        total = line_count(snippet.source)
        what = text(page.lang, "shown_lines", ranges=_ranges(page.lang, snippet.sections), total=total)
    else:
        what = text(page.lang, "header_lines", last=snippet.code_line - 1)
    ident = escape(unique_anchor(snippet.id, page))
    return f'<p class="snippet-source" id="{ident}">{name} · {escape(what)}{changed}</p>'


def _whole(snippet: Snippet, page: Page) -> str:
    """The whole code, numbered from its first line, folded."""
    code = page.highlighter.block(snippet.code, classes="language-python", first_line=snippet.code_line)
    summary = text(page.lang, "whole_file", total=line_count(snippet.source), last=snippet.code_line - 1)
    return f'<details class="quote snippet-whole"><summary>{escape(summary)}</summary>{code}</details>'


def code_html(snippet: Snippet, page: Page, changed: str) -> str:
    """The snippet's source as the page shows it: its sections and the whole file folded, or the whole file."""
    if not snippet.sections:
        code = page.highlighter.block(snippet.code, classes="language-python", first_line=snippet.code_line)
        return f'<div class="snippet-code">{_caption(snippet, page, changed)}{code}</div>'
    source = snippet.source
    shown = "".join(
        page.highlighter.block(excerpt(source, s), classes="language-python snippet-section", first_line=s.first)
        for s in snippet.sections
    )
    return f'<div class="snippet-code">{_caption(snippet, page, changed)}{shown}{_whole(snippet, page)}</div>'
