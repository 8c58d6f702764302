"""Drift reports: comparing two record folders, and the committed report of the last upgrade."""

from __future__ import annotations

import json

from conftest import REPO
from phase25 import drift
from phase25.paths import DEFAULT_LAYOUT, Layout


def test_compare_sorts_snippets_into_unchanged_changed_and_one_sided(toy, tmp_path):
    (toy.root / "value.txt").write_text("600")
    toy.add("page/same", "print('same')\n")
    toy.add("page/moves", "print(open(__file__.rsplit('/snippets/', 1)[0] + '/value.txt').read())\n")
    toy.run(records=tmp_path / "before")
    (toy.root / "value.txt").write_text("601")
    toy.add("page/new", "print('new')\n")
    toy.run(records=tmp_path / "after")
    before = Layout(toy.root, toy.layout.snippets, tmp_path / "before")
    after = Layout(toy.root, toy.layout.snippets, tmp_path / "after")
    report = drift.compare(before, after)
    states = {e["snippet"]: e["state"] for e in report["entries"]}
    assert states == {"page/same": "unchanged", "page/moves": "changed", "page/new": "only-b"}
    moved = next(e for e in report["entries"] if e["state"] == "changed")
    assert "--- stdout (before)" in moved["diff"] and "\n-600" in moved["diff"] and "\n+601" in moved["diff"]
    assert drift.problems(report) == []
    moved["diff"] = moved["diff"].replace("601", "602")  # a hand-edited report
    assert drift.problems(report) == ["page/moves: the diff does not follow from the embedded outputs"]


def test_the_committed_upgrade_report_is_consistent():
    reports = sorted((REPO / drift.REPORTS).glob("*.json"))
    assert reports, "no drift report committed"
    for path in reports:
        report = json.loads(path.read_text(encoding="utf-8"))
        assert drift.problems(report) == [], path.name
        assert report["a"]["torch"] != report["b"]["torch"]
        assert {e["state"] for e in report["entries"]} <= {"unchanged", "changed", "only-a", "only-b"}


def test_every_report_is_shown_on_a_page_in_both_languages():
    for path in sorted((REPO / drift.REPORTS).glob("*.json")):
        for lang in ("en", "es"):
            directive = f"::: drift-report {path.stem}"
            pages = [p for p in (REPO / "docs" / lang).rglob("*.md") if directive in p.read_text()]
            assert pages, f"{lang}: no page shows {path.stem}"
    assert DEFAULT_LAYOUT.root == REPO
