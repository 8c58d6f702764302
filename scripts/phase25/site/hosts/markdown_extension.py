"""The snippet renderer as a plain Python-Markdown extension: records in, HTML out, no site engine at all.

MkDocs reaches the renderer through its events (:mod:`adapter`); any other engine that runs
Python-Markdown (ProperDocs does, a future Zensical adapter would) can load this extension instead::

    import markdown
    from phase25.site.hosts.markdown_extension import SnippetExtension

    html = markdown.markdown(text, extensions=["admonition", SnippetExtension(lang="es")])
    problems = extension.problems  # what a strict build refuses, with the page's lines

The directives are taken out before Markdown runs (a preprocessor) and their HTML is put back after
it (a postprocessor), exactly as :func:`assemble.prepare` and :func:`assemble.finish` do for MkDocs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from markdown import Extension, Markdown
from markdown.postprocessors import Postprocessor
from markdown.preprocessors import Preprocessor

from ...core.catalog import Catalog
from ...core.paths import DEFAULT_LAYOUT, Layout
from ..kinds import assemble
from ..lang import strings
from ..page.context import Page, Problem
from ..page.highlight import Highlighter


class _TakeOut(Preprocessor):
    def __init__(self, md: Markdown, extension: SnippetExtension) -> None:
        super().__init__(md)
        self.extension = extension

    def run(self, lines: list[str]) -> list[str]:
        text = "\n".join(lines)
        page = self.extension.page()
        self.extension.prepared = assemble.prepare(text, page)
        return self.extension.prepared.markdown.split("\n")


class _PutBack(Postprocessor):
    def __init__(self, md: Markdown, extension: SnippetExtension) -> None:
        super().__init__(md)
        self.extension = extension

    def run(self, text: str) -> str:
        prepared = self.extension.prepared
        if prepared is None:
            return text
        html, late = assemble.finish(text, prepared)
        self.extension.problems = sorted(prepared.problems + late, key=lambda p: p.line)
        return html


class SnippetExtension(Extension):
    """Renders ``::: snippet`` and its kin from the records of ``layout`` (the repository by default)."""

    def __init__(self, **kwargs: Any) -> None:
        self.config = {
            "lang": [strings.DEFAULT, f"the page's language: one of {', '.join(strings.LANGUAGES)}"],
            "where": ["page.md", "the page's path, as problems name it"],
            # (a str default: Python-Markdown turns a None-default option into a boolean)
            "layout": ["", "the repository (a Layout or its path) whose snippets and records are read"],
            "site_root": ["", "from the page to the site's root, for links to published files"],
        }
        super().__init__(**kwargs)
        given = self.getConfig("layout")
        layout = given if isinstance(given, Layout) else Layout.of(Path(given)) if given else DEFAULT_LAYOUT
        self.catalog = Catalog.here(layout)
        self.highlighter = Highlighter()
        self.prepared: assemble.Prepared | None = None
        self.problems: list[Problem] = []

    def page(self) -> Page:
        return Page(
            self.getConfig("lang"), self.getConfig("where"), self.catalog, self.highlighter, self.getConfig("site_root")
        )

    def extendMarkdown(self, md: Markdown) -> None:
        md.preprocessors.register(_TakeOut(md, self), "phase25-directives", 40)
        # After the raw-HTML postprocessor (priority 30), which would otherwise escape our comments' stand-ins.
        md.postprocessors.register(_PutBack(md, self), "phase25-directives", 5)
        md.registerExtension(self)

    def reset(self) -> None:
        self.prepared, self.problems = None, []


def makeExtension(**kwargs: Any) -> SnippetExtension:
    return SnippetExtension(**kwargs)
