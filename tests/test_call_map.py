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
from phase25.site.kinds.call_map import read
from phase25.site.page.context import Page
from phase25.site.page.highlight import Highlighter

OUTPUT = (
    "set-up: x (2, 64) requires_grad=False\n"
    "y = head(x)\n"
    "  function mode sees: torch.nn.functional.linear(Tensor, Parameter, Parameter)\n"
    "  MKL's log: SGEMM(T,N,600,2,64)\n"
    "  winner: cpp_gemm 0.1 ms\n"
    "loss.backward()\n"
    "  enter AddmmBackward0    grad_output [(2, 600)]\n"
)
# Another run, shown by the other sections of the theory page: the same call with other spaces, and the MKL line
# in a line the snippet declares volatile.
OTHER = (
    "function mode sees:    torch.nn.functional.linear(Tensor,   Parameter, Parameter)\n"
    "  MKL's log: SGEMM(T,N,600,2,64)\n"
)
THEORY = """\
# A

## Before { #before }

Words.

## The walk { #walk }

::: snippet page/m

### A detail { #detail }

::: snippet page/n

## Elsewhere { #elsewhere }

```text
  MKL's log: SGEMM(T,N,600,2,64)
## Fenced { #fenced }
::: snippet page/m
```

## Other run { #other }

::: snippet page/n

## Last { #last }

A paragraph that declares an id.
{ #paragraph }

::: snippet page/m
"""
SECTION = "theory/a.md#walk"
GOOD = f"""\
# Title

::: map page/m cpu
    `set-up: x (2, 64) requires_grad=False`

    Forward: `y = head(x)`

    1. [The module calls F.linear]({SECTION})
       `function mode sees: torch.nn.functional.linear(Tensor, Parameter, Parameter)`
    2. [MKL computes]({SECTION}) `MKL's log: SGEMM(T,N,600,2,64)`

    Backward: `loss.backward()`

    3. [The engine]({SECTION}) `enter AddmmBackward0    grad_output [(2, 600)]`

::: snippet page/m
"""


def _record(toy, snippet, stdout: str) -> None:
    made = {"source_sha256": source_sha256(snippet, toy.layout), "env_key": environment.env_key(snippet, "cpu")}
    run = {"date": "2026-12-03", "wall_s": 1.0, "git_commit": "abcdef1234567", "mode": "fresh"}
    records.save(
        toy.layout,
        Record(snippet.id, "cpu", **made, status="ok", exit_code=0, stdout=stdout, stderr="", provenance={}, run=run),
    )


@pytest.fixture
def render(toy):
    """Render a page of the toy project whose snippet page/m printed OUTPUT (one line of it volatile), beside a
    theory page whose sections show page/m, another run (page/n), or no output at all."""
    toy.add("page/m", "print(1)\n", extra='volatile = ["^\\\\s*winner: "]')
    toy.add("page/n", "print(2)\n", extra='volatile = ["^\\\\s*MKL"]')
    for snippet in discover(toy.layout):
        _record(toy, snippet, OUTPUT if snippet.id == "page/m" else OTHER)
    theory = toy.root / "docs" / "en" / "theory" / "a.md"
    theory.parent.mkdir(parents=True)
    theory.write_text(THEORY, encoding="utf-8")

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
    assert frame.count("<li>") == 3 and '<a href="theory/a.md#walk">The module calls F.linear</a>' in frame
    assert frame.count("<ol>") == 2 and frame.index("<p>Forward: ") < frame.index("<ol>")  # two groups, headed
    assert frame.index("<p><code>set-up: x (2, 64) requires_grad=False</code></p>") < frame.index("<p>Forward")
    assert "<code>MKL's log: SGEMM(T,N,600,2,64)</code>" in frame
    assert "phase25-body" not in html  # the body moved into the frame, no marker left behind


def test_a_quote_indented_in_the_output_matches_its_stripped_line_and_only_a_whole_line(render):
    assert render(with_step(f"    2. [MKL]({SECTION}) `SGEMM(T,N,600,2,64)`"))[1] == [
        "10: step 2 of the map quotes `SGEMM(T,N,600,2,64)`, which is only part of a line of the output: "
        "quote the whole line"
    ]
    _, problems = render(with_step(f"    2. [MKL]({SECTION}) `MKL's log: SGEMM(T,N,600,2,64) `"))
    assert problems == [
        "10: step 2 of the map quotes `MKL's log: SGEMM(T,N,600,2,64) `, which is no line of the output"
    ]


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
        (f"    2. [MKL]({SECTION}) `y = head(x)`\n\n            hand-written", "an indented block"),
        (f"    3. [MKL]({SECTION}) `y = head(x)`", "should be numbered 2"),
        (f"    - [MKL]({SECTION}) `y = head(x)`", "one numbered list"),
    ],
)
def test_a_step_that_is_not_a_link_beside_a_whole_stable_line_is_refused_with_its_line(render, step, expected):
    _, problems = render(with_step(step))
    assert problems, step
    assert any(expected in p for p in problems), problems
    assert all(p.split(":")[0].isdigit() and int(p.split(":")[0]) >= 4 for p in problems), problems


def test_words_right_above_a_list_are_refused(render):
    _, problems = render(GOOD.replace("    1. [The module", "    Words first, `y = head(x)`.\n    1. [The module"))
    assert "9: a map's line holds no list or block: leave one blank line before a list" in problems


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


def test_the_body_is_read_as_a_set_up_then_groups_numbered_on_with_continuation_lines_and_page_lines():
    body, problems = read(
        textwrap.dedent("""\
        `set`

        Forward `f`

        1. [a](x.md#s)
           `one`
        2. [b](x.md#s) `two`

        Backward `b`

        3. [c](x.md#s) `three`"""),
        10,
    )
    assert problems == []
    assert body.setup is not None and (body.setup.text, body.setup.line) == ("`set`", 10)
    assert [(h.text, [(s.number, s.line) for s in steps]) for h, steps in body.groups] == [
        ("Forward `f`", [(1, 14), (2, 16)]),
        ("Backward `b`", [(3, 20)]),
    ]
    assert body.steps[0].text == "[a](x.md#s) `one`"


SET_UP, FORWARD = "    `set-up: x (2, 64) requires_grad=False`\n", "    Forward: `y = head(x)`\n"
STEP_1 = f"    1. [F.linear]({SECTION}) `y = head(x)`\n"


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (STEP_1, "5: a map opens with its set-up line"),
        (SET_UP + "\n" + STEP_1, "7: these steps have no heading line above them"),
        (
            SET_UP + "\n" + FORWARD + "\n    Backward: `loss.backward()`\n\n" + STEP_1,
            "7: this heading line has no steps",
        ),
        (SET_UP + "\n" + FORWARD + "\n" + STEP_1 + "\n    Backward: `loss.backward()`\n", "11: this heading line has"),
        (
            SET_UP + "\n" + FORWARD + "\n" + STEP_1 + "\n" + FORWARD + "\n" + STEP_1,
            "13: step 1 of the map should be numbered 2",
        ),
        (
            SET_UP + "\n" + FORWARD + "\n" + STEP_1 + f"\n    2. [b]({SECTION}) `y = head(x)`\n",
            "11: these steps have no heading",
        ),
        (
            "    `x (2, 64)`\n\n" + FORWARD + "\n" + STEP_1,
            "5: the map's set-up line quotes `x (2, 64)`, which is only part",
        ),
        ("    The run.\n\n" + FORWARD + "\n" + STEP_1, "5: the map's set-up line holds 0 backticks"),
        (
            SET_UP + "\n    Forward: `y = head(x)` and `loss.backward()`\n\n" + STEP_1,
            "the heading line of a group holds 4",
        ),
        (
            SET_UP + "\n    Forward <b>now</b>: `y = head(x)`\n\n" + STEP_1,
            "7: the heading line of a group holds raw HTML",
        ),
        (SET_UP + "\n    Forward: `a line no run printed`\n\n" + STEP_1, "which is no line of the output"),
        (SET_UP, "5: a map has no steps"),
    ],
)
def test_a_body_that_is_not_a_set_up_then_headed_groups_numbered_on_is_refused_with_its_line(render, body, expected):
    _, problems = render(f"# Title\n\n::: map page/m cpu\n\n{body}\n::: snippet page/m\n")
    assert any(p.startswith(expected) or expected in p for p in problems), problems


MKL = "`MKL's log: SGEMM(T,N,600,2,64)`"
LINEAR = "`function mode sees: torch.nn.functional.linear(Tensor, Parameter, Parameter)`"


@pytest.mark.parametrize(
    ("anchor", "quote", "expected"),
    [
        ("walk", MKL, None),
        ("other", LINEAR, None),  # another run's line, with other spaces: the reader sees the same line
        ("detail", LINEAR, None),  # a subsection is part of its section
        ("before", MKL, "does not show `MKL's log: SGEMM(T,N,600,2,64)` (it shows no snippet)"),  # the next one does
        ("elsewhere", MKL, "(it shows no snippet)"),  # the line and a directive in fenced code show no output
        ("other", MKL, "(it shows page/n)"),  # there the line is one the snippet declares volatile
        ("detail", MKL, "(it shows page/n)"),
        ("fenced", MKL, "and docs/en/theory/a.md has no heading { #fenced }"),  # a heading in fenced code
        ("paragraph", MKL, "and docs/en/theory/a.md has no heading { #paragraph }"),  # an id, but no section
    ],
)
def test_a_step_leads_to_a_section_whose_own_output_shows_the_line_it_quotes(render, anchor, quote, expected):
    _, problems = render(with_step(f"    2. [MKL](theory/a.md#{anchor}) {quote}"))
    if expected is None:
        assert problems == []
    else:
        assert len(problems) == 1 and problems[0].startswith("10: step 2 of the map links to"), problems
        assert expected in problems[0], problems


def test_a_section_whose_record_is_stale_shows_nothing_a_step_can_lean_on(render, toy):
    assert render(with_step(f"    2. [F.linear](theory/a.md#other) {LINEAR}"))[1] == []
    toy.add("page/n", "print(3)\n", extra='volatile = ["^\\\\s*MKL"]')  # edited since its record was made
    _, problems = render(with_step(f"    2. [F.linear](theory/a.md#other) {LINEAR}"))
    assert any("whose section does not show" in p for p in problems), problems
