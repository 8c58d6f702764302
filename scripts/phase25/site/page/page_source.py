"""What a page source declares besides its directives: front matter, headings and their ids, fenced code.

Both the directive parser and the translation checks read a page through these
functions, so "outside fenced code" means the same thing everywhere.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from pathlib import Path

from ...core.errors import SourceError

HEADING = re.compile(r"^(?P<hashes>#{1,6})[ \t]+(?P<text>.*?)[ \t]*$")
HEADING_ID = re.compile(r"\{[ \t]*#(?P<id>[A-Za-z0-9_-]+)[ \t]*\}$")
FENCE = re.compile(r"^[ \t]*(?P<fence>`{3,}|~{3,})")
FRONT_MATTER = re.compile(r"\A---\n(?P<body>.*?)\n---\n", re.DOTALL)


_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
_OPEN, _CLOSE = "<!--", "-->"


def _closes(fence: str, line: str) -> bool:
    found = FENCE.match(line)
    return bool(
        found
        and found.group("fence")[0] == fence[0]
        and len(found.group("fence")) >= len(fence)
        and not line.strip()[len(found.group("fence")) :].strip()
    )


def _uncommented(line: str, in_comment: bool) -> tuple[str, bool]:
    """The part of a line outside HTML comments, and whether a comment is still open at its end.

    ``<!--`` inside an inline code span is text, not a comment (Markdown renders it as code)."""
    shown: list[str] = []
    rest = line
    while rest:
        if in_comment:
            end = rest.find(_CLOSE)
            if end < 0:
                return "".join(shown), True
            rest, in_comment = rest[end + len(_CLOSE) :], False
            continue
        masked = _CODE_SPAN.sub(lambda m: " " * len(m.group()), rest)
        start = masked.find(_OPEN)
        if start < 0:
            shown.append(rest)
            break
        shown.append(rest[:start])
        rest, in_comment = rest[start + len(_OPEN) :], True
    return "".join(shown), in_comment


def markdown_lines(lines: list[str], where: str = "page") -> Iterator[tuple[int, str]]:
    """(line number, text) of every line Markdown renders as text: not in fenced code, not in an HTML comment.

    A comment that hides a directive hides nothing after its ``-->``; a comment never closed would hide
    the rest of the page, and is an error naming the line where it opens.
    """
    fence: str | None = None
    opened_at = 0
    in_comment = False
    for number, line in enumerate(lines, start=1):
        if fence is not None:
            fence = None if _closes(fence, line) else fence
            continue
        if not in_comment and (found := FENCE.match(line)):
            fence = found.group("fence")
            continue
        was_open = in_comment
        shown, in_comment = _uncommented(line, in_comment)
        if in_comment and not was_open:
            opened_at = number
        if shown.strip() or not (was_open or in_comment or _OPEN in line):
            yield number, shown
    if in_comment:
        raise SourceError(
            where, "an HTML comment opened here is never closed: it would hide the rest of the page", opened_at
        )


def headings(markdown: str) -> list[tuple[int, str, str | None]]:
    """(level, text, explicit id or None) for every ATX heading outside fences."""
    found = []
    for _, line in markdown_lines(strip_front_matter(markdown).split("\n")):
        match = HEADING.match(line)
        if match:
            id_match = HEADING_ID.search(match.group("text"))
            found.append((len(match.group("hashes")), match.group("text"), id_match.group("id") if id_match else None))
    return found


def front_matter(markdown: str) -> dict[str, str]:
    """The flat ``key: value`` pairs of a page's front matter (all we use)."""
    match = FRONT_MATTER.match(markdown)
    if not match:
        return {}
    pairs = {}
    for line in match.group("body").splitlines():
        if ":" in line and not line.startswith((" ", "#")):
            key, value = line.split(":", 1)
            pairs[key.strip()] = value.strip().strip("'\"")
    return pairs


def strip_front_matter(markdown: str) -> str:
    match = FRONT_MATTER.match(markdown)
    return markdown[match.end() :] if match else markdown


def revision(path: Path) -> str:
    """The revision id a translation records: a short hash of the English source."""
    return hashlib.sha256(path.read_bytes()).hexdigest()[:12]
