"""The code half of a snippet directive: the lines the section teaches, and the whole file one click away.

Kept apart from the output tabs (:mod:`snippet_html`): what a reader is shown of the source is its own
question (which lines, which numbers, what folds), and the outputs do not depend on it.
"""

from __future__ import annotations

from ...core.snippets import Snippet
from ..lang.strings import text
from ..page.context import Page
from ..page.markup import escape


def anchor(snippet_id: str) -> str:
    """The id a page gives a snippet's block, so that a link (the execution report's) lands on it."""
    return "snippet-" + snippet_id.replace("/", "-")


def code_html(snippet: Snippet, page: Page, changed: str) -> str:
    """The snippet's source as the page shows it, under a caption naming the file."""
    caption = (
        f'<p class="snippet-source" id="{escape(anchor(snippet.id))}"><code>snippets/{escape(snippet.id)}.py</code> · '
        f"{escape(text(page.lang, 'header_lines', last=snippet.code_line - 1))}{changed}</p>"
    )
    code = page.highlighter.block(snippet.code, classes="language-python", first_line=snippet.code_line)
    return f'<div class="snippet-code">{caption}{code}</div>'
