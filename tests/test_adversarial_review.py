"""The upgrade's review checklist (``reports/drift/<name>.review.md``): a box's format, a renamed page and a re-run
of the review must neither hide an unticked box nor lose a ticked one (``site/page/review.py``).

The checklist is a file a reviewer edits by hand, in an editor that may re-indent a list or change its bullets;
whatever it does, a box the build cannot read as one is an error naming the file and line, never a box skipped.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from phase25.core import drift
from phase25.core.errors import SourceError
from phase25.site.page import review

BOX = "docs/en/theory/p.md · snippet theory/a (cpu) · real"


def checklist(root: Path, *lines: str) -> Path:
    path = root / drift.REPORTS / f"torch-2.12.0-to-2.13.0{review.SUFFIX}"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("# Review\n\n" + "\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_an_unticked_box_is_found_with_its_file_and_line(tmp_path):
    checklist(tmp_path, f"- [x] {BOX.replace('theory/a', 'theory/b')}", f"- [ ] {BOX}")
    [(item, box)] = review.unticked(tmp_path).items()
    assert (item.page, item.kind, item.snippet, item.device) == ("docs/en/theory/p.md", "snippet", "theory/a", "cpu")
    assert (box.checklist, box.line) == (f"{drift.REPORTS}/torch-2.12.0-to-2.13.0{review.SUFFIX}", 4)


@pytest.mark.parametrize(
    "line",
    [f"  - [ ] {BOX}", f"* [ ] {BOX}", f"+ [ ] {BOX}", f"-  [ ] {BOX}", f"1. [ ] {BOX}", f"\t- [ ] {BOX}"],
    ids=["indented", "star", "plus", "two-spaces", "numbered", "tab"],
)
def test_a_box_in_another_list_format_is_an_error_never_a_box_skipped(tmp_path, line):
    checklist(tmp_path, line)
    with pytest.raises(SourceError) as caught:
        review.unticked(tmp_path)
    assert caught.value.line == 3 and "is not a review box" in caught.value.message


@pytest.mark.parametrize("line", [f"- [y] {BOX}", f"- [ ]{BOX}", f"- [ ] {BOX.replace('(cpu)', '(cpu')}"])
def test_a_damaged_box_is_an_error_naming_the_file_and_line(tmp_path, line):
    checklist(tmp_path, line)
    with pytest.raises(SourceError, match="is not a review box") as caught:
        review.unticked(tmp_path)
    assert caught.value.path.endswith(review.SUFFIX) and caught.value.line == 3


def test_an_unticked_box_whose_page_was_renamed_is_a_problem_of_the_checklist(tmp_path):
    checklist(tmp_path, f"- [ ] {BOX}")
    assert review.stale_boxes(tmp_path) == [
        f"{drift.REPORTS}/torch-2.12.0-to-2.13.0{review.SUFFIX}:3: docs/en/theory/p.md has no snippet theory/a any more"
    ]
    page = tmp_path / "docs" / "en" / "theory" / "p.md"
    page.parent.mkdir(parents=True)
    page.write_text("# P\n\n::: snippet theory/a\n", encoding="utf-8")
    assert review.stale_boxes(tmp_path) == []
