"""The table of renderers: one function per directive kind that a page may hold."""

from __future__ import annotations

from collections.abc import Callable

from ..page.context import Page, Problem, Rendered
from ..page.directives import KINDS, Directive
from . import atlas, call_map, reports
from .snippet_html import render_body_anchor, render_snippet

Renderer = Callable[[Directive, Page], Rendered]
RENDERERS: dict[str, Renderer] = {
    "snippet": render_snippet,
    "note": render_body_anchor,
    "pending": render_body_anchor,
    "execution-report": reports.execution_report,
    "drift-report": reports.drift_report,
    "atlas": atlas.render,
    "map": call_map.render,
}


def render(directive: Directive, page: Page) -> Rendered:
    """Render one directive; a kind that belongs in labs (``cell``) is an error on a page."""
    if KINDS[directive.kind].lab_only:
        return Rendered(
            "", [Problem(directive.line, f"'::: {directive.kind}' belongs in a lab's .lab.md, not on a page")]
        )
    return RENDERERS[directive.kind](directive, page)
