"""The map of one call (``::: map``): each step a link to a section beside a whole line of its record's output.

Rendered in-process on a toy project, as tests/test_render.py does. Most cases are what someone would try to slip
a hand-written line into a map: a part of a line, a volatile line, the placeholder of a masked line, a second code
span, raw HTML, an image, an attribute list, a nested list, a link that leads nowhere. Each must be refused with
the page's line.
"""

from __future__ import annotations

import textwrap

import pytest
from phase25.core import environment, records
from phase25.core.catalog import Catalog
from phase25.core.compare import VOLATILE
from phase25.core.errors import SourceError
from phase25.core.records import Record
from phase25.core.snippets import discover, source_sha256
from phase25.site.kinds.assemble import render_markdown
from phase25.site.kinds.call_map import steps
from phase25.site.page.context import Page
from phase25.site.page.highlight import Highlighter

OUTPUT = (
    "y = head(x)\n"
    "  function mode sees: torch.nn.functional.linear(Tensor, Parameter, Parameter)\n"
    "  MKL's log: SGEMM(T,N,600,2,64)\n"
    "  winner: cpp_gemm 0.1 ms\n"
)
SECTION = "theory/a.md#walk"
GOOD = f"""\
# Title

::: map page/m cpu
    1. [The module calls F.linear]({SECTION})
       `function mode sees: torch.nn.functional.linear(Tensor, Parameter, Parameter)`
    2. [MKL computes]({SECTION}) `MKL's log: SGEMM(T,N,600,2,64)`

::: snippet page/m
"""


@pytest.fixture
def render(toy):
    """Render a page of the toy project whose snippet page/m printed OUTPUT (one line of it volatile)."""
    toy.add("page/m", "print(1)\n", extra='volatile = ["^\\\\s*winner: "]')
    snippet = discover(toy.layout)[0]
    made = {"source_sha256": source_sha256(snippet, toy.layout), "env_key": environment.env_key(snippet, "cpu")}
    run = {"date": "2026-12-03", "wall_s": 1.0, "git_commit": "abcdef1234567", "mode": "fresh"}
    records.save(
        toy.layout,
        Record("page/m", "cpu", **made, status="ok", exit_code=0, stdout=OUTPUT, stderr="", provenance={}, run=run),
    )
    theory = toy.root / "docs" / "en" / "theory" / "a.md"
    theory.parent.mkdir(parents=True)
    theory.write_text("# A\n\n## The walk { #walk }\n\nText.\n", encoding="utf-8")

    def page(markdown: str) -> tuple[str, list[str]]:
        view = Page("en", "docs/en/index.md", Catalog(toy.layout, "2.13.0"), Highlighter())
        html, problems = render_markdown(markdown, view)
        return html, [f"{p.line}: {p.message}" for p in problems]

    return page


def with_step(step: str) -> str:
    """GOOD with its second step replaced."""
    return GOOD.replace(f"    2. [MKL computes]({SECTION}) `MKL's log: SGEMM(T,N,600,2,64)`", step)


def test_a_map_draws_its_steps_in_a_frame_each_with_its_link_and_its_line(render):
    html, problems = render(GOOD)
    assert problems == []
    frame = html[html.index('<div class="call-map"') : html.index('<div class="snippet"')]
    assert frame.count("<li>") == 2 and '<a href="theory/a.md#walk">The module calls F.linear</a>' in frame
    assert "<code>MKL's log: SGEMM(T,N,600,2,64)</code>" in frame
    assert "phase25-body" not in html  # the body moved into the frame, no marker left behind


def test_a_quote_indented_in_the_output_matches_its_stripped_line_and_only_a_whole_line(render):
    assert render(with_step(f"    2. [MKL]({SECTION}) `SGEMM(T,N,600,2,64)`"))[1] == [
        "6: step 2 of the map quotes `SGEMM(T,N,600,2,64)`, which is only part of a line of the output: "
        "quote the whole line"
    ]
    _, problems = render(with_step(f"    2. [MKL]({SECTION}) `MKL's log: SGEMM(T,N,600,2,64) `"))
    assert problems == ["6: step 2 of the map quotes `MKL's log: SGEMM(T,N,600,2,64) `, which is no line of the output"]


@pytest.mark.parametrize(
    ("step", "expected"),
    [
        (f"    2. [MKL]({SECTION}) `MKL's log: DGEMM(T,N,600,2,64)`", "which is no line of the output"),
        (f"    2. [Winner]({SECTION}) `winner: cpp_gemm 0.1 ms`", "a line marked volatile"),
        (f"    2. [Masked]({SECTION}) `{VOLATILE}`", "which is no line of the output"),
        (f"    2. [MKL]({SECTION}) MKL's log: SGEMM(T,N,600,2,64)", "0 backticks"),
        (f"    2. [MKL]({SECTION}) `y = head(x)` and `MKL's log: SGEMM(T,N,600,2,64)`", "4 backticks"),
        (f"    2. [MKL]({SECTION}) ``MKL's log: SGEMM(T,N,600,2,64)``", "4 backticks"),
        (f"    2. [MKL]({SECTION}) `y = head(x)` \\`", "3 backticks"),
        ("    2. MKL computes `y = head(x)`", "has no link to the section"),
        ("    2. [MKL](https://example.org/#x) `y = head(x)`", "not to a section of the site"),
        ("    2. [MKL](theory/a.md) `y = head(x)`", "not to a section of the site"),
        ("    2. [MKL](theory/b.md#walk) `y = head(x)`", "docs/en/theory/b.md is no page"),
        ("    2. [MKL](theory/a.md#run) `y = head(x)`", "declares no section { #run }"),
        ("    2. [MKL][ref] `y = head(x)`", "has no link to the section"),
        (f"    2. [MKL]({SECTION}) `y = head(x)` <code>hand-written</code>", "raw HTML"),
        (f"    2. [MKL]({SECTION}) `y = head(x)` ![a line](shot.png)", "an image"),
        (f"    2. [MKL]({SECTION}) `y = head(x)` {{: .highlight }}", "an attribute list"),
        (f"    2. [MKL]({SECTION}) `y = head(x)`\n       - `hand-written`", "holds no list"),
        (f"    2. [MKL]({SECTION}) `y = head(x)`\n       > quoted", "holds no list, quote"),
        (f"    2. [MKL]({SECTION}) `y = head(x)`\n       !!! note", "holds no list"),
        (f'    2. [MKL]({SECTION}) `y = head(x)`\n       --8<-- "page/m.py"', "a file inclusion"),
        (f"    2. [MKL]({SECTION}) `#!python y = head(x)`", "inline highlighting"),
        (f"    2. [MKL]({SECTION}) `y = head(x)`\n\n            hand-written", "no blank line"),
        (f"    3. [MKL]({SECTION}) `y = head(x)`", "should be numbered 2"),
        (f"    - [MKL]({SECTION}) `y = head(x)`", "one numbered list"),
    ],
)
def test_a_step_that_is_not_a_link_beside_a_whole_stable_line_is_refused_with_its_line(render, step, expected):
    _, problems = render(with_step(step))
    assert problems, step
    assert any(expected in p for p in problems), problems
    assert all(p.split(":")[0].isdigit() and int(p.split(":")[0]) >= 4 for p in problems), problems


def test_a_paragraph_before_the_list_is_refused(render):
    _, problems = render(GOOD.replace("    1. [The module", "    Words first, `y = head(x)`.\n    1. [The module"))
    assert "4: a map's body is one numbered list" in problems[0]


def test_a_map_of_an_unknown_snippet_a_missing_device_or_a_missing_record_is_refused(render, toy):
    assert render(GOOD.replace("::: map page/m cpu", "::: map page/nope cpu"))[1][0] == (
        "3: '::: map page/nope cpu': no such (snippet, device)"
    )
    assert "no such (snippet, device)" in render(GOOD.replace("::: map page/m cpu", "::: map page/m cuda"))[1][0]
    records.record_path(toy.layout, "page/m", "cpu").unlink()
    assert any("the record is missing; a map quotes a current record" in p for p in render(GOOD)[1])


def test_a_map_needs_a_body_and_two_arguments(render):
    with pytest.raises(SourceError, match="has no text"):
        render("::: map page/m cpu\n\nText.\n")
    with pytest.raises(SourceError, match=r"needs: ::: map <page>/<name> <device>"):
        render("::: map page/m\n    1. [a](theory/a.md#walk) `y = head(x)`\n")
    with pytest.raises(SourceError, match="the device must be one of"):
        render("::: map page/m gpu\n    1. [a](theory/a.md#walk) `y = head(x)`\n")


def test_a_map_stands_on_a_page_that_shows_its_snippet_and_only_once(render):
    problems = render(GOOD.replace("::: snippet page/m\n", ""))[1]
    assert any(p.endswith("a map of page/m, which this page does not show") for p in problems), problems
    twice = GOOD + "\n" + GOOD[GOOD.index("::: map") : GOOD.index("::: snippet")]
    assert any("one map of a record per page" in p for p in render(twice)[1])


def test_the_list_is_read_with_continuation_lines_and_page_lines():
    found, problems = steps(
        textwrap.dedent("""\
        1. [a](x.md#s)
           `one`
        2. [b](x.md#s) `two`"""),
        10,
    )
    assert problems == [] and [(s.number, s.line) for s in found] == [(1, 10), (2, 12)]
    assert found[0].text == "[a](x.md#s) `one`"
