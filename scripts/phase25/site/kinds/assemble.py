"""One page from Markdown to HTML: directives out before Markdown runs, their HTML in after it.

``prepare`` replaces each directive line with a placeholder and renders the
directive; the bodies of ``note``, ``pending`` and ``map`` directives stay in the
Markdown, between markers, so that Markdown renders them like the rest of the
page (links, code, emphasis). ``finish`` puts each rendered directive at its
placeholder and moves each body into the slot it belongs to: a device tab, or
the frame a map draws where it stands. The MkDocs
adapter calls both around MkDocs' own conversion; the tests call
:func:`render_markdown`, which does the same with Python-Markdown in-process.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..page import directives
from ..page.context import Page, Problem
from . import quoted
from .renderers import render

SLOT = "<!--phase25-slot-{}-->"
_SLOT = re.compile(r"(?:<p>)?<!--phase25-slot-(\d+)-->(?:</p>)?")
_BODY = re.compile(
    r"(?:<p>)?<!--phase25-body-begin (\d+)-->(?:</p>)?(?P<html>.*?)"
    r"(?:<p>)?<!--phase25-body-end \1-->(?:</p>)?",
    re.DOTALL,
)
_BODY_SLOT = re.compile(r"<!--phase25-body-slot (\d+)-->")


@dataclass
class Prepared:
    markdown: str
    slots: dict[int, str] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    body_lines: dict[int, int] = field(default_factory=dict)  # body number -> its directive's line
    body_targets: dict[int, str] = field(default_factory=dict)  # body number -> snippet id
    body_kinds: dict[int, str] = field(default_factory=dict)  # body number -> its directive's kind (note, map, ...)
    shown: set[str] = field(default_factory=set)  # the snippets the page shows (directives.shown)


def prepare(markdown: str, page: Page) -> Prepared:
    """Render every directive of a page; a malformed directive raises SourceError (file and line)."""
    found = directives.parse(markdown, page.where)
    prepared = Prepared(markdown, shown=directives.shown(found))
    page.quotes = quoted.quoted(markdown, found, page.where)  # the lines a long output keeps in view
    for number, directive in enumerate(found):
        if directive.kind in directives.WITH_BODY:
            page.bodies.setdefault((directive.kind, *directive.target), []).append(number)
            prepared.body_lines[number] = directive.line
            prepared.body_targets[number] = directive.target[0]
            prepared.body_kinds[number] = directive.kind
    lines = markdown.split("\n")
    results = [render(directive, page) for directive in found]  # in page order: tab ids count up
    for number, directive in reversed(list(enumerate(found))):
        rendered = results[number]
        prepared.problems += rendered.problems
        indent = directive.indent
        if directive.kind in directives.WITH_BODY:
            body = [indent + line if line.strip() else "" for line in directive.body.split("\n")]
            # A body kind that draws something where it stands (a map) gets a slot there too; its body then goes
            # into the body slot its HTML holds, as a note's goes into its tab.
            head = [indent + SLOT.format(number), ""] if rendered.html else []
            if rendered.html:
                prepared.slots[number] = rendered.html
            lines[directive.line - 1 : directive.end] = [
                *head,
                f"{indent}<!--phase25-body-begin {number}-->",
                "",
                *body,
                "",
                f"{indent}<!--phase25-body-end {number}-->",
            ]
        else:
            prepared.slots[number] = rendered.html
            lines[directive.line - 1] = indent + SLOT.format(number)
    prepared.problems.sort(key=lambda p: p.line)
    prepared.markdown = "\n".join(lines)
    return prepared


def finish(html: str, prepared: Prepared) -> tuple[str, list[Problem]]:
    """Fill the placeholders; a body needs its snippet among those the page shows (``prepared.shown``)."""
    problems: list[Problem] = []
    seen: set[int] = set()

    def fill(match: re.Match[str]) -> str:
        seen.add(int(match.group(1)))
        return prepared.slots.get(int(match.group(1)), "")

    html = _SLOT.sub(fill, html)
    for number in sorted(set(prepared.slots) - seen):
        problems.append(Problem(0, f"directive #{number + 1} did not survive Markdown (inside raw HTML?)"))
    bodies: dict[int, str] = {}

    def take(match: re.Match[str]) -> str:
        bodies[int(match.group(1))] = match.group("html").strip()
        return ""

    html = _BODY.sub(take, html)
    html = _BODY_SLOT.sub(lambda m: f'<div class="device-note">{bodies.get(int(m.group(1)), "")}</div>', html)
    for number, snippet_id in prepared.body_targets.items():
        if snippet_id not in prepared.shown:
            problems.append(
                Problem(
                    prepared.body_lines[number],
                    f"{'a map of' if prepared.body_kinds[number] == 'map' else 'a note on'} {snippet_id}, "
                    "which this page does not show",
                )
            )
    return html, problems


def render_markdown(markdown: str, page: Page, extensions: list | None = None) -> tuple[str, list[Problem]]:
    """A whole page in-process, as the site renders it: for tests and quick checks."""
    import markdown as md

    prepared = prepare(markdown, page)
    converter = md.Markdown(
        extensions=extensions or ["admonition", "attr_list", "md_in_html", "pymdownx.details", "pymdownx.superfences"]
    )
    html, problems = finish(converter.convert(prepared.markdown), prepared)
    return html, prepared.problems + problems
