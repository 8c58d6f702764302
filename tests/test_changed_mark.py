"""The "changed in X.Y" mark: derived from the drift report that ends at the torch the site is built with.

Tried the way a stale or stray report would mislead a reader: an unchanged output, a report that ends at
another release, no report at all, and a device the report does not name all leave no mark; the mark
that does show links, in the page's language, to the diff the drift page holds under that id.
"""

from __future__ import annotations

import json
import os

from phase25.core import drift, drift_derive, drift_rule
from phase25.core.catalog import Catalog
from phase25.site.kinds.assemble import render_markdown
from phase25.site.kinds.changed_mark import diff_id
from phase25.site.kinds.reports import drift_report
from phase25.site.page.context import Page
from phase25.site.page.highlight import Highlighter
from test_render import site  # noqa: F401  (the fixture: a toy snippet page/a with records, and a page renderer)

TORCH = "2.13.0"  # the torch the toy catalog says is installed (test_render's pages are built with it)


OUTPUT = {"status": "ok", "stdout": "a\n", "stderr": "", "artifacts": {}, "warnings": []}
TABLE = "aten::   implicit  CPU   CUDA  Meta\naddmm    .         yes   {cuda}     yes\n"


def side(torch: str, build: str | None = None) -> dict:
    return {"torch": torch, "build": build, "python": None, "date": None}


def whole(entries: list[dict], a: dict | None = None, b: dict | None = None) -> dict:
    """A report as drift.between writes it: every entry's kind, diff and warnings follow from its outputs."""
    found = {"schema": drift.SCHEMA, "devices": ["cpu"], "a": a or side(TORCH), "b": b or side(TORCH), "entries": []}
    for entry in entries:
        before, after = entry["output"]["a"], entry["output"]["b"]
        derived = drift_derive.derived(entry["state"], before, after, (), drift_rule.build_switch(found))
        failed = {"a": None, "b": None}
        found["entries"].append({"volatile": [], "source_sha256": failed, "failed": failed, **entry, **derived})
    return found


def entry(state: str, device: str = "cpu", before: dict = OUTPUT, after: dict | None = None) -> dict:
    after = after or ({**before, "stdout": "b\n"} if state == "changed" else before)
    return {"snippet": "page/a", "device": device, "state": state, "output": {"a": before, "b": after}}


def report(toy, name: str, state: str, device: str = "cpu") -> None:
    folder = toy.root / drift.REPORTS
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.json").write_text(json.dumps(whole([entry(state, device)])), encoding="utf-8")
    for lang in ("en", "es"):  # its drift page in each language, as upgrade writes it: the marks link there
        drift_page = toy.root / "docs" / lang / "reference" / f"drift-torch-{name.rsplit('-to-', 1)[-1]}.md"
        drift_page.parent.mkdir(parents=True, exist_ok=True)
        drift_page.write_text(f"# Drift\n\n::: drift-report {name}\n", encoding="utf-8")


def rendered(toy, lang: str = "en", where: str = "page.md", root: str = "") -> str:
    view = Page(lang, f"docs/{lang}/{where}", Catalog(toy.layout, TORCH), Highlighter(), site_root=root)
    html, problems = render_markdown("::: snippet page/a\n", view)
    assert problems == []
    return html


def test_a_changed_output_links_to_its_diff_in_the_pages_language(site, toy):  # noqa: F811
    record, _ = site
    record()
    record(device="cuda")
    report(toy, f"torch-2.12.0-to-{TORCH}", "changed")
    english = rendered(toy, "en", "theory/page.md", "../../")
    assert f'class="changed-mark" href="../../reference/drift-torch-{TORCH}/#{diff_id("page/a")}"' in english
    assert ">changed in 2.13<" in english and english.count("changed-mark") == 1, "one mark: the CPU output's"
    spanish = rendered(toy, "es", "theory/page.md", "../../../")
    assert f'href="../../../es/reference/drift-torch-{TORCH}/#diff-page-a"' in spanish and ">cambió en 2.13<" in spanish


def test_no_mark_for_an_unchanged_output_another_release_another_device_or_no_report(site, toy):  # noqa: F811
    record, _ = site
    record()
    assert "changed-mark" not in rendered(toy), "no report at all"
    report(toy, f"torch-2.12.0-to-{TORCH}", "unchanged")
    assert "changed-mark" not in rendered(toy), "unchanged"
    report(toy, f"torch-2.12.0-to-{TORCH}", "changed", device="cuda")
    assert "changed-mark" not in rendered(toy), "the CUDA output changed, not the CPU one"
    report(toy, f"torch-2.12.0-to-{TORCH}", "unchanged")
    report(toy, "torch-2.13.0-to-9.9.9", "changed")
    assert "changed-mark" not in rendered(toy), "a report that ends at another release says nothing of this one"


def test_the_drift_page_holds_the_id_inside_the_folded_diff(site, toy):  # noqa: F811
    record, _ = site
    record()
    from phase25.site.page.directives import Directive

    found = whole([entry("changed")])
    (toy.root / drift.REPORTS).mkdir(parents=True, exist_ok=True)
    (toy.root / drift.REPORTS / "r.json").write_text(json.dumps(found), encoding="utf-8")
    view = Page("en", "docs/en/reference/r.md", Catalog(toy.layout, TORCH), Highlighter())
    html = drift_report(Directive(1, "", "drift-report", ("r",)), view).html
    details = html[html.index("<details") :]
    target = details.index(f'id="{diff_id("page/a")}"')
    assert details.index("</summary>") < target < details.index("</details>"), "the target is inside the fold"


def test_an_output_only_the_build_changed_is_marked_as_the_builds_not_the_releases(site, toy):  # noqa: F811
    """Moving from the CPU-only wheel to the CUDA build filled in CUDA rows; "changed in 2.15" called that a
    change of the release."""
    record, _ = site
    record()
    folder = toy.root / drift.REPORTS
    folder.mkdir(parents=True, exist_ok=True)
    report(toy, f"torch-2.12.0-to-{TORCH}", "changed")  # its drift pages; the report itself is written below
    filled = entry(
        "changed",
        before={**OUTPUT, "stdout": TABLE.format(cuda=".  ")},
        after={**OUTPUT, "stdout": TABLE.format(cuda="yes")},
    )
    cases = (
        ("2.12.0+cpu", ">changed with the CUDA build<", ">cambió con el build CUDA<"),
        ("2.12.0+cu130", ">changed in 2.13<", ">cambió en 2.13<"),  # both CUDA builds: the release changed it
    )
    for stamp, (before, english, spanish) in enumerate(cases, 1):
        found = whole([filled], side("2.12.0", before), side(TORCH, f"{TORCH}+cu132"))
        assert found["entries"][0]["kind"] == ("build" if before.endswith("+cpu") else "real")
        (folder / f"torch-2.12.0-to-{TORCH}.json").write_text(json.dumps(found))
        os.utime(folder, ns=(stamp * 10**9, stamp * 10**9))  # the folder's time tells the cache to read again
        assert english in rendered(toy) and spanish in rendered(toy, "es"), before
