"""Read what a page source declares: directives, heading ids, front matter.

A directive is a line ``::: <kind> <arguments>`` outside fenced code, so a page
may show the syntax itself inside a fence. ``note`` and ``pending`` directives
own the indented lines under them (their body, in Markdown). A directive of an
unknown kind, or with the wrong arguments, is an error with the page and line.
"""

from __future__ import annotations

import hashlib
import re
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ..core.errors import SourceError
from ..core.header import DEVICES

DIRECTIVE = re.compile(r"^(?P<indent>[ \t]*):::[ \t]+(?P<kind>\S+)(?P<args>(?:[ \t]+\S+)*)[ \t]*$")
HEADING = re.compile(r"^(?P<hashes>#{1,6})[ \t]+(?P<text>.*?)[ \t]*$")
HEADING_ID = re.compile(r"\{[ \t]*#(?P<id>[A-Za-z0-9_-]+)[ \t]*\}$")
FENCE = re.compile(r"^[ \t]*(?P<fence>`{3,}|~{3,})")
FRONT_MATTER = re.compile(r"\A---\n(?P<body>.*?)\n---\n", re.DOTALL)

# kind -> the arguments it takes, as a usage line
USAGE = {
    "snippet": "::: snippet <page>/<name>",
    "cell": "::: cell <lab-page>/<name>#<cell-id>",
    "execution-report": "::: execution-report",
    "drift-report": "::: drift-report <name>",
    "note": "::: note <page>/<name> <device>   (then the note, indented by four spaces)",
    "pending": "::: pending <page>/<name> <device>   (then the text, indented by four spaces)",
}
_ARITY = {"snippet": 1, "cell": 1, "execution-report": 0, "drift-report": 1, "note": 2, "pending": 2}
WITH_BODY = ("note", "pending")


@dataclass(frozen=True)
class Directive:
    line: int  # 1-based
    indent: str
    kind: str
    args: tuple[str, ...]
    body: str = ""  # the dedented Markdown under a note or pending directive
    end: int = 0  # last line (1-based) the directive owns

    @property
    def arg(self) -> str | None:
        return self.args[0] if self.args else None

    @property
    def target(self) -> tuple[str, str]:
        """(snippet id, device) of a note or pending directive."""
        return self.args[0], self.args[1]


def _outside_fences(lines: list[str]) -> Iterator[tuple[int, str]]:
    fence: str | None = None
    for number, line in enumerate(lines, start=1):
        found = FENCE.match(line)
        if fence is None and found:
            fence = found.group("fence")
            continue
        if fence is not None:
            if (found and found.group("fence")[0] == fence[0] and len(found.group("fence")) >= len(fence)
                    and not line.strip()[len(found.group("fence")):].strip()):
                fence = None
            continue
        yield number, line


def _body(lines: list[str], start: int, indent: str) -> tuple[str, int]:
    """The indented block after line ``start`` (1-based) and the last line it covers."""
    end = start
    for number in range(start + 1, len(lines) + 1):
        line = lines[number - 1]
        if line.strip() and not line.startswith(indent + "    "):
            break
        if line.strip():
            end = number
    return textwrap.dedent("\n".join(lines[start:end])).strip("\n"), end


def directives(markdown: str, where: str = "page") -> list[Directive]:
    """Every directive of a page, validated."""
    lines = markdown.split("\n")
    found = []
    skip_until = 0
    for number, line in _outside_fences(lines):
        if number <= skip_until or not (match := DIRECTIVE.match(line)):
            continue
        kind, args = match.group("kind"), tuple(match.group("args").split())
        if kind not in USAGE:
            raise SourceError(where, f"unknown directive '::: {kind}' (known: {', '.join(USAGE)})", number)
        if len(args) != _ARITY[kind]:
            raise SourceError(where, f"'{line.strip()}' needs: {USAGE[kind]}", number)
        if kind in WITH_BODY and args[1] not in DEVICES:
            raise SourceError(where, f"'{line.strip()}': the device must be one of {', '.join(DEVICES)}", number)
        body, end = ("", number)
        if kind in WITH_BODY:
            body, end = _body(lines, number, match.group("indent"))
            if not body:
                raise SourceError(where, f"'{line.strip()}' has no text: indent it by four spaces under the line",
                                  number)
            skip_until = end
        found.append(Directive(number, match.group("indent"), kind, args, body, end))
    return found


def headings(markdown: str) -> list[tuple[int, str, str | None]]:
    """(level, text, explicit id or None) for every ATX heading outside fences."""
    found = []
    for _, line in _outside_fences(strip_front_matter(markdown).split("\n")):
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
