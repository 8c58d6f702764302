"""What a section of a page shows: the lines of output of the snippets under its heading.

A step of the map of one call quotes a line of the map's own run and links to the section that explains it. The
reader who follows the link should find that line there, in the section's output, not a neighbour of it from
another run: so the section is read here the way a reader meets it, from its heading to the next heading of the
same or a higher level, and every ``::: snippet`` inside it gives the stable lines of its record on the map's
device. Whitespace is compared collapsed: an inline quote shows runs of spaces as one.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field

from ..page import directives
from ..page.context import Page
from ..page.page_source import HEADING, HEADING_ID, markdown_lines
from .record_html import shown_text

SECTION = re.compile(r"^(?P<path>[^#?:]*\.md)?#(?P<anchor>[A-Za-z0-9_-]+)$")


def collapsed(text: str) -> str:
    """A line as an inline quote shows it: runs of whitespace as one space, none at the ends."""
    return " ".join(text.split())


@dataclass
class Sections:
    """The pages a map links to, each read once per map: path below the site's root -> its source lines."""

    page: Page
    device: str
    sources: dict[str, list[str] | None] = field(default_factory=dict)

    def path_of(self, target: str) -> tuple[str, str] | None:
        """(page path below the root, anchor) of a link to a section, relative to the page being rendered."""
        found = SECTION.match(target)
        if found is None:
            return None
        where = self.page.where
        if found["path"] is not None:
            where = posixpath.normpath(posixpath.join(posixpath.dirname(where), found["path"]))
        return where, found["anchor"]

    def lines(self, path: str) -> list[str] | None:
        if path not in self.sources:
            source = self.page.layout.root / path
            self.sources[path] = source.read_text(encoding="utf-8").split("\n") if source.is_file() else None
        return self.sources[path]

    def heading(self, path: str, anchor: str) -> tuple[int, int] | None:
        """(line, level) of the heading that declares ``{ #anchor }`` on page ``path``, outside fenced code."""
        for number, line in markdown_lines(self.lines(path) or [], path):
            found, declared = HEADING.match(line), HEADING_ID.search(line.rstrip())
            if found and declared and declared["id"] == anchor:
                return number, len(found["hashes"])
        return None

    def snippets(self, path: str, anchor: str) -> list[str]:
        """The snippets a section shows, in page order: those of the ``::: snippet`` lines under its heading."""
        lines = self.lines(path) or []
        start = self.heading(path, anchor)
        if start is None:
            return []
        end = len(lines) + 1
        for number, line in markdown_lines(lines, path):
            found = HEADING.match(line)
            if number > start[0] and found and len(found["hashes"]) <= start[1]:
                end = number
                break
        found_directives = directives.parse("\n".join(lines), path)
        return [d.arg for d in found_directives if d.kind == "snippet" and d.arg and start[0] < d.line < end]

    def shown_lines(self, snippet_id: str) -> set[str]:
        """The stable lines a snippet's current record shows on the map's device, collapsed; none without one."""
        snippet = self.page.catalog.snippets.get(snippet_id)
        if snippet is None or self.device not in snippet.header.devices:
            return set()
        standing = self.page.catalog.standing(snippet_id, self.device)
        if not standing.usable or standing.record is None:
            return set()
        texts = shown_text(standing.record, snippet.header.volatile)
        return {collapsed(line) for text in texts for line in text.split("\n") if line.strip()}

    def problem(self, target: str, quote: str) -> str | None:
        """Why the section a step links to does not show the line it quotes (None when it does)."""
        located = self.path_of(target)
        if located is None or self.lines(located[0]) is None:
            return None  # the link itself is refused elsewhere
        path, anchor = located
        if self.heading(path, anchor) is None:
            return f"links to {target!r}, and {path} has no heading {{ #{anchor} }}: a step leads to a section"
        shown = self.snippets(path, anchor)
        wanted = collapsed(quote)
        if any(wanted in line for snippet_id in shown for line in self.shown_lines(snippet_id)):
            return None
        showing = ", ".join(shown) if shown else "no snippet"
        return (
            f"links to {target!r}, whose section does not show `{quote}` (it shows {showing}): "
            "link to a section whose output holds that line"
        )
