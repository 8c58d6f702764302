"""Where a snippet's header sits in its file, and the code a reader sees without it (see :mod:`header`)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import SourceError

_OPEN = re.compile(r"^# /// snippet[ \t]*$")
_CLOSE = re.compile(r"^# ///[ \t]*$")


@dataclass(frozen=True)
class Block:
    """Where the header sits in the file: its TOML body and the file line of each body line."""

    start: int  # 0-based index of the "# /// snippet" line
    end: int  # 0-based index of the closing "# ///" line
    body: list[str]


def find_block(source: str, where: str) -> Block:
    """The header block; it must open the file (a shebang or coding line may precede it)."""
    lines = source.split("\n")
    start = next((i for i, line in enumerate(lines) if _OPEN.match(line)), None)
    if start is None or any(line.strip() and not line.startswith(("#!", "# -*-")) for line in lines[:start]):
        raise SourceError(where, "no '# /// snippet' header block at the top of the file", 1)
    end = next((i for i in range(start + 1, len(lines)) if _CLOSE.match(lines[i])), None)
    if end is None:
        raise SourceError(where, "the '# /// snippet' block is never closed with '# ///'", start + 1)
    body = []
    for index in range(start + 1, end):
        line = lines[index]
        if line != "#" and not line.startswith("# "):
            raise SourceError(where, "a header line must start with '# '", index + 1)
        body.append(line[2:])
    return Block(start, end, body)


def code_of(source: str, where: str = "snippet") -> str:
    """The code a reader sees: the file without its header block."""
    block = find_block(source, where)
    lines = source.split("\n")
    return "\n".join(lines[: block.start] + lines[block.end + 1 :]).lstrip("\n")


def first_code_line(source: str, where: str = "snippet") -> int:
    """The file's line number of the first line of :func:`code_of`: tracebacks count from the file's top."""
    block = find_block(source, where)
    lines = source.split("\n")
    rest = lines[block.end + 1 :]
    blank = next((i for i, line in enumerate(rest) if line.strip()), len(rest))
    return block.end + 2 + blank if block.start == 0 else 1
