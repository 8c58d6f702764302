"""Syntax highlighting of code and artifacts, kept on disk between builds.

Both languages render the same code blocks, and a warm rebuild renders them
again: each block is highlighted once, keyed by its content, and the HTML is
kept in memory and in a cache folder, so Pygments runs only for new code.
"""

from __future__ import annotations

import contextlib
import hashlib
import html
import os
import re
import threading
from pathlib import Path

import pygments
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer, TextLexer, get_lexer_for_filename
from pygments.util import ClassNotFound


class Highlighter:
    """Highlights blocks; ``cache`` is a folder to keep them in, or None for memory only."""

    def __init__(self, cache: Path | None = None) -> None:
        self.cache = cache
        self.memory: dict[str, str] = {}

    def block(self, source: str, filename: str | None = None, classes: str = "", first_line: int | None = None) -> str:
        """Highlighted HTML; ``first_line`` numbers the lines from there (a snippet's lines as in its file)."""
        material = f"{pygments.__version__}\0{filename}\0{classes}\0{first_line}\0{source}"
        key = hashlib.sha256(material.encode()).hexdigest()
        if key in self.memory:
            return self.memory[key]
        stored = self.cache / f"{key}.html" if self.cache else None
        block = _cached(stored, source)
        if block is None:
            block = _highlight(source, filename, classes, first_line)
            _keep(stored, block)
        self.memory[key] = block
        return block


# The only markup Pygments writes here: a cached block holding anything else (a script, an attribute that
# runs code) was not written by this code, and is highlighted again instead of reaching a page.
_TAG = re.compile(r"<[^>]*>")
_NUMBERS = re.compile(r"[\d\s]*")  # all a block shows besides its code: the line numbers' column
_OUR_TAG = re.compile(r'</?(?:div|pre|span|code|table|tbody|tr|td|th)(?: class="[\w -]*")?>')


def _cached(stored: Path | None, source: str) -> str | None:
    """A kept block, verified on read: our tags only, and the text a reader sees is ``source`` (with line
    numbers at most). The cache is in the checkout, where a run could write: a key anyone can compute is
    not a proof, so what a block shows is checked against the code it stands for."""
    try:
        block = stored.read_text(encoding="utf-8") if stored is not None and stored.is_file() else None
    except (OSError, UnicodeDecodeError):
        return None
    if block is None or not all(_OUR_TAG.fullmatch(tag) for tag in _TAG.findall(block)):
        return None
    shown = html.unescape(_TAG.sub("", block))
    code = source.strip("\n")
    before, found, after = shown.partition(code)
    if not found or not _NUMBERS.fullmatch(before) or after.strip():
        return None
    return block


def _keep(stored: Path | None, block: str) -> None:
    """Keep a block for the next build, atomically (two builds may share the cache). The cache is a speed-up:
    a checkout that cannot be written (read-only, a full disk) builds all the same, highlighting again."""
    if stored is None:
        return
    partial = stored.with_name(f".{stored.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        stored.parent.mkdir(parents=True, exist_ok=True)
        partial.write_text(block, encoding="utf-8")
        os.replace(partial, stored)
    except OSError:
        with contextlib.suppress(OSError):
            partial.unlink()


def _highlight(source: str, filename: str | None, classes: str, first_line: int | None = None) -> str:
    if filename:
        try:
            lexer = get_lexer_for_filename(filename)
        except ClassNotFound:
            lexer = TextLexer()
    else:
        lexer = PythonLexer()
    if first_line is not None:  # the table layout Material styles: numbers in a column copy does not take
        table = highlight(source, lexer, HtmlFormatter(linenos="table", linenostart=first_line, wrapcode=True))
        table = table.replace("{", "&#123;").replace("}", "&#125;").replace("`", "&#96;")
        return table.replace('<div class="highlight">', f'<div class="highlight {classes}">', 1)
    body = highlight(source, lexer, HtmlFormatter(nowrap=True))
    body = body.replace("{", "&#123;").replace("}", "&#125;").replace("`", "&#96;")
    return f'<div class="highlight {classes}"><pre><span></span><code>{body}</code></pre></div>'
