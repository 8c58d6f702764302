"""Drift reports: comparing two record folders, classifying each change, and the committed report."""

from __future__ import annotations

import json

import pytest
from conftest import REPO
from phase25.core import compare, drift
from phase25.core.paths import Layout


def output(stdout: str) -> dict:
    return {
        "status": "ok",
        "exit_code": 0,
        "error": None,
        "expected_error": None,
        "stdout": stdout,
        "stderr": "",
        "artifacts": {},
    }


def test_compare_sorts_snippets_into_unchanged_changed_and_one_sided(toy, tmp_path):
    (toy.root / "value.txt").write_text("600")
    toy.add("page/same", "print('same')\n")
    toy.add(
        "page/moves",
        "print(open(__file__.rsplit('/snippets/', 1)[0] + '/value.txt').read())\n",
        extra='deps = ["value.txt"]',
    )
    toy.run(records=tmp_path / "before")
    (toy.root / "value.txt").write_text("601")
    toy.add("page/new", "print('new')\n")
    toy.run(records=tmp_path / "after")
    report = drift.between(
        Layout(toy.root, toy.layout.snippets, tmp_path / "before"),
        Layout(toy.root, toy.layout.snippets, tmp_path / "after"),
    )
    states = {e["snippet"]: (e["state"], e["kind"]) for e in report["entries"]}
    assert states == {"page/same": ("unchanged", None), "page/moves": ("changed", "real"), "page/new": ("only-b", None)}
    moved = next(e for e in report["entries"] if e["state"] == "changed")
    assert "--- stdout (before)" in moved["diff"] and "\n-600" in moved["diff"] and "\n+601" in moved["diff"]
    assert drift.problems(report) == []
    moved["diff"] = moved["diff"].replace("601", "602")  # a hand-edited report
    assert drift.problems(report) == ["page/moves: the diff does not follow from the embedded outputs"]


@pytest.mark.parametrize(
    ("before", "after", "kind"),
    [
        (
            '  File "<site-packages>/torch/a.py", line 979, in f\n',
            '  File "<site-packages>/torch/a.py", line 1072, in f\n',
            "line-numbers",
        ),
        ("# _dynamo/output_graph.py:1135 in init\n", "# _dynamo/output_graph.py:1194 in init\n", "line-numbers"),
        ("graph\n", "graph\nW torch/utils/cpp_extension.py:183] No CUDA runtime is found\n", "build"),
        ("  CPU  RegisterCPU_0.cpp\n", "  CPU  RegisterCPU_0.cpp\n  CUDA  RegisterCUDA_0.cpp\n", "build"),
        ("snippets/p/a.py:16 in head\n", "snippets/p/a.py:17 in head\n", "real"),
        ("Inductor wrote a 163-line module\n", "Inductor wrote a 162-line module\n", "real"),
    ],
)
def test_each_change_is_classified_by_the_stated_rule(before, after, kind):
    assert compare.classify(output(before), output(after)) == kind


def test_a_change_in_lines_the_snippet_declares_volatile_is_its_own_kind():
    before, after = output("choices: 2\npicked a\n"), output("choices: 2\npicked b\n")
    assert compare.classify(before, after) == "real"
    assert compare.classify(before, after, ("^picked ",)) == "volatile"
    assert compare.classify(before, output("choices: 3\npicked b\n"), ("^picked ",)) == "real"


def test_the_committed_upgrade_reports_are_consistent_and_shown_in_both_languages():
    reports = sorted((REPO / drift.REPORTS).glob("*.json"))
    assert reports, "no drift report committed"
    for path in reports:
        report = json.loads(path.read_text(encoding="utf-8"))
        assert drift.problems(report) == [], path.name
        assert report["a"]["torch"] != report["b"]["torch"]
        assert {e["state"] for e in report["entries"]} <= {"unchanged", "changed", "only-a", "only-b"}
        for lang in ("en", "es"):
            directive = f"::: drift-report {path.stem}"
            assert [p for p in (REPO / "docs" / lang).rglob("*.md") if directive in p.read_text()], (lang, path.stem)
