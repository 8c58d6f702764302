"""A note holds wherever its record is re-made: it may not quote a line that changes with the machine.

A snippet declares such lines ``volatile`` (an autotuner's timings, the instruction set oneDNN picks
when uncapped). A note that quoted one passed on the machine that made the record and was refused on
the next machine that re-made it, an AMD EPYC without AVX-512. Here every record with volatile lines
is re-made as another machine would print it (each volatile line says something else after the part
its pattern matches), and every page that shows it must still render without a problem.
"""

from __future__ import annotations

import dataclasses
import re
import shutil
from pathlib import Path

from phase25.core import records
from phase25.core.catalog import Catalog, installed_torch
from phase25.core.paths import Layout
from phase25.core.records import Record
from phase25.site.kinds.assemble import render_markdown
from phase25.site.page.context import Page
from phase25.site.page.highlight import Highlighter

REPO = Path(__file__).resolve().parents[1]
TORCH = installed_torch()  # the torch the committed records were made with: the pin, installed by setup
OTHER = " ⟨printed otherwise by another machine⟩"


def as_another_machine(text: str, patterns: list[re.Pattern[str]]) -> str:
    """Each volatile line keeps what its pattern matched; the rest is what another machine printed."""
    lines = []
    for line in text.split("\n"):
        found = next((m for m in (p.search(line) for p in patterns) if m), None)
        lines.append(line[: found.end()] + OTHER if found else line)
    return "\n".join(lines)


def remade_elsewhere(record: Record, volatile: tuple[str, ...]) -> Record:
    patterns = [re.compile(p) for p in volatile]
    ranks = [
        {**r, "stdout": as_another_machine(r["stdout"], patterns), "stderr": as_another_machine(r["stderr"], patterns)}
        for r in record.ranks
    ]
    return dataclasses.replace(
        record,
        stdout=as_another_machine(record.stdout, patterns),
        stderr=as_another_machine(record.stderr, patterns),
        ranks=ranks,
        provenance={**record.provenance, "device_name": "AMD EPYC (another machine)"},
    )


def test_every_note_holds_on_a_machine_whose_volatile_lines_differ(tmp_path):
    here = Catalog(Layout.of(REPO), TORCH)
    shutil.copytree(REPO / "records", tmp_path / "records")
    elsewhere = Layout.of(REPO, records=tmp_path / "records")
    remade = []
    for (snippet_id, device), standing in sorted(here.standings.items()):
        volatile = here.snippets[snippet_id].header.volatile
        if volatile and standing.record is not None and device == "cpu":
            changed = remade_elsewhere(standing.record, volatile)
            assert changed.output() != standing.record.output(), f"{snippet_id}: no line matched its volatile patterns"
            records.save(elsewhere, changed)
            remade.append(snippet_id)
    assert "theory-01/bf16_uncapped" in remade, "the snippet whose note was refused on another machine"
    catalog = Catalog(elsewhere, TORCH)
    pages = [
        path
        for path in sorted((REPO / "docs").glob("*/**/*.md"))
        if any(f"::: snippet {s}\n" in path.read_text(encoding="utf-8") for s in remade)
    ]
    assert len(pages) >= 4, pages  # both languages of theory 01 and theory 03 at least
    for path in pages:
        lang = path.relative_to(REPO / "docs").parts[0]
        view = Page(lang, str(path.relative_to(REPO)), catalog, Highlighter())
        _, problems = render_markdown(path.read_text(encoding="utf-8"), view)
        assert [p.message for p in problems] == [], path


def test_a_note_that_quotes_a_volatile_line_is_refused_with_why(toy):
    toy.add(
        "page/machine", 'print("cap ALL | Intel AVX2")\nprint("rule holds: True")\n', extra='volatile = ["^cap ALL"]'
    )
    toy.run()
    view = Page("en", "docs/en/page.md", Catalog(toy.layout, TORCH), Highlighter())
    steady = "::: snippet page/machine\n\n::: note page/machine cpu\n    It says `rule holds: True`.\n"
    assert render_markdown(steady, view)[1] == []
    quoting = "::: snippet page/machine\n\n::: note page/machine cpu\n    It says `Intel AVX2`.\n"
    [problem] = render_markdown(quoting, view)[1]
    assert "quotes `Intel AVX2`, which only a line marked volatile shows" in problem.message
    made_up = "::: snippet page/machine\n\n::: note page/machine cpu\n    It says `Intel AVX-512`.\n"
    [problem] = render_markdown(made_up, view)[1]
    assert "quotes `Intel AVX-512`, which its output does not show" in problem.message
