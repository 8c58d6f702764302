"""A language's glossary, ``glossary_<code>.toml`` beside its strings module: one word per concept, and the forms
that must never appear on its pages or in its strings.

The glossary is the project's vocabulary for a translated language (the default language needs none). Each entry
says the English term, the form the pages use, when to gloss it, and the forms it rules out; ``misuses`` finds
those forms in a page's prose, leaving out what is code (fenced blocks, inline code), whose words are torch's.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from ...core.errors import SourceError, toml_problem

HERE = Path(__file__).parent
_FIELDS = {"term": str, "say": str, "gloss": str, "never": list, "note": str}
_REQUIRED = ("term", "say", "gloss")
_FENCE = re.compile(r"^\s*(```|~~~)")
_INLINE_CODE = re.compile(r"(`+)(?:(?!\1).)+?\1")


@dataclass(frozen=True)
class Entry:
    term: str
    say: str
    gloss: str
    never: tuple[str, ...]
    note: str
    line: int  # where the entry starts in its file


def path(code: str) -> Path:
    return HERE / f"glossary_{code}.toml"


def _lines_of_entries(text: str) -> list[int]:
    return [number for number, line in enumerate(text.splitlines(), start=1) if line.strip() == "[[entry]]"]


def load(source: Path) -> tuple[Entry, ...]:
    """The entries of a glossary file; a malformed one is a SourceError naming the file and the entry's line."""
    where = source.name
    try:
        text = source.read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except OSError as exc:
        raise SourceError(where, f"cannot be read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        message, line = toml_problem(exc)
        raise SourceError(where, message, line) from None
    found, starts = data.get("entry", []), _lines_of_entries(text)
    if not isinstance(found, list) or not found or set(data) != {"entry"}:
        raise SourceError(where, "a glossary is a list of [[entry]] tables and nothing else")
    return tuple(_entry(item, where, starts[index]) for index, item in enumerate(found))


def _entry(item: dict[str, object], where: str, line: int) -> Entry:
    for key, value in item.items():
        if key not in _FIELDS:
            raise SourceError(where, f"unknown field {key!r} (fields: {', '.join(_FIELDS)})", line)
        if not isinstance(value, _FIELDS[key]) or not value:
            raise SourceError(where, f"{key!r} must be a non-empty {_FIELDS[key].__name__}", line)
    missing = [key for key in _REQUIRED if key not in item]
    if missing:
        raise SourceError(where, f"the entry has no {', '.join(missing)}", line)
    never = item.get("never", [])
    assert isinstance(never, list)
    if not all(isinstance(form, str) and form.strip() for form in never):
        raise SourceError(where, "'never' lists forms as non-empty strings", line)
    strings = {key: str(item.get(key, "")) for key in ("term", "say", "gloss", "note")}
    return Entry(never=tuple(never), line=line, **strings)


def _pattern(form: str) -> re.Pattern[str]:
    """A form as a whole word or phrase, whatever its case: «despacho» but not «despachos» unless listed."""
    return re.compile(rf"(?<!\w){re.escape(form)}(?!\w)", re.IGNORECASE)


def prose_lines(markdown: str) -> list[tuple[int, str]]:
    """A page's lines that are prose, numbered from 1: fenced blocks left out, inline code blanked."""
    shown, fenced = [], None
    for number, line in enumerate(markdown.splitlines(), start=1):
        fence = _FENCE.match(line)
        if fence and (fenced is None or fence.group(1) == fenced):
            fenced = fence.group(1) if fenced is None else None
            continue
        if fenced is None:
            shown.append((number, _INLINE_CODE.sub(" ", line)))
    return shown


def misuses(entries: tuple[Entry, ...], lines: list[tuple[int, str]]) -> list[tuple[int, str, Entry]]:
    """Each (line, form, entry) where a line uses a form its glossary rules out."""
    patterns = [(_pattern(form), form, entry) for entry in entries for form in entry.never]
    return [
        (number, form, entry) for number, line in lines for pattern, form, entry in patterns if pattern.search(line)
    ]
