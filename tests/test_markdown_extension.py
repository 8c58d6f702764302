"""The renderer outside any site engine: a plain Python-Markdown extension, with records as its only input."""

from __future__ import annotations

import re

import markdown
from conftest import REPO
from phase25.site.hosts.markdown_extension import SnippetExtension
from phase25.site.page import page_source

EXTENSIONS = ["admonition", "attr_list", "md_in_html", "pymdownx.details", "pymdownx.superfences"]


def render(text: str, **config) -> tuple[str, SnippetExtension]:
    extension = SnippetExtension(**config)
    html = markdown.Markdown(extensions=[*EXTENSIONS, extension]).convert(text)
    return html, extension


def test_a_real_page_renders_from_its_records_in_plain_python_markdown():
    source = page_source.strip_front_matter((REPO / "docs/es/index.md").read_text(encoding="utf-8"))
    html, extension = render(source, lang="es", where="docs/es/index.md")
    shown = re.findall(r'<div class="snippet" data-snippet="([^"]+)"', html)
    assert shown == re.findall(r"^::: snippet (\S+)", source, re.M) and len(shown) >= 5
    assert "Ejecutado en CPU" in html and "CUDA · aún no capturado" in html
    assert "phase25-slot" not in html and "phase25-body" not in html and extension.problems == []


def test_notes_land_in_their_tab_and_problems_are_reported_with_their_line(toy):
    toy.add("page/a", "print('hi there')\n", devices='["cpu", "cuda"]')
    toy.run()
    text = (
        "# T\n\n::: snippet page/a\n\n::: note page/a cpu\n    It prints `hi there`.\n\n"
        "::: pending page/a cuda\n    Once captured, the tab will show it.\n\n::: snippet page/nope\n"
    )
    html, extension = render(text, layout=toy.layout)
    cpu, cuda = html.split('<div class="tabbed-block">')[1:3]
    assert "<code>hi there</code>" in cpu and "Once captured" in cuda and "not been run on a GPU yet" in cuda
    assert [(p.line, p.message) for p in extension.problems] == [
        (11, "no snippet 'page/nope' (expected snippets/<page>/<name>.py)")
    ]
    html, extension = render(text.replace("`hi there`", "`bye`"), layout=toy.layout)
    assert any("quotes `bye`, which its output does not show" in p.message for p in extension.problems)
