"""A long output, rendered in-process: its first and last lines and the lines the page quotes stay in view, each
run left out is a marker in the page's language, and the whole output is one click below, in every tab and rank."""

from __future__ import annotations

import re

import pytest
from phase25.core import environment, records
from phase25.core.catalog import Catalog
from phase25.core.records import Record
from phase25.core.snippets import discover, source_sha256
from phase25.site.kinds.assemble import render_markdown
from phase25.site.kinds.long_output import HEAD_LINES, TAIL_LINES
from phase25.site.page.context import Page
from phase25.site.page.highlight import Highlighter

PROVENANCE = {"python": "3.11.7", "torch": "2.13.0", "device_name": "AMD EPYC", "cpu_capability": "AVX2"}


@pytest.fixture
def site(toy):
    """A toy snippet page/a (CPU) whose record each test writes, and a page rendered around it."""
    toy.add("page/a", "print('hi')\n")

    def record(stdout: str = "", stderr: str = "", **extra) -> None:
        snippet = discover(toy.layout)[0]
        records.save(
            toy.layout,
            Record(
                snippet="page/a",
                device="cpu",
                source_sha256=source_sha256(snippet, toy.layout),
                env_key=environment.env_key(snippet, "cpu"),
                status="ok",
                exit_code=0,
                stdout=stdout,
                stderr=stderr,
                provenance=PROVENANCE,
                run={"date": "2026-11-30", "wall_s": 1.0, "git_commit": "abcdef1234567", "mode": "fresh"},
                **extra,
            ),
        )

    def page(markdown: str, lang: str = "en") -> str:
        view = Page(lang, f"docs/{lang}/page.md", Catalog(toy.layout, "2.13.0"), Highlighter())
        html, problems = render_markdown(markdown, view)
        assert not problems, [p.message for p in problems]
        return html

    return record, page


def numbered(n: int, prefix: str = "line") -> str:
    return "".join(f"{prefix} {i:03d}\n" for i in range(1, n + 1))


def cut_boxes(html: str) -> list[str]:
    """The text of each cut box (the one shown above its fold), markers included."""
    found = re.findall(r'<pre><code[^>]*>(.*?)</code></pre></div><details class="quote snippet-long"', html, re.S)
    return [re.sub(r"<[^>]+>", "", box) for box in found]


def folds(html: str) -> list[str]:
    """The text of each whole output, folded under its cut box."""
    found = re.findall(r'<details class="quote snippet-long">.*?<code[^>]*>(.*?)</code>', html, re.S)
    return [re.sub(r"<[^>]+>", "", box) for box in found]


def test_an_output_of_24_lines_is_shown_whole(site):
    record, page = site
    record(stdout=numbered(24))
    html = page("::: snippet page/a\n")
    assert "snippet-long" not in html and "snippet-gap" not in html
    assert all(f"line {i:03d}" in html for i in range(1, 25))


def test_an_output_of_26_lines_shows_its_first_and_last_lines_and_a_marker(site):
    record, page = site
    record(stdout=numbered(26))
    html = page("::: snippet page/a\n")
    (box,) = cut_boxes(html)
    left_out = 26 - HEAD_LINES - TAIL_LINES
    assert box.split("\n") == [
        *(f"line {i:03d}" for i in range(1, HEAD_LINES + 1)),
        f"… {left_out} lines …",
        *(f"line {i:03d}" for i in range(27 - TAIL_LINES, 27)),
    ]
    assert "<summary data-search-exclude>The whole output: 26 lines</summary>" in html
    assert folds(html) == [numbered(26).rstrip("\n")]


def test_a_200_line_output_keeps_the_line_a_note_quotes_in_its_middle(site):
    record, page = site
    lines = numbered(200).split("\n")
    lines[99] = "loss 6.2254 | the line the note explains"
    record(stdout="\n".join(lines))
    html = page("::: snippet page/a\n\n::: note page/a cpu\n    The loss, `loss 6.2254`, is printed once.\n")
    (box,) = cut_boxes(html)
    shown = box.split("\n")
    assert "loss 6.2254 | the line the note explains" in shown
    assert shown.count("line 099") == 0 and "… 91 lines …" in shown and "… 96 lines …" in shown
    assert len(folds(html)[0].split("\n")) == 200  # the whole output stays in the page


def test_a_quote_found_twice_keeps_both_lines_and_one_found_everywhere_keeps_none(site):
    """The prose after the snippet quotes one line found twice and a name found on every line."""
    record, page = site
    lines = numbered(60).split("\n")
    lines[20] = lines[40] = "Recompiling function head"
    record(stdout="\n".join(lines))
    html = page("::: snippet page/a\n\nIt says `Recompiling function head` twice; every `line` is numbered.\n")
    (box,) = cut_boxes(html)
    shown = box.split("\n")
    assert shown.count("Recompiling function head") == 2
    assert "line 030" not in shown  # `line` names every line: it keeps none


def test_stdout_and_stderr_are_each_cut_and_prose_past_the_next_snippet_keeps_nothing(site, toy):
    record, page = site
    record(stdout=numbered(30, "out"), stderr=numbered(40, "err"))
    html = page(
        "::: snippet page/a\n\nSee `err 020` in the traceback.\n\n## Next\n\nAnd `out 015`, in another section.\n"
    )
    out_box, err_box = cut_boxes(html)
    assert "err 020" in err_box.split("\n") and "out 015" not in out_box.split("\n")
    assert '<p class="snippet-stream">stdout</p>' in html and '<p class="snippet-stream">stderr</p>' in html
    assert len(folds(html)) == 2


def test_each_rank_tab_is_cut_by_the_same_rule(site):
    record, page = site
    ranks = [{"stdout": numbered(50, f"rank{r}"), "stderr": "", "collectives": {"all_reduce": 1}} for r in range(2)]
    record(stdout="", ranks=ranks)
    html = page("::: snippet page/a\n\n::: note page/a cpu\n    Rank 1 prints `rank1 030`.\n")
    rank0, rank1 = cut_boxes(html)
    assert "rank1 030" in rank1.split("\n") and "rank0 030" not in rank0.split("\n")
    assert "… 38 lines …" in rank0.split("\n")


def test_the_marker_and_the_fold_speak_spanish_on_a_spanish_page(site):
    record, page = site
    record(stdout=numbered(26))
    html = page("::: snippet page/a\n", "es")
    assert f"… {26 - HEAD_LINES - TAIL_LINES} líneas …" in cut_boxes(html)[0].split("\n")
    assert "<summary data-search-exclude>La salida entera: 26 líneas</summary>" in html
