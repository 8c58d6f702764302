"""The lines of a snippet a page shows: sections marked in its file, as pymdown's snippets extension marks them.

A section is the lines between ``# --8<-- [start:NAME]`` and ``# --8<-- [end:NAME]``. A page shows a
snippet's sections and folds the rest (set-up, printing, formatting) behind one click; a snippet
without markers is shown whole. Markers are comments: the file runs as it reads, and the line numbers
a reader sees are the file's, as in a traceback. A marker that selects nothing, or that cannot be
paired, is an error naming the file and line: a page must never show an empty or a wrong excerpt.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import SourceError

MARKER = "# --8<--"
_MARKER = re.compile(r"^[ \t]*# --8<-- \[(?P<edge>start|end):(?P<name>[A-Za-z0-9_-]+)\][ \t]*$")


@dataclass(frozen=True)
class Section:
    """One marked section: the file lines (1-based, markers excluded) it shows."""

    name: str
    first: int
    last: int


def _is_marker(line: str) -> bool:
    return line.lstrip().startswith(MARKER)


def _selects_code(lines: list[str]) -> bool:
    """At least one line of code: a section of blanks and comments alone shows a reader nothing to run."""
    return any(line.strip() and not line.lstrip().startswith("#") for line in lines)


def _close(name: str, start: int, number: int, lines: list[str], where: str) -> Section:
    body = lines[start : number - 1]
    if not _selects_code(body):
        raise SourceError(where, f"section '{name}' selects no line of code (only blanks and comments)", start)
    return Section(name, start + 1, number - 1)


def sections(source: str, where: str, first_code_line: int = 1) -> list[Section]:
    """The marked sections of a snippet's file, in file order; ``[]`` when it marks none.

    Sections may not nest or overlap (a reader would see a line twice), a name is used once, and no marker
    may sit in the header (above ``first_code_line``)."""
    lines = source.split("\n")
    found: list[Section] = []
    open_: tuple[str, int] | None = None  # (name, line of its start marker)
    seen: set[str] = set()
    for number, line in enumerate(lines, 1):
        if not _is_marker(line):
            continue
        match = _MARKER.match(line)
        if match is None:
            raise SourceError(
                where,
                f"'{line.strip()}' is not a section marker: write '# --8<-- [start:NAME]' or '[end:NAME]'",
                number,
            )
        if number < first_code_line:
            raise SourceError(where, "a section marker cannot sit in the header", number)
        edge, name = match.group("edge"), match.group("name")
        if edge == "start":
            if open_ is not None:
                raise SourceError(
                    where, f"section '{name}' starts inside section '{open_[0]}' (line {open_[1]})", number
                )
            if name in seen:
                raise SourceError(where, f"section '{name}' is marked twice: each name once", number)
            open_ = (name, number)
            seen.add(name)
        elif open_ is None or open_[0] != name:
            raise SourceError(where, f"'[end:{name}]' ends no open section '{name}'", number)
        else:
            found.append(_close(name, open_[1], number, lines, where))
            open_ = None
    if open_ is not None:
        raise SourceError(where, f"section '{open_[0]}' is never ended with '# --8<-- [end:{open_[0]}]'", open_[1])
    return found


def excerpt(source: str, section: Section) -> str:
    """The text of one section, as the page shows it (its own lines, markers excluded)."""
    return "\n".join(source.split("\n")[section.first - 1 : section.last])


def line_count(source: str) -> int:
    """The file's lines as an editor counts them (a final newline ends the last line, it starts none)."""
    return len(source.removesuffix("\n").split("\n"))
