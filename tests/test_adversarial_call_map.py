"""Call-map steps (``::: map``): what a step's link may lead to, and what reading it may touch.

A step must lead to a section of a page of its own language that shows the line it quotes. A link is written by
a page author; followed carelessly it could make the build read (and vouch for) a file that is no page of the
site: a file of the repository beside the pages, a file outside the repository, one reached through a link.
"""

from __future__ import annotations

import pytest
from test_call_map import MKL, render, with_step  # noqa: F401  (the fixture: a toy map page and its theory page)

PAGE = "# Outside\n\n## Walk { #walk }\n\n::: snippet page/m\n"


@pytest.mark.parametrize(
    ("where", "link"),
    [
        ("README.md", "../../README.md#walk"),  # a file of the repository, no page of the site
        ("docs/es/theory/a.md", "../es/theory/a.md#walk"),  # a page of another language
        ("../outside.md", "../../../outside.md#walk"),  # outside the repository
    ],
    ids=["repository-file", "other-language", "outside-the-repository"],
)
def test_a_step_that_leads_out_of_its_languages_pages_is_refused_and_nothing_there_is_read(render, toy, where, link):  # noqa: F811
    target = toy.root / where
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(PAGE, encoding="utf-8")
    _, problems = render(with_step(f"    2. [MKL]({link}) {MKL}"))
    assert len(problems) == 1 and problems[0].startswith("10: step 2 of the map links to"), problems
    assert "no page of the site's" in problems[0], problems


def test_a_step_that_leads_to_a_page_through_a_link_is_refused(render, toy, tmp_path):  # noqa: F811
    elsewhere = tmp_path / "elsewhere.md"
    elsewhere.write_text(PAGE, encoding="utf-8")
    (toy.root / "docs" / "en" / "theory" / "alias.md").symlink_to(elsewhere)
    _, problems = render(with_step(f"    2. [MKL](theory/alias.md#walk) {MKL}"))
    assert len(problems) == 1 and "symbolic link" in problems[0], problems
