"""The directives a page source holds, ``::: <kind> <arguments>``, and the one table of their kinds.

A directive is a line ``::: <kind> <arguments>`` outside fenced code, so a page
may show the syntax itself inside a fence. ``note``, ``pending`` and ``map``
directives own the indented lines under them (their body, in Markdown). A directive of an
unknown kind, or with the wrong arguments, is an error with the page and line.

:data:`KINDS` is read by the parser (arguments, bodies), by the renderers'
table (every page kind has a renderer) and by the benchmark (which kinds stand
for a snippet's output).
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from ...core.devices import DEVICES
from ...core.errors import SourceError
from .page_source import markdown_lines

DIRECTIVE = re.compile(r"^(?P<indent>[ \t]*):::[ \t]+(?P<kind>\S+)(?P<args>(?:[ \t]+\S+)*)[ \t]*$")


@dataclass(frozen=True)
class Kind:
    """One kind of directive: how it is written, and what it stands for."""

    name: str
    usage: str  # the arguments it takes, as a usage line
    arity: int
    body: bool = False  # it owns the indented Markdown under it
    lab_only: bool = False  # it belongs in a lab's .lab.md, not on a page
    shows_snippet: bool = False  # it stands for a snippet's code and output
    reviewed: bool = False  # it shows or quotes a record's output: an upgrade's review checklist lists it (review.py)


KINDS = {
    kind.name: kind
    for kind in (
        Kind("snippet", "::: snippet <page>/<name>", 1, shows_snippet=True, reviewed=True),
        Kind("cell", "::: cell <lab-page>/<name>#<cell-id>", 1, lab_only=True, shows_snippet=True, reviewed=True),
        Kind("execution-report", "::: execution-report", 0),
        Kind("drift-report", "::: drift-report <name>", 1),
        Kind("atlas", "::: atlas <page>/<name>   (the snippet whose record lists every operator)", 1),
        Kind(
            "note",
            "::: note <page>/<name> <device>   (then the note, indented by four spaces)",
            2,
            body=True,
            reviewed=True,
        ),
        Kind("pending", "::: pending <page>/<name> <device>   (then the text, indented by four spaces)", 2, body=True),
        Kind(
            "map",
            "::: map <page>/<name> <device>   (then its numbered steps, indented by 4 spaces)",
            2,
            body=True,
            reviewed=True,
        ),
    )
}
WITH_BODY = tuple(name for name, kind in KINDS.items() if kind.body)


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


def parse(markdown: str, where: str = "page") -> list[Directive]:
    """Every directive of a page, validated."""
    lines = markdown.split("\n")
    found = []
    skip_until = 0
    for number, line in markdown_lines(lines, where):
        if number <= skip_until or not line.lstrip().startswith(":::"):
            continue
        if not (match := DIRECTIVE.match(line)):
            raise SourceError(
                where,
                f"'{line.strip()}' is not a directive: write '::: <kind> <arguments>', each "
                f"argument without spaces (known kinds: {', '.join(KINDS)})",
                number,
            )
        kind, args = match.group("kind"), tuple(match.group("args").split())
        if kind not in KINDS:
            raise SourceError(where, f"unknown directive '::: {kind}' (known: {', '.join(KINDS)})", number)
        if len(args) != KINDS[kind].arity:
            raise SourceError(where, f"'{line.strip()}' needs: {KINDS[kind].usage}", number)
        if kind in WITH_BODY and args[1] not in DEVICES:
            raise SourceError(where, f"'{line.strip()}': the device must be one of {', '.join(DEVICES)}", number)
        body, end = ("", number)
        if kind in WITH_BODY:
            body, end = _body(lines, number, match.group("indent"))
            if not body:
                raise SourceError(
                    where, f"'{line.strip()}' has no text: indent it by four spaces under the line", number
                )
            skip_until = end
        found.append(Directive(number, match.group("indent"), kind, args, body, end))
    return found


def shown(found: Iterable[Directive], kind: str = "snippet") -> set[str]:
    """What a page shows through its ``kind`` directives, from those :func:`parse` found: the snippets of its
    ``::: snippet`` lines, or with ``kind="atlas"`` the records its atlas reads. The one answer for the renderer,
    the notes' check and the published data: a line in fenced code, in an HTML comment or in a note's body is no
    directive, so it shows nothing."""
    return {d.arg for d in found if d.kind == kind and d.arg}


def in_pages(docs: Path, folder: str = "") -> dict[str, list[Directive]]:
    """Every page's directives below ``docs/<folder>``, keyed by the page's path below ``docs`` and in path order:
    the one reading of the pages for whoever asks which page shows what (the atlas's owners, the report's links)."""
    pages = sorted((docs / folder if folder else docs).rglob("*.md"))
    return {
        rel: parse(path.read_text(encoding="utf-8"), f"docs/{rel}")
        for path in pages
        for rel in [path.relative_to(docs).as_posix()]
    }
