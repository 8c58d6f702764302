"""The casebook: every case has its four parts and an exercise with an executed solution, in both languages."""

from __future__ import annotations

import pytest
from conftest import REPO
from phase25.site.page import directives, page_source

PARTS = ("symptom", "where", "why", "fix", "exercise")
PAGES = [REPO / "docs" / lang / "casebook.md" for lang in ("en", "es")]


def case_problems(text: str) -> list[str]:
    """What a case lacks: a part heading, its snippet before the symptom, or an exercise with an executed solution."""
    heads = page_source.headings(text)
    lines = text.splitlines()
    cases = [ident for level, _, ident in heads if level == 2 and ident not in (None, "read-next")]
    problems = [] if cases else ["no case"]
    for case in cases:
        ids = [ident for level, _, ident in heads if level == 3 and ident and ident.startswith(case + "-")]
        if ids != [f"{case}-{part}" for part in PARTS]:
            problems.append(f"{case}: parts {ids}, expected {[f'{case}-{p}' for p in PARTS]}")
            continue
        start = next(i for i, line in enumerate(lines) if line.startswith("## ") and "{ #" + case + " }" in line)
        symptom = next(i for i, line in enumerate(lines) if "{ #" + case + "-symptom }" in line)
        exercise = next(i for i, line in enumerate(lines) if "{ #" + case + "-exercise }" in line)
        end = next((i for i, line in enumerate(lines) if i > exercise and line.startswith("## ")), len(lines))
        shown = [d.args[0] for d in directives.parse("\n".join(lines[start:symptom])) if d.kind == "snippet"]
        if not any(s.startswith("casebook/") for s in shown):
            problems.append(f"{case}: no casebook snippet before its symptom")
        block = "\n".join(lines[exercise:end])
        solutions = [d.args[0] for d in directives.parse(block) if d.kind == "snippet"]
        if "!!! question" not in block or "??? success" not in block or not solutions:
            problems.append(f"{case}: its exercise has no question, no folded solution or no executed snippet")
    return problems


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.parent.name)
def test_every_case_has_its_parts_and_an_executed_exercise(page):
    text = page.read_text(encoding="utf-8")
    assert case_problems(text) == []
    assert len([h for h in page_source.headings(text) if h[0] == 2 and h[2] != "read-next"]) >= 4


def test_a_case_without_a_part_or_an_executed_solution_is_named():
    text = (REPO / "docs" / "en" / "casebook.md").read_text(encoding="utf-8")
    without_why = text.replace("### Why { #no-gradient-why }", "### Why")
    assert case_problems(without_why) == [
        "no-gradient: parts ['no-gradient-symptom', 'no-gradient-where', 'no-gradient-fix', 'no-gradient-exercise'],"
        " expected ['no-gradient-symptom', 'no-gradient-where', 'no-gradient-why', 'no-gradient-fix',"
        " 'no-gradient-exercise']"
    ]
    unexecuted = text.replace("    ::: snippet casebook/exercise_half_stable\n", "")
    assert case_problems(unexecuted) == [
        "half-precision: its exercise has no question, no folded solution or no executed snippet"
    ]
