"""The upgrade's review checklist: computed from a drift report and the pages, and enforced by the build.

Each rule tried the way a hurried reviewer or a careless edit would get around it: an unticked box refuses
the build on the page and line it names, in either language; a ticked one lets it through; a box that does
not parse, or that points outside the pages, is an error with the checklist's line; a renamed page cannot
hide a review; only changed outputs are listed, each place once.
"""

from __future__ import annotations

import json

import pytest
from phase25.core import drift
from phase25.core.errors import SourceError
from phase25.site.page import review
from phase25.tools import upgrade
from test_render import site  # noqa: F401  (the fixture: a toy snippet page/a with records, and a page renderer)

PAGE = "docs/en/page.md"


def entry(snippet: str, state: str, kind: str | None = None, device: str = "cpu") -> dict:
    """An entry with a drift report's shape; what the checklist reads of it is its snippet, device, state and kind."""
    nothing = {"a": None, "b": None}
    return {
        **{"snippet": snippet, "device": device, "state": state, "kind": kind, "volatile": [], "diff": ""},
        **{"source_sha256": nothing, "failed": nothing, "output": nothing, "atlas": None},
        "warnings": {"new": [], "gone": []},
    }


def report(*entries: dict) -> dict:
    a, b = ({"torch": torch, "build": None, "python": None, "date": None} for torch in ("2.13.0", "2.15.0"))
    return {"schema": drift.SCHEMA, "devices": ["cpu"], "a": a, "b": b, "entries": list(entries)}


@pytest.fixture
def pages(tmp_path):
    (tmp_path / "docs" / "en").mkdir(parents=True)
    (tmp_path / "docs" / "es").mkdir(parents=True)
    (tmp_path / "reports" / "drift").mkdir(parents=True)
    body = (
        "# Page\n\n::: snippet page/a\n\n::: note page/a cpu\n    It prints `x`.\n\n::: snippet page/b\n\n"
        "```text\n::: snippet page/c\n```\n\n::: note page/a cuda\n    On a GPU.\n"
    )
    (tmp_path / "docs" / "en" / "page.md").write_text(body, encoding="utf-8")
    (tmp_path / "docs" / "es" / "page.md").write_text(body, encoding="utf-8")
    return tmp_path


def write_report(root, found: dict, name: str = "torch-2.13.0-to-2.15.0") -> str:
    (root / drift.REPORTS / f"{name}.json").write_text(json.dumps(found), encoding="utf-8")
    return name


def test_only_changed_outputs_are_listed_each_place_once_in_both_languages(pages):
    found = report(entry("page/a", "changed", "real"), entry("page/b", "unchanged"), entry("page/c", "changed", "real"))
    items = [item for item, _ in review.items(pages, found)]
    assert items == [
        review.Item("docs/en/page.md", "snippet", "page/a", "cpu"),
        review.Item("docs/en/page.md", "note", "page/a", "cpu"),
        review.Item("docs/es/page.md", "snippet", "page/a", "cpu"),
        review.Item("docs/es/page.md", "note", "page/a", "cpu"),
    ], "page/b is unchanged; page/c only appears inside a fence; the CUDA note's output did not change"


def test_the_checklist_names_its_report_and_every_box_starts_unticked(pages):
    name = write_report(pages, report(entry("page/a", "changed", "build")))
    checklist = review.write(pages, name)
    text = checklist.read_text(encoding="utf-8")
    assert text.startswith("# Review: torch 2.13.0 → 2.15.0\n") and f"`{name}`" in text
    assert text.count("- [ ] ") == 4 and "- [x]" not in text
    assert "- [ ] docs/en/page.md · note page/a (cpu) · build" in text
    assert set(review.unticked(pages)) == {item for item, _ in review.items(pages, drift.load(pages, name))}


def test_an_unticked_box_refuses_its_directive_and_a_ticked_one_lets_it_through(site, toy):  # noqa: F811
    record, page = site
    record()
    markdown = "::: snippet page/a\n\n::: note page/a cpu\n    It prints `y.shape: (2, 600)`.\n"
    checklist = toy.root / drift.REPORTS / "torch-a-to-b.review.md"
    checklist.parent.mkdir(parents=True)
    checklist.write_text(
        "# Review\n\n- [ ] docs/en/page.md · snippet page/a (cpu) · real\n- [ ] docs/en/page.md · note page/a (cpu)\n",
        encoding="utf-8",
    )
    _, problems = page(markdown)
    refused = {p.line: p.message for p in problems}
    assert set(refused) == {1, 3}
    assert refused[1].endswith("tick its box in reports/drift/torch-a-to-b.review.md line 3")
    assert refused[3].endswith("tick its box in reports/drift/torch-a-to-b.review.md line 4")
    _, problems_es = page(markdown, "es")
    assert problems_es == [], "the boxes name the English page; the Spanish one has its own boxes"
    checklist.write_text(checklist.read_text(encoding="utf-8").replace("- [ ]", "- [x]"), encoding="utf-8")
    assert page(markdown)[1] == []


@pytest.mark.parametrize(
    "line",
    [
        "- [ ] docs/en/../../../etc/passwd.md · note page/a (cpu)",  # outside the pages
        "- [ ] /etc/passwd · note page/a (cpu)",
        "- [ ] docs/en/page.md · quote page/a (cpu)",  # not a kind of place
        "- [ ] docs/en/page.md note page/a (cpu)",  # no separator
        "- [?] docs/en/page.md · note page/a (cpu)",
        "- [ ]docs/en/page.md · note page/a (cpu)",
    ],
)
def test_a_box_that_does_not_parse_is_an_error_with_its_file_and_line(pages, line):
    (pages / drift.REPORTS / "x.review.md").write_text(f"# Review\n\n{line}\n", encoding="utf-8")
    with pytest.raises(SourceError) as raised:
        review.unticked(pages)
    assert "reports/drift/x.review.md" in str(raised.value) and ":3" in str(raised.value)


def test_a_renamed_page_or_a_removed_note_cannot_hide_a_review(pages):
    name = write_report(pages, report(entry("page/a", "changed", "real")))
    review.write(pages, name)
    assert review.stale_boxes(pages) == []
    (pages / "docs" / "es" / "page.md").rename(pages / "docs" / "es" / "other.md")
    english = pages / "docs" / "en" / "page.md"
    english.write_text(english.read_text(encoding="utf-8").replace("::: note page/a cpu", "::: note page/b cpu"))
    stale = review.stale_boxes(pages)
    assert len(stale) == 3 and all(s.startswith(f"reports/drift/{name}.review.md:") for s in stale)
    assert any("docs/en/page.md has no note page/a" in s for s in stale)


def test_repin_moves_exactly_the_named_pin_and_keeps_its_comment():
    text = "torch==2.13.0  # the pin\ntorchvision==0.28.0\ntriton==3.6.0\nnumpy==2.4.6\n"
    moved = upgrade.repin(upgrade.repin(text, "torch", "2.15.0"), "triton", "3.9.0")
    assert moved == "torch==2.15.0  # the pin\ntorchvision==0.28.0\ntriton==3.9.0\nnumpy==2.4.6\n"
    with pytest.raises(ValueError, match="pins no triton"):
        upgrade.repin("torch==2.13.0\n", "triton", "3.9.0")


def test_review_refuses_to_run_before_the_pin_moved(tmp_path):
    (tmp_path / "requirements.txt").write_text("torch==2.13.0\n")
    with pytest.raises(ValueError, match="upgrade pin"):
        upgrade.review(tmp_path, "2.15.0")


def test_no_committed_checklist_has_a_box_for_a_place_that_is_gone():
    from conftest import REPO

    assert review.stale_boxes(REPO) == []


def test_a_map_quoting_a_changed_output_gets_a_box_and_its_box_parses_back(pages):
    """A map quotes one line of its record per step: a changed output puts it on the checklist like a note."""
    body = "# Page\n\n::: snippet page/a\n\n::: map page/a cpu\n    1. [Step](page.md#x) `y`\n"
    (pages / "docs" / "en" / "page.md").write_text(body, encoding="utf-8")
    name = write_report(pages, report(entry("page/a", "changed", "real")))
    items = [item for item, _ in review.items(pages, drift.load(pages, name))]
    assert review.Item("docs/en/page.md", "map", "page/a", "cpu") in items
    review.write(pages, name)
    assert review.Item("docs/en/page.md", "map", "page/a", "cpu") in review.unticked(pages)


def test_an_emulated_tab_and_its_note_get_a_box_when_the_emulated_output_changed(pages):
    """A snippet directive shows a tab per device: a changed emulated output puts it on the checklist, and so a
    note that quotes that output; the CPU note of the same snippet stays off it."""
    body = "# Page\n\n::: snippet page/a\n\n::: note page/a sm90-codegen\n    It emits `triton_poi`.\n"
    (pages / "docs" / "en" / "page.md").write_text(body, encoding="utf-8")
    (pages / "docs" / "es" / "page.md").unlink()
    name = write_report(pages, report(entry("page/a", "changed", "real", "sm90-codegen")))
    items = [item for item, _ in review.items(pages, drift.load(pages, name))]
    assert items == [
        review.Item("docs/en/page.md", "snippet", "page/a", "sm90-codegen"),
        review.Item("docs/en/page.md", "note", "page/a", "sm90-codegen"),
    ]
    review.write(pages, name)
    assert set(review.unticked(pages)) == set(items) and review.stale_boxes(pages) == []


def test_a_lab_cell_whose_record_changed_gets_a_box_and_an_unticked_one_stops_its_notebook(pages):
    from types import SimpleNamespace

    from phase25.site.downloads import labs

    (pages / "docs" / "en" / "labs").mkdir()
    lab = pages / "docs" / "en" / "labs" / "03-x.lab.md"
    lab.write_text("# Lab\n\n::: cell lab-03/x#setup\n\n::: cell lab-03/x#plan\n\n::: cell lab-03/h200\n")
    found = report(entry("lab-03/x", "changed", "real"), entry("lab-03/h200", "changed", "real", "sm90-codegen"))
    name = write_report(pages, found)
    items = [item for item, _ in review.items(pages, drift.load(pages, name))]
    assert items == [
        review.Item("docs/en/labs/03-x.lab.md", "cell", "lab-03/x#setup", "cpu"),
        review.Item("docs/en/labs/03-x.lab.md", "cell", "lab-03/x#plan", "cpu"),
        review.Item("docs/en/labs/03-x.lab.md", "cell", "lab-03/h200", "sm90-codegen"),
    ]
    checklist = review.write(pages, name)
    assert set(review.unticked(pages)) == set(items) and review.stale_boxes(pages) == []
    catalog = SimpleNamespace(layout=SimpleNamespace(root=pages))
    with pytest.raises(labs.LabError, match=r"03-x\.lab\.md: its cell lab-03/x#setup \(cpu\) shows an output"):
        labs.unreviewed(labs.Lab("en", lab), catalog, ["lab-03/x#setup"])  # type: ignore[arg-type]
    checklist.write_text(checklist.read_text(encoding="utf-8").replace("- [ ]", "- [x]"), encoding="utf-8")
    labs.unreviewed(labs.Lab("en", lab), catalog, ["lab-03/x#setup"])  # type: ignore[arg-type]


def test_the_review_written_again_keeps_its_ticked_boxes(pages):
    """``upgrade review`` run a second time (after a fix, a stop) wrote every box unticked again: a review done
    was lost. A box ticked stays ticked; the others stay open."""
    name = write_report(pages, report(entry("page/a", "changed", "real")))
    checklist = review.write(pages, name)
    text = checklist.read_text(encoding="utf-8")
    checklist.write_text(text.replace("- [ ] docs/en/page.md · note", "- [x] docs/en/page.md · note"))
    again = review.write(pages, name).read_text(encoding="utf-8")
    assert "- [x] docs/en/page.md · note page/a (cpu) · real" in again
    assert again.count("- [ ] ") == 3 and again.count("- [x] ") == 1
