"""Each page of the built site as Markdown, beside its HTML (``<page>/index.md`` next to ``<page>/index.html``, as
mkdocs-llmstxt and Zensical publish theirs): what an assistant reads and quotes instead of the HTML.

A page's twin is its source with every directive made plain Markdown: a snippet becomes its code and each device's
recorded output, fenced, with the provenance line (:mod:`markdown_snippet`); a note or a pending text goes under
the output it is tied to, as in the HTML tab; a map keeps its numbered steps; the tables that a page draws from
every record (the execution report, a drift report, the atlas) are a link to the HTML page, which shows them. A
lab's twin is its notebook, the one the HTML page renders: its prose, its code cells and their recorded outputs.
Links between pages lead to the other page's twin, so a reader of the Markdown stays in Markdown.
"""

from __future__ import annotations

import json
import posixpath
import re

from ...core.errors import SourceError
from ..lang.strings import DEFAULT
from ..page import directives, page_source
from .markdown_snippet import OUTPUT, Where, fence, snippet_markdown

# A link's target: after "](", whether its text began on this line or on one above.
LINK = re.compile(r"(?P<head>\]\()(?P<target><[^>\n]*>|[^)\s]+)(?P<tail>[^)\n]*\))")
REFERENCE = re.compile(r"^(?P<head>[ \t]{0,3}\[[^\]\n]+\]:[ \t]*)(?P<target>\S+)(?P<tail>.*)$")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def twin_name(page_name: str) -> str:
    """The twin of a built page: ``theory/01-x/index.html`` -> ``theory/01-x/index.md``."""
    return page_name.removesuffix(".html") + ".md"


class Links:
    """Where a link of a page's source leads in its twin: another page's twin, or the file the site publishes."""

    def __init__(self, pages: dict[str, str], source: str) -> None:
        self.pages = pages  # docs-relative source ("en/theory/01-x.md") -> its twin's name in the site
        self.source = source  # this page's docs-relative source
        self.here = posixpath.dirname(pages.get(source, ""))

    def target(self, href: str) -> str:
        if href.startswith(("#", "/")) or SCHEME.match(href):
            return href
        path, hash_, anchor = href.partition("#")
        if self.source.endswith(".ipynb"):  # a notebook links published addresses, relative to its page
            return (path + "index.md" if path.endswith("/") else path) + hash_ + anchor
        resolved = posixpath.normpath(posixpath.join(posixpath.dirname(self.source), path))
        lang, _, rest = resolved.partition("/")
        site = self.pages.get(resolved) or (rest if lang == DEFAULT else resolved)
        return posixpath.relpath(site, self.here or ".") + hash_ + anchor

    def rewrite(self, line: str) -> str:
        """Each inline link and reference definition of one line of prose, retargeted."""

        def one(match: re.Match[str]) -> str:
            target = match["target"]
            bare = target[1:-1] if target.startswith("<") else target
            return match["head"] + self.target(bare) + match["tail"]

        return REFERENCE.sub(one, LINK.sub(one, line))


def _body(d: directives.Directive, links: Links) -> str:
    return "\n".join(links.rewrite(line) for line in d.body.split("\n"))


def _bodies(found: list[directives.Directive], links: Links) -> dict[tuple[str, str, str], list[str]]:
    bodies: dict[tuple[str, str, str], list[str]] = {}
    for d in found:
        if d.kind in ("note", "pending"):
            bodies.setdefault((d.kind, *d.target), []).append(_body(d, links))
    return bodies


def _directive(d: directives.Directive, where: Where, links: Links) -> str:
    """One directive as Markdown (a note or a pending text goes under its output, so it is nothing here)."""
    if d.kind == "snippet":
        return snippet_markdown(d.arg or "", where)
    if d.kind == "map":
        return _body(d, links)
    if d.kind in ("note", "pending"):
        return ""
    return "[index.html](index.html)"  # a table drawn from every record (a report, the atlas): the HTML shows it


def page_twin(source: str, where: Where, links: Links, label: str = "page") -> str:
    """A page's Markdown (front matter removed) with every directive made Markdown and every link retargeted."""
    text = page_source.strip_front_matter(source)
    found = directives.parse(text, label)
    where.bodies = _bodies(found, links)
    lines = text.split("\n")
    prose = {number for number, _ in page_source.markdown_lines(lines, label)}
    lines = [links.rewrite(line) if n in prose else line for n, line in enumerate(lines, 1)]
    for d in reversed(found):
        made = _directive(d, where, links)
        lines[d.line - 1 : d.end] = [d.indent + line if line else "" for line in made.split("\n")]
    return "\n".join(lines).strip("\n") + "\n"


def notebook_twin(notebook: str, links: Links, label: str = "notebook") -> str:
    """A lab's notebook as Markdown: prose cells as they are, each code cell and its recorded output fenced."""
    try:
        cells = json.loads(notebook)["cells"]
    except (ValueError, KeyError, TypeError) as exc:
        raise SourceError(label, f"not a notebook: {exc}") from None
    blocks = []
    for cell in cells:
        source = "".join(cell.get("source", []))
        if cell.get("cell_type") == "markdown":
            blocks.append("\n".join(links.rewrite(line) for line in source.split("\n")))
            continue
        blocks.append(fence(source.rstrip("\n"), "python"))
        for output in cell.get("outputs", []):
            printed = "".join(output.get("text", []))
            if printed.strip():
                blocks.append(fence(printed.rstrip("\n"), OUTPUT))
    return "\n\n".join(blocks).strip("\n") + "\n"


def title(twin: str) -> str:
    """A twin's title: its first heading, without an explicit id."""
    for _level, heading, _id in page_source.headings(twin):
        return page_source.HEADING_ID.sub("", heading).strip()
    return ""
