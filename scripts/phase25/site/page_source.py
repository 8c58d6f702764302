"""What a page source declares besides its directives: front matter, headings and their ids, fenced code.

Both the directive parser and the translation checks read a page through these
functions, so "outside fenced code" means the same thing everywhere.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from pathlib import Path

HEADING = re.compile(r"^(?P<hashes>#{1,6})[ \t]+(?P<text>.*?)[ \t]*$")
HEADING_ID = re.compile(r"\{[ \t]*#(?P<id>[A-Za-z0-9_-]+)[ \t]*\}$")
FENCE = re.compile(r"^[ \t]*(?P<fence>`{3,}|~{3,})")
FRONT_MATTER = re.compile(r"\A---\n(?P<body>.*?)\n---\n", re.DOTALL)


def outside_fences(lines: list[str]) -> Iterator[tuple[int, str]]:
    fence: str | None = None
    for number, line in enumerate(lines, start=1):
        found = FENCE.match(line)
        if fence is None and found:
            fence = found.group("fence")
            continue
        if fence is not None:
            if (
                found
                and found.group("fence")[0] == fence[0]
                and len(found.group("fence")) >= len(fence)
                and not line.strip()[len(found.group("fence")) :].strip()
            ):
                fence = None
            continue
        yield number, line


def headings(markdown: str) -> list[tuple[int, str, str | None]]:
    """(level, text, explicit id or None) for every ATX heading outside fences."""
    found = []
    for _, line in outside_fences(strip_front_matter(markdown).split("\n")):
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
