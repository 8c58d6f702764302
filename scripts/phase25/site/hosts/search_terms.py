"""The words readers search for that the pages do not use, and the sections they lead to.

A reader types "backpropagation" or «retropropagación»; the pages say "backward", as the glossary asks. The
table ``site/lang/search_synonyms.toml`` is the one place that pairs them: each entry names the word the
pages' headings use (``heading``) and, per language, the reader's words. The build adds those words to the
search text of every section of that language whose heading holds the word, so the section that teaches
the concept is found by either name. Nothing is written per page: the sections are found in the built index,
and an entry whose word no heading of a language holds fails the build, naming the table's file and line.
"""

from __future__ import annotations

import html
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...core.errors import SourceError, toml_problem
from ..lang import strings

SYNONYMS = Path(__file__).parents[1] / "lang" / "search_synonyms.toml"
_TAG = re.compile(r"<[^>]*>")
_ENTRY = re.compile(r"^\s*\[\[\s*synonym\s*\]\]")
_HEADING = re.compile(r"^\s*heading\s*=")


@dataclass(frozen=True)
class Synonym:
    """One entry of the table: the heading word, the reader's words per language, and where it is written."""

    heading: str
    words: dict[str, tuple[str, ...]]
    line: int


def shown(path: Path) -> str:
    """The path an error names: relative to the folder the build runs in, where it can be."""
    try:
        return path.resolve().relative_to(Path.cwd()).as_posix()
    except ValueError:
        return str(path)


def tokens(text: str, separator: str) -> list[str]:
    """The terms Material's search worker makes of an index field: its text between tags, cut at the index's
    separator, lowercased (the worker's ``tokenize``; lunr's pipeline then only trims them: mkdocs.yml)."""
    return [t.lower() for part in _TAG.split(text) for t in re.split(separator, part) if t]


def _lines(text: str) -> list[int]:
    """Per entry, in order, the line of its ``heading`` key (or of its ``[[synonym]]`` line without one)."""
    found: list[int] = []
    for number, line in enumerate(text.splitlines(), 1):
        if _ENTRY.match(line):
            found.append(number)
        elif _HEADING.match(line) and found:
            found[-1] = number
    return found


def _words(value: Any, where: str, key: str, line: int) -> tuple[str, ...]:
    if not isinstance(value, list) or not value or not all(isinstance(w, str) and w.strip() for w in value):
        raise SourceError(where, f"'{key}' must list the reader's words, each a non-empty string", line)
    return tuple(w.strip() for w in value)


def _entry(raw: Any, where: str, line: int) -> Synonym:
    """One ``[[synonym]]`` table, checked: a heading word, and words for the site's languages only."""
    if not isinstance(raw, dict):
        raise SourceError(where, "an entry must be a [[synonym]] table", line)
    heading = raw.get("heading")
    if not isinstance(heading, str) or not heading.strip():
        raise SourceError(where, "an entry needs heading = the word the pages' headings use", line)
    unknown = sorted(set(raw) - {"heading", *strings.LANGUAGES})
    if unknown:
        known = ", ".join(strings.LANGUAGES)
        raise SourceError(where, f"{unknown[0]!r} is neither 'heading' nor a language of the site ({known})", line)
    words = {lang: _words(raw[lang], where, lang, line) for lang in strings.LANGUAGES if lang in raw}
    if not words:
        raise SourceError(where, f"the entry for {heading!r} gives no reader's word in any language", line)
    return Synonym(heading.strip(), words, line)


def load(path: Path = SYNONYMS) -> list[Synonym]:
    """The table's entries, each checked; a mistake is a :class:`SourceError` naming the file and line."""
    where = shown(path)
    try:
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except OSError as exc:
        raise SourceError(where, f"cannot be read: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        message, at = toml_problem(exc)
        line = at if at is not None else text.count("\n") + (not text.endswith("\n"))  # "end of document"
        raise SourceError(where, f"not TOML: {message}", line) from None
    if set(data) - {"synonym"} or not isinstance(data.get("synonym", []), list):
        raise SourceError(where, "holds only [[synonym]] entries")
    lines = _lines(text)
    return [_entry(raw, where, lines[i] if i < len(lines) else 0) for i, raw in enumerate(data.get("synonym", []))]


def _says(title: str, phrase: list[str], separator: str) -> bool:
    """Whether a heading holds the phrase, word for word (the whole word, not a longer one it begins)."""
    words = tokens(title, separator)
    return any(words[i : i + len(phrase)] == phrase for i in range(len(words) - len(phrase) + 1))


def add_words(docs: list[dict[str, Any]], table: list[Synonym], lang: str, separator: str, where: str) -> None:
    """Add to the text of each section of ``docs`` (one language's index) whose heading holds an entry's word
    that entry's words for ``lang``; an entry whose word no heading of ``lang`` holds is refused.

    The text, not the tags: Material makes every query word a prefix (``de`` of «clave de despacho» is ``de*``)
    and weighs a tag a thousand titles, so a tag «despacho» outranked «Rupturas de grafo» for «ruptura de
    grafo». In the text the words weigh what any word of the section does: where only they match, as for
    «retropropagación», the section is found; elsewhere they change nothing."""
    for synonym in table:
        words = synonym.words.get(lang)
        if not words:
            continue
        phrase = tokens(html.escape(synonym.heading, quote=False), separator)
        if not phrase:  # every heading "holds" no word: the words would be attached to every section
            message = f"heading {synonym.heading!r} holds no word the search sees (only its separators)"
            raise SourceError(where, message, synonym.line)
        teaching = [doc for doc in docs if _says(doc.get("title", ""), phrase, separator)]
        if not teaching:
            message = f"no heading of the {lang!r} pages says {synonym.heading!r}: its words would lead nowhere"
            raise SourceError(where, message, synonym.line)
        said = "<p>" + ", ".join(html.escape(word, quote=False) for word in words) + "</p>"
        for doc in teaching:
            if said not in doc["text"]:
                doc["text"] = f"{doc['text']} {said}".strip()
