"""Every record is checked before use, whatever its kind (SECURITY.md, principle 5): the atlas's entries too.

The atlas reads one JSON object per overload from its record's artifacts. A line that is not JSON, not an object,
or an object missing a field the page or the detail view reads, of another type, or with a value the atlas does
not know, is refused as a problem naming the artifact and its line, never a traceback; and whatever text an
entry holds lands escaped.
"""

from __future__ import annotations

import json

import pytest
from phase25.core import records
from phase25.site.kinds import atlas
from phase25.site.kinds.assemble import render_markdown
from test_atlas import lines, overload, page, with_an_atlas


@pytest.fixture
def atlas_project(toy):
    return with_an_atlas(toy)


def with_lines(toy, *content: str) -> None:
    record = records.load(toy.layout, "atlas/operators", "cpu")
    record.artifacts = {"atlas/aten-a.jsonl": "".join(content)}
    records.save(toy.layout, record)


BROKEN = {
    "not-json": ("{not json\n", "is not JSON"),
    "not-an-object": ("[1, 2]\n", "is not an object"),
    "no-name": (lines({k: v for k, v in overload("aten::x").items() if k != "name"}), "has no 'name'"),
    "no-kernels": (lines({k: v for k, v in overload("aten::x").items() if k != "kernels"}), "has no 'kernels'"),
    "no-composite": (lines({k: v for k, v in overload("aten::x").items() if k != "composite"}), "has no 'composite'"),
    "no-tags": (lines({k: v for k, v in overload("aten::x").items() if k != "tags"}), "has no 'tags'"),
    "name-a-number": (lines(overload(7)), "'name' cannot be '7'"),
    "kernels-a-list": (lines(overload("aten::x", kernels=["CPU"])), "'kernels' cannot be"),
    "unknown-composite": (lines(overload("aten::x", composite="<b>made up</b>")), "'composite' cannot be"),
    "unknown-inductor": (lines(overload("aten::x", inductor="magic")), "'inductor' cannot be 'magic'"),
    "tags-a-string": (lines(overload("aten::x", tags="core")), "'tags' cannot be 'core'"),
    "grad-fn-a-dict": (lines(overload("aten::x", grad_fn={"a": 1})), "'grad_fn' cannot be"),
}


@pytest.mark.parametrize("case", list(BROKEN))
def test_a_broken_atlas_entry_is_a_problem_naming_the_artifact_and_line_never_a_traceback(atlas_project, case):
    content, said = BROKEN[case]
    with_lines(atlas_project, lines(overload("aten::fine")), content)
    html, problems = render_markdown("::: atlas atlas/operators\n", page(atlas_project))
    assert len(problems) == 1, problems
    assert "its CPU record is refused: atlas/aten-a.jsonl, line 2" in problems[0].message
    assert said in problems[0].message
    assert "atlas-list" not in html  # nothing of the refused record is listed


def test_text_from_an_entry_lands_escaped_in_the_page_and_as_data_in_the_published_file(atlas_project):
    hostile = 'aten::x"><script>alert(1)</script>'
    with_lines(atlas_project, lines(overload(hostile, tags=['core" onmouseover="alert(1)'])))
    html, problems = render_markdown("::: atlas atlas/operators\n", page(atlas_project))
    assert problems == []
    assert "<script>alert" not in html and 'onmouseover="alert' not in html
    assert "aten::x&quot;&gt;&lt;script&gt;" in html
    record = records.load(atlas_project.layout, "atlas/operators", "cpu")
    published = json.loads(atlas.data_files(record)["atlas-data/cpu/aten-a.json"])
    assert list(published) == [hostile]  # data stays data: the detail view sets it as text, never as HTML
