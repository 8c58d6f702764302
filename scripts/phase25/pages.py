"""Read what the page sources declare: snippet directives, heading ids, front matter.

Fenced code blocks are skipped, so a page may show the directive syntax itself.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

DIRECTIVE = re.compile(
    r"^(?P<indent>[ \t]*)::: (?P<kind>snippet|cell|execution-report|drift-report)(?:[ \t]+(?P<arg>\S+))?[ \t]*$"
)
HEADING = re.compile(r"^(?P<hashes>#{1,6})[ \t]+(?P<text>.*?)[ \t]*$")
HEADING_ID = re.compile(r"\{[ \t]*#(?P<id>[A-Za-z0-9_-]+)[ \t]*\}$")
FENCE = re.compile(r"^[ \t]*(?P<fence>`{3,}|~{3,})")
FRONT_MATTER = re.compile(r"\A---\n(?P<body>.*?)\n---\n", re.DOTALL)


@dataclass(frozen=True)
class Directive:
    line: int  # 1-based
    indent: str
    kind: str
    arg: str | None


def _outside_fences(markdown: str):
    fence: str | None = None
    for number, line in enumerate(markdown.split("\n"), start=1):
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


def directives(markdown: str) -> list[Directive]:
    return [
        Directive(number, m.group("indent"), m.group("kind"), m.group("arg"))
        for number, line in _outside_fences(markdown)
        if (m := DIRECTIVE.match(line))
    ]


def headings(markdown: str) -> list[tuple[int, str, str | None]]:
    """(level, text, explicit id or None) for every ATX heading outside fences."""
    found = []
    for _, line in _outside_fences(strip_front_matter(markdown)):
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
