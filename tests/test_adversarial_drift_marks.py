"""Drift reports as build input, where the "changed in X.Y" marks come from (``site/kinds/changed_mark.py``).

A report in reports/drift/ is a file anyone can edit, merge badly or replace by a link. Whatever it is, the build
names the file and stops, never a traceback, never a mark that points at a diff no drift page shows.
"""

from __future__ import annotations

import pytest
from phase25.core import drift
from phase25.core.catalog import Catalog
from phase25.core.errors import SourceError
from phase25.site.kinds.assemble import render_markdown
from phase25.site.page.context import Page
from phase25.site.page.highlight import Highlighter
from test_changed_mark import TORCH, report
from test_render import site  # noqa: F401  (the fixture: a toy snippet page/a with records, and a page renderer)

NAME = f"torch-2.12.0-to-{TORCH}"


def render(toy) -> str:
    view = Page("en", "docs/en/page.md", Catalog(toy.layout, TORCH), Highlighter(), site_root="")
    html, problems = render_markdown("::: snippet page/a\n", view)
    assert problems == []
    return html


@pytest.mark.parametrize(
    "text",
    [
        "{",
        "[]",
        '{"entries": 3}',
        '{"entries": [{"snippet": 7, "device": "cpu", "state": "changed"}]}',
        '{"entries": [{"device": "cpu", "state": "changed"}]}',
        '{"entries": ["changed"]}',
    ],
    ids=["not-json", "a-list", "entries-not-a-list", "snippet-not-a-name", "no-snippet", "entry-not-a-table"],
)
def test_a_damaged_report_stops_the_build_naming_it_never_a_traceback(site, toy, text):  # noqa: F811
    record, _ = site
    record()
    folder = toy.root / drift.REPORTS
    folder.mkdir(parents=True)
    (folder / f"{NAME}.json").write_text(text, encoding="utf-8")
    with pytest.raises(SourceError) as caught:
        render(toy)
    assert caught.value.path == f"{drift.REPORTS}/{NAME}.json" and "no drift report" in caught.value.message


def test_a_report_reached_through_a_link_is_refused_and_not_read(site, toy, tmp_path):  # noqa: F811
    record, _ = site
    record()
    report(toy, "elsewhere", "changed")
    folder = toy.root / drift.REPORTS
    (folder / f"{NAME}.json").symlink_to(folder / "elsewhere.json")
    with pytest.raises(SourceError, match="symbolic link") as caught:
        render(toy)
    assert caught.value.path == f"{drift.REPORTS}/{NAME}.json"


def test_two_reports_ending_at_the_same_torch_are_refused_naming_both(site, toy):  # noqa: F811
    """A bad merge leaves two: which one's diffs the drift page shows is not the mark's to guess."""
    record, _ = site
    record()
    report(toy, NAME, "changed")
    report(toy, f"torch-2.11.0-to-{TORCH}", "unchanged")
    with pytest.raises(SourceError) as caught:
        render(toy)
    assert caught.value.path == f"{drift.REPORTS}/{NAME}.json"
    assert f"torch-2.11.0-to-{TORCH}.json" in caught.value.message


def test_an_extra_report_that_ends_elsewhere_marks_nothing(site, toy):  # noqa: F811
    record, _ = site
    record()
    report(toy, "torch-2.13.0-to-9.9.9", "changed")
    report(toy, "notes", "changed")
    assert "changed-mark" not in render(toy)
    report(toy, NAME, "changed")
    assert render(toy).count("changed-mark") == 1


@pytest.mark.parametrize("drift_page", ["missing", "another report", "a link"])
def test_a_mark_whose_drift_page_does_not_show_its_report_stops_the_build(site, toy, tmp_path, drift_page):  # noqa: F811
    """The mark links to the drift page of its language, at the diff of its report: with no such page, or a page
    that shows another report, or one reached through a link, it would point nowhere."""
    record, _ = site
    record()
    report(toy, NAME, "changed")
    shown = toy.root / "docs" / "en" / "reference" / f"drift-torch-{TORCH}.md"
    shown.unlink()
    if drift_page == "another report":
        shown.write_text("# Drift\n\n::: drift-report torch-2.11.0-to-2.12.0\n", encoding="utf-8")
    elif drift_page == "a link":
        (tmp_path / "page.md").write_text(f"::: drift-report {NAME}\n", encoding="utf-8")
        shown.symlink_to(tmp_path / "page.md")
    with pytest.raises(SourceError, match=f"drift-report {NAME}") as caught:
        render(toy)
    assert caught.value.path == f"docs/en/reference/drift-torch-{TORCH}.md"
