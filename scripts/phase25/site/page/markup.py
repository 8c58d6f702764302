"""The small HTML kit every renderer uses: escaping, admonitions, inline code, the slots of note bodies.

Everything a record holds is data: it is escaped here, after Markdown has run, so
an output holding ``` fences, ``<script>`` or ``{{ }}`` stays plain text.
"""

from __future__ import annotations

import html
import re

from ...core.normalize import plain_text


def escape(value: str) -> str:
    """HTML-escape, and neutralise what later stages might read as syntax or a terminal as a command.

    Records are refused when they hold control bytes (see core/record_shape.py); escaping makes them text
    again anyway, so no raw ESC byte reaches a page or a search index whatever a record holds.
    """
    value = plain_text(value)
    return html.escape(value, quote=True).replace("{", "&#123;").replace("}", "&#125;").replace("`", "&#96;")


def linked(sentence: str, **links: str) -> str:
    """``sentence``'s words escaped and each ``{name}`` of ``links`` replaced by its HTML: the parts are escaped, then
    joined with the markup (escaping a placeholder put in first would turn it into a visible symbol)."""
    if not links:
        return escape(sentence)
    pieces = re.split("\\{(" + "|".join(map(re.escape, links)) + ")\\}", sentence)
    return "".join(links[piece] if i % 2 else escape(piece) for i, piece in enumerate(pieces))


def body_slot(number: int) -> str:
    """Where the Markdown-rendered body of note or pending directive ``number`` goes."""
    return f"<!--phase25-body-slot {number}-->"


def admonition(kind: str, title: str, body_html: str) -> str:
    return f'<div class="admonition {kind}"><p class="admonition-title">{escape(title)}</p><p>{body_html}</p></div>'


def inline_code(value: str) -> str:
    """Escape, then turn the `code` spans of our own UI strings into <code>."""
    parts = escape(value).split("&#96;")
    return "".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(parts))
