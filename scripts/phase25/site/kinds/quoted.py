"""What a page's prose quotes of each snippet's output: the lines a long output keeps in view when it is cut.

The rule (maintaining/site.md, "Long outputs"): a snippet's quotes are the code spans of the notes and map steps
tied to it, on any device, and of the prose that follows it, from its directive to the next snippet or heading (the
prose that discusses what it printed; fenced code and HTML comments aside). A quote shorter than :data:`MIN_QUOTE`
characters (`x`, `W`, `0`) names too little to pick a line by, so it keeps none; :mod:`long_output` keeps
every output line that holds one of the others, unless it is found on so many lines that it is a name.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..page.directives import Directive
from ..page.page_source import HEADING, markdown_lines

CODE_SPAN = re.compile(r"`([^`\n]+)`")
MIN_QUOTE = 3  # characters: a shorter quote matches lines by chance


def spans(text: str) -> list[str]:
    """The code spans of some Markdown, long enough to pick a line by."""
    return [q for q in CODE_SPAN.findall(text) if len(q.strip()) >= MIN_QUOTE]


def _text(markdown: str, where: str) -> dict[int, str]:
    """Every line Markdown renders as text, by number."""
    return dict(markdown_lines(markdown.split("\n"), where))


def quoted(markdown: str, found: Iterable[Directive], where: str = "page") -> dict[str, tuple[str, ...]]:
    """Snippet id -> the quotes that keep its output's lines in view (see the module's rule)."""
    found = list(found)
    text = _text(markdown, where)
    # Where the prose after a snippet ends: a heading or the next snippet.
    edges = sorted(
        {n for n, line in text.items() if HEADING.match(line)} | {d.line for d in found if d.kind == "snippet"}
    )
    last = max(text, default=0)
    quotes: dict[str, list[str]] = {}
    for directive in found:
        if directive.kind in ("note", "map"):
            quotes.setdefault(directive.target[0], []).extend(spans(directive.body))
        elif directive.kind == "snippet" and directive.arg:
            end = min((n for n in edges if n > directive.line), default=last + 1)
            prose = "\n".join(text[n] for n in range(directive.line + 1, end) if n in text)
            quotes.setdefault(directive.arg, []).extend(spans(prose))
    return {snippet: tuple(dict.fromkeys(found_)) for snippet, found_ in quotes.items()}
