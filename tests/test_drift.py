"""Drift reports: comparing two record folders, classifying each change, and the committed report."""

from __future__ import annotations

import json

import pytest
from conftest import REPO
from phase25.core import (
    atlas_drift,
    compare,
    devices,
    drift,
    drift_diff,
    drift_readers,
    drift_rule,
    environment,
    records,
)
from phase25.core.catalog import Catalog
from phase25.core.errors import SourceError
from phase25.core.paths import Layout
from phase25.core.records import Record
from phase25.core.snippets import discover, source_sha256
from phase25.site.downloads import drift_files
from phase25.site.kinds.reports import drift_links, drift_report
from phase25.site.page.context import Page
from phase25.site.page.directives import Directive
from phase25.site.page.highlight import Highlighter
from test_render import CPU_PROVENANCE


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


# ---- The reader's drift page: failed sides, the build switch, header context, long diffs, links -----------------

CPU_ONLY, CUDA_BUILD = "2.13.0+cpu", "2.15.0+cu132"
TABLE = "aten::   implicit  CPU   CUDA  Meta\n{rows}\n"


def side(build: str) -> dict:
    return {"torch": build.split("+", maxsplit=1)[0], "build": build, "python": "3.11.7", "date": "2026-12-01"}


EMULATED = "sm90-codegen"
EMULATION = {name: f"the emulation's {name}" for name in devices.EMULATION_FIELDS}


def record_of(toy, snippet_id: str, out: dict, build: str, device: str = "cpu") -> Record:
    snippet = next(s for s in discover(toy.layout) if s.id == snippet_id)
    fields = {k: v for k, v in out.items() if k in ("status", "exit_code", "error", "stdout", "stderr", "artifacts")}
    emulation = EMULATION if devices.emulated(device) else {}
    return Record(
        snippet=snippet_id,
        device=device,
        source_sha256=source_sha256(snippet, toy.layout),
        env_key=environment.env_key(snippet, device),
        provenance={**CPU_PROVENANCE, **emulation, "torch": build.split("+", maxsplit=1)[0], "torch_build": build},
        run={"date": "2026-12-01", "wall_s": 1.0, "git_commit": "abcdef1234567", "mode": "fresh"},
        **fields,
    )


def made(toy, tmp_path, before: dict[str, dict], after: dict[str, dict], builds=(CPU_ONLY, CUDA_BUILD)) -> dict:
    """A report of two record folders holding the given outputs, the sides labelled with ``builds``."""
    for snippet_id in {**before, **after}:
        toy.add(snippet_id, "print('x')\n")
    for folder, outputs, build in (("a", before, builds[0]), ("b", after, builds[1])):
        layout = Layout(toy.root, toy.layout.snippets, tmp_path / folder)
        for snippet_id, out in outputs.items():
            records.save(layout, record_of(toy, snippet_id, out, build))
    return drift.between(
        Layout(toy.root, toy.layout.snippets, tmp_path / "a"), Layout(toy.root, toy.layout.snippets, tmp_path / "b")
    )


def test_a_snippet_that_fails_on_the_older_side_is_only_after_and_says_why(toy, tmp_path):
    """A snippet that calls an API only the new release has was compared as a changed output, its traceback
    against the new output; it is an "only after" entry that names the failure."""
    failed = {**output(""), "status": "failed", "exit_code": 1, "error": "raised AttributeError: no _grouped"}
    report = made(
        toy,
        tmp_path,
        {"page/new": failed, "page/same": output("x\n")},
        {"page/new": output("y\n"), "page/same": output("x\n")},
    )
    entry = next(e for e in report["entries"] if e["snippet"] == "page/new")
    assert (entry["state"], entry["kind"], entry["diff"]) == ("only-b", None, "")
    assert entry["failed"] == {"a": "raised AttributeError: no _grouped", "b": None}
    assert report["a"]["build"] == CPU_ONLY and drift.problems(report) == []
    entry["state"] = "changed"  # a hand-edited report that compares the failure
    assert "page/new: state 'changed' with an output on one side only" in drift.problems(report)


def emulated_report(toy, tmp_path, before: dict, after: dict) -> dict:
    """A report of two record folders where page/gpu declares only the emulated device and page/cpu the CPU."""
    toy.add("page/cpu", "print('x')\n")
    toy.add("page/gpu", "print('x')\n", devices=f'["{EMULATED}"]')
    for folder, out, build in (("a", before, "2.13.0"), ("b", after, "2.15.0")):
        layout = Layout(toy.root, toy.layout.snippets, tmp_path / folder)
        records.save(layout, record_of(toy, "page/cpu", output("same\n"), build))
        records.save(layout, record_of(toy, "page/gpu", out, build, EMULATED))
    return drift.between(
        Layout(toy.root, toy.layout.snippets, tmp_path / "a"), Layout(toy.root, toy.layout.snippets, tmp_path / "b")
    )


def test_an_emulated_output_that_changed_is_compared_on_its_own_device(toy, tmp_path):
    """The emulated records are re-made by an upgrade like the CPU's: a change in them is a changed entry."""
    report = emulated_report(toy, tmp_path, output("triton_poi_fused_0\n"), output("triton_poi_fused_1\n"))
    states = {(e["snippet"], e["device"]): (e["state"], e["kind"]) for e in report["entries"]}
    assert states == {("page/cpu", "cpu"): ("unchanged", None), ("page/gpu", EMULATED): ("changed", "real")}
    assert report["devices"] == list(devices.LOCAL) and drift.problems(report) == []


def test_an_emulated_run_that_failed_on_the_new_side_is_an_entry_that_says_why(toy, tmp_path):
    failed = {**output(""), "status": "failed", "exit_code": 1, "error": "raised Outdated: a Triton internal moved"}
    report = emulated_report(toy, tmp_path, output("triton_poi_fused_0\n"), failed)
    entry = next(e for e in report["entries"] if e["device"] == EMULATED)
    assert (entry["state"], entry["failed"]) == ("only-a", {"a": None, "b": "raised Outdated: a Triton internal moved"})


def test_a_cuda_column_filled_in_by_the_cuda_build_is_the_builds_change_not_the_releases():
    before = output(TABLE.format(rows="addmm    .         yes   .     yes"))
    after = output(TABLE.format(rows="addmm    .         yes   yes   yes"))
    assert compare.classify(before, after) == "real", "the line names no CUDA: the old rule calls it real"
    assert drift_rule.classify(before, after, (), switch=True) == "build"
    assert drift_rule.classify(before, after, (), switch=False) == "real", "same builds: no build to blame"
    other = output(TABLE.format(rows="addmm    yes       yes   yes   yes"))
    assert drift_rule.classify(before, other, (), switch=True) == "real", "a column that is not CUDA changed too"


def test_a_ranks_cuda_line_does_not_make_the_other_ranks_line_numbers_a_real_change():
    """Each rank's streams were compared as one JSON line: a profiler's new gpuGetDeviceCount line on a rank's
    stderr dropped that whole line on one side only, and every distributed snippet read "what the snippet shows"."""

    def ranks(*stderr: str) -> dict:
        return {
            **output(""),
            "ranks": [{"stdout": "ok\n", "stderr": err, "collectives": {"send": 1}} for err in stderr],
        }

    before = ranks("USDT: Handler.cpp:52] profiler_start\n", "USDT: Handler.cpp:52] profiler_start\n")
    gpu = (
        "USDT: Handler.cpp:39] profiler_start\nERROR: DeviceProperties.cpp:56] gpuGetDeviceCount failed with code 35\n"
    )
    after = ranks(gpu, gpu)
    assert compare.classify(before, after) == "real", "the old rule: one JSON line for all ranks"
    assert drift_rule.classify(before, after, (), switch=True) == "build"
    moved = ranks("USDT: Handler.cpp:39] profiler_start\n", "USDT: Handler.cpp:39] profiler_start\n")
    assert drift_rule.classify(before, moved, (), switch=True) == "line-numbers"
    other = {**after, "ranks": [{**after["ranks"][0], "stdout": "changed\n"}, after["ranks"][1]]}
    assert drift_rule.classify(before, other, (), switch=True) == "real"


def test_only_a_cpu_only_wheel_before_a_cuda_build_is_a_build_switch():
    assert drift_rule.build_switch({"a": side(CPU_ONLY), "b": side(CUDA_BUILD)})
    assert not drift_rule.build_switch({"a": side("2.14.1+cu132"), "b": side(CUDA_BUILD)})
    assert not drift_rule.build_switch({"a": side(CPU_ONLY), "b": side("2.15.0+cpu")})


def test_a_diff_near_the_top_of_its_stream_shows_the_header_line():
    rows = "\n".join(f"op{i}    .         yes   .     yes" for i in range(6))
    before = output(TABLE.format(rows=rows))
    after = output(TABLE.format(rows=rows.replace("op5    .", "op5    yes")))
    plain = compare.diff_outputs(before, after, "before", "after")
    assert "aten::" not in plain, "difflib's three lines of context leave the header out"
    diff = drift_diff.diff(before, after)
    assert "\n@@ -1,7 +1,7 @@\n aten::   implicit  CPU   CUDA  Meta\n op0 " in diff
    far = output("\n".join(f"line {i}" for i in range(40)))
    moved = output(far["stdout"].replace("line 35", "line 35!"))
    assert drift_diff.diff(far, moved) == compare.diff_outputs(far, moved, "before", "after"), "far down: as it was"


def atlas_output(*lines: dict) -> dict:
    return {**output("atlas\n"), "artifacts": {"atlas/operators.jsonl": "\n".join(json.dumps(x) for x in lines)}}


def test_kernels_a_cuda_build_registers_are_listed_apart_from_the_releases():
    a = atlas_output({"name": "aten::mm", "kernels": ["CPU"]}, {"name": "aten::abs", "kernels": ["CPU"]})
    b = atlas_output(
        {"name": "aten::mm", "kernels": ["CPU", "CUDA", "SparseCsrCUDA"]},
        {"name": "aten::abs", "kernels": ["CPU", "Meta"]},
    )
    found = atlas_drift.changes(a, b, switch=True)
    assert found["kernels_gained"] == {"aten::abs": ["Meta"]}
    assert found["kernels_gained_build"] == {"aten::mm": ["CUDA", "SparseCsrCUDA"]}
    assert atlas_drift.changes(a, b)["kernels_gained"]["aten::mm"] == ["CUDA", "SparseCsrCUDA"], "no switch"


@pytest.mark.parametrize("lang", ["en", "es"])
def test_an_atlas_category_that_changed_is_said_in_the_pages_language_not_by_its_id(lang):
    from phase25.site.kinds.drift_rows import atlas_changes
    from phase25.site.lang.strings import text

    a = atlas_output({"name": "aten::mm", "kernels": ["CPU"], "composite": "none", "inductor": "lowered"})
    b = atlas_output({"name": "aten::mm", "kernels": ["CPU"], "composite": "explicit-non-functional", "inductor": "x"})
    html = atlas_changes({"snippet": "atlas", "atlas": atlas_drift.changes(a, b)}, lang)
    said = [text(lang, "atlas_composite_none"), text(lang, "atlas_composite_explicit-non-functional")]
    assert f"<code>aten::mm</code>: {said[0]} → {said[1]}" in html
    assert f"<code>aten::mm</code>: {text(lang, 'atlas_inductor_lowered')} → <code>x</code>" in html, "unknown id kept"


def test_an_older_report_is_brought_to_this_schema_from_what_it_embeds():
    before = output(TABLE.format(rows="mm       .         yes   .     yes"))
    after = output(TABLE.format(rows="mm       .         yes   yes   yes"))
    entry = {
        "snippet": "p/a",
        "device": "cpu",
        "state": "changed",
        "kind": "real",
        "volatile": [],
        "diff": "x",
        "source_sha256": {"a": "s", "b": "s"},
        "output": {"a": before, "b": after},
        "atlas": None,
    }
    old = {"schema": 3, "device": "cpu", "a": side(CPU_ONLY), "b": side(CUDA_BUILD), "entries": [entry]}
    assert drift.problems(old) == ["schema 3, expected 4: compare again"]
    new = drift.rederived(old)
    assert drift.problems(new) == [] and new["entries"][0]["kind"] == "build"
    assert new["entries"][0]["diff"].startswith("--- stdout (before)\n+++ stdout (after)\n@@ -1,")


def drift_page(toy, report: dict, lang: str = "en", name: str = "torch-2.13.0-to-2.15.0"):
    """The report saved as ``name`` and rendered on docs/<lang>/reference/r.md of the toy project."""
    (toy.root / drift.REPORTS).mkdir(parents=True, exist_ok=True)
    (toy.root / drift.REPORTS / f"{name}.json").write_text(drift.dumps(report), encoding="utf-8")
    for code in ("en", "es"):
        (toy.root / "docs" / code / "reference").mkdir(parents=True, exist_ok=True)
        (toy.root / "docs" / code / "theory.md").write_text("::: snippet page/shown\n", encoding="utf-8")
    view = Page(lang, f"docs/{lang}/reference/r.md", Catalog(toy.layout, "2.15.0"), Highlighter(), site_root="../../")
    return drift_report(Directive(1, "", "drift-report", (name,)), view)


def page_report(toy, tmp_path) -> dict:
    """Four snippets: one shown on a page, one shown nowhere, an atlas whose diff is too long, a build switch."""
    many = [{"name": f"aten::op{i}", "kernels": ["CPU"], "schema": "x" * 200} for i in range(400)]
    gained = [{**x, "kernels": ["CPU", "CUDA"], "schema": "y" * 200} for x in many]
    before = {
        "page/shown": output("a\n"),
        "page/nowhere": output("b\n"),
        "page/atlas": atlas_output(*many),
        "page/table": output(TABLE.format(rows="mm       .         yes   .     yes")),
    }
    after = {
        "page/shown": output("a2\n"),
        "page/nowhere": output("b2\n"),
        "page/atlas": atlas_output(*gained),
        "page/table": output(TABLE.format(rows="mm       .         yes   yes   yes")),
    }
    return made(toy, tmp_path, before, after)


def test_the_drift_table_links_each_snippet_to_its_place_and_folds_its_diff_under_its_row(toy, tmp_path):
    report = page_report(toy, tmp_path)
    html = drift_page(toy, report).html
    assert '<table class="drift-report" tabindex="0" aria-label=' in html
    assert '<a href="../../theory/#snippet-page-shown"><code>page/shown</code></a>' in html
    assert "<td><code>page/nowhere</code></td>" in html, "no page shows it: its name, no link"
    target = html.index('id="diff-page-nowhere"')
    row = html.rindex('<tr class="drift-fold-row">', 0, target)
    assert html.index("<td><code>page/nowhere</code></td>") < row, "its fold is the row under its own"
    assert html.rindex("</details>", 0, target) < html.rindex("<details", 0, target), "the target is inside the fold"
    assert "snippet edited since" not in html


def test_a_diff_too_long_for_the_page_is_a_file_beside_it_linked_from_its_row(toy, tmp_path):
    report = page_report(toy, tmp_path)
    html = drift_page(toy, report).html
    atlas = next(e for e in report["entries"] if e["snippet"] == "page/atlas")
    assert len(atlas["diff"]) > drift_files.INLINE_DIFFS_BYTES and atlas["diff"].split("\n")[5][1:] not in html
    assert '<a href="../../drift/torch-2.13.0-to-2.15.0/page-atlas.diff" download>' in html
    assert 'id="diff-page-atlas"' in html, "the changed mark still lands on its row"
    assert "400 overloads gained a kernel under a CUDA key" in html
    published = drift_files.files(toy.root)
    assert published == {"drift/torch-2.13.0-to-2.15.0/page-atlas.diff": atlas["diff"] + "\n"}
    assert len(html) < 40_000, len(html)


def test_the_reader_summary_sets_the_builds_changes_apart_under_its_rule_in_both_languages(toy, tmp_path):
    report = page_report(toy, tmp_path)
    english = drift_page(toy, report).html
    assert english.index('id="what-a-reader-notices"') < english.index('<table class="drift-report"')
    release = english[english.index('id="changed-with-the-release"') : english.index('id="changed-with-the-build"')]
    build = english[english.index('id="changed-with-the-build"') : english.index('<p class="drift-quiet"')]
    assert "page/shown" in release and "page/table" not in release
    assert "page/table" in build and "The rule: the older side is the CPU-only wheel" in build
    assert "Changed with the build, not the release: 2.13.0+cpu → 2.15.0+cu132" in build
    spanish = drift_page(toy, report, "es").html
    assert "Cambios del build, no de la versión" in spanish and "La regla:" in spanish


def test_the_readers_lines_are_checked_against_the_report(toy, tmp_path):
    report = page_report(toy, tmp_path)
    readers = toy.root / drift.REPORTS / "torch-2.13.0-to-2.15.0.readers.toml"
    (toy.root / drift.REPORTS).mkdir(parents=True, exist_ok=True)
    line = '[[change]]\nsnippets = [{s}]\nen = "Why `x` matters."\nes = "Por qué importa `x`."\n'
    readers.write_text(
        "".join(line.format(s=s) for s in ('"page/shown", "page/nowhere"', '"page/atlas"', '"page/table"')),
        encoding="utf-8",
    )
    html = drift_page(toy, report).html
    assert "<li>Why <code>x</code> matters. — " in html and "Nobody has written" not in html
    readers.write_text(line.format(s='"page/shown", "page/table"'), encoding="utf-8")
    problems = [p.message for p in drift_page(toy, report).problems]
    assert any("line 1 mixes a change of the release with one of the build" in p for p in problems)
    assert any("has no line for page/atlas, which changed (real)" in p for p in problems)
    readers.write_text(line.format(s='"page/gone"'), encoding="utf-8")
    assert any(
        "names page/gone, which the report does not show changed" in p.message for p in drift_page(toy, report).problems
    )
    readers.write_text('[[change]]\nsnippets = ["page/shown"]\nen = "only English"\n', encoding="utf-8")
    with pytest.raises(SourceError, match=r"readers.toml:1: a change needs its line in every language; missing: es"):
        drift_readers.load(toy.root, "torch-2.13.0-to-2.15.0", ("en", "es"))
    readers.write_text('[[change]]\nsnippets = ["page/shown"\n', encoding="utf-8")
    with pytest.raises(SourceError, match=r"readers.toml:2: "):
        drift_readers.load(toy.root, "torch-2.13.0-to-2.15.0", ("en", "es"))


def test_the_execution_report_links_the_current_pins_drift_report_first(toy):
    folder = toy.root / drift.REPORTS
    folder.mkdir(parents=True)
    for b in ("2.14.1", "2.15.0"):
        (folder / f"torch-2.13.0-to-{b}.json").write_text("{}", encoding="utf-8")
        (toy.root / "docs" / "en" / "reference").mkdir(parents=True, exist_ok=True)
        (toy.root / "docs" / "en" / "reference" / f"drift-torch-{b}.md").write_text("x", encoding="utf-8")
    view = Page("en", "docs/en/reference/execution-report.md", Catalog(toy.layout, "2.15.0"), Highlighter())
    links = drift_links(view)
    current, earlier = links.index("drift-torch-2.15.0/"), links.index("drift-torch-2.14.1/")
    assert links.index("What the last upgrade changed") < current < links.index("Earlier reports") < earlier


def test_the_review_checklist_written_again_keeps_the_boxes_already_ticked(toy, tmp_path):
    """Making the pin's report again must not undo a review: a place already read against the same new output
    stays ticked, a place that shows a newly compared output is a new, unticked box."""
    from phase25.site.page import review

    report = page_report(toy, tmp_path)
    drift_page(toy, report)  # saves the report and the pages (docs/<lang>/theory.md shows page/shown)
    name = "torch-2.13.0-to-2.15.0"
    checklist = review.write(toy.root, name)
    first = checklist.read_text(encoding="utf-8")
    assert "- [ ] docs/en/theory.md · snippet page/shown (cpu) · real" in first
    checklist.write_text(first.replace("- [ ] docs/en/theory.md", "- [x] docs/en/theory.md"), encoding="utf-8")
    (toy.root / "docs" / "en" / "more.md").write_text("::: snippet page/nowhere\n", encoding="utf-8")
    (toy.root / "docs" / "en" / "theory.md").rename(toy.root / "docs" / "en" / "split.md")  # a page split
    again = review.write(toy.root, name).read_text(encoding="utf-8")
    assert "- [x] docs/en/split.md · snippet page/shown (cpu) · real" in again, "the prose moved with its snippet"
    assert "- [ ] docs/en/more.md · snippet page/nowhere (cpu) · real" in again
    assert "- [ ] docs/es/theory.md · snippet page/shown (cpu) · real" in again, "only what was ticked stays ticked"
