"""Real ``mkdocs build --strict`` runs: the site itself, a copy broken on purpose, and a copy that executes.

Three builds in all; what a page renders is tested in-process in test_render.py.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from conftest import EARLY, REPO, early_result, start_niced
from phase25.core import environment, records
from phase25.core.catalog import Catalog
from phase25.core.paths import Layout, copy_project
from phase25.tools import build_site
from phase25.tools.build_site import build

pytestmark = pytest.mark.slow
CATALOG = Catalog.here(Layout.of(REPO))


def read(site: Path, page: str) -> str:
    return (site / page).read_text(encoding="utf-8")


def test_both_languages_build_with_code_outputs_and_provenance(built_site):
    for page, lang_word in (("index.html", "Ran on CPU"), ("es/index.html", "Ejecutado en CPU")):
        html = read(built_site, page)
        shown = re.findall(r'<div class="snippet" data-snippet="([^"]+)"', html)
        assert shown and shown == re.findall(r"^::: snippet (\S+)", (REPO / "docs/en/index.md").read_text(), re.M)
        assert html.count('class="snippet-code"') == len(shown) and lang_word in html
        assert "AddmmBackward0 object at 0x&lt;addr&gt;" in html
    assert "CUDA · not captured yet" in read(built_site, "index.html")
    assert "CUDA · aún no capturado" in read(built_site, "es/index.html")


def test_labs_render_as_notebooks_in_both_languages_with_a_download(built_site):
    for page, title in (
        ("labs/01-autograd-by-hand/index.html", "Lab 01 — Autograd by hand"),
        ("es/labs/01-autograd-by-hand/index.html", "Laboratorio 01 — Autograd a mano"),
    ):
        html = read(built_site, page)
        assert '"cells":' not in html, "raw notebook JSON instead of a rendered page"
        assert html.count("jp-Cell") > 10 and title in html
        assert "largest absolute error &lt; 1e-6: True" in html and "gradcheck: True" in html
        assert (built_site / page).with_name("01-autograd-by-hand.ipynb").exists()


def test_published_reports_are_in_the_site_and_linked(built_site):
    report = built_site / "snippet-files/theory-03/tlparse_report/cpu/tlparse/index.html"
    assert report.exists() and "<html" in report.read_text(encoding="utf-8").lower()
    for page in ("theory/03-inductor-and-export/index.html", "es/theory/03-inductor-and-export/index.html"):
        assert "snippet-files/theory-03/tlparse_report/cpu/tlparse/index.html" in read(built_site, page)


def test_the_drift_report_renders_in_both_languages_with_its_kinds(built_site):
    for page, word in (
        ("reference/drift-torch-2.14.1/index.html", "changed"),
        ("es/reference/drift-torch-2.14.1/index.html", "con cambios"),
    ):
        html = read(built_site, page)
        assert word in html and html.count('<tr class="drift-') >= 40 and 'class="drift-classes"' in html
        assert "--- stdout (before)" in html or "--- stderr (before)" in html  # the diffs, one click away
    assert "drift-torch-2.14.1/" in read(built_site, "reference/execution-report/index.html")


def test_navigation_switcher_and_search_are_translated(built_site):
    es = read(built_site, "es/index.html")
    assert "Orientación" in es and "Informe de ejecución" in es and 'lang="es"' in es
    en = read(built_site, "index.html")
    assert re.search(r'href="[^"]*es/"[^>]*hreflang="es"', en), "language switcher link to the Spanish page"
    spanish = json.loads(read(built_site, "es/search/search_index.json"))
    english = json.loads(read(built_site, "search/search_index.json"))
    assert "es" in spanish["config"]["lang"]
    assert spanish["docs"][0]["title"] == "00 — Por qué abrir el capó" and spanish["docs"][0]["location"] == ""
    assert not [d for d in spanish["docs"] if "Why open the hood" in d["title"]], "English hits in Spanish search"
    assert not [d for d in english["docs"] if "Por qué" in d["title"] or d["location"].startswith("es/")]


def test_execution_report_lists_every_run_in_both_languages(built_site):
    pairs = sorted(CATALOG.standings)
    cuda_missing = sum(1 for (_, d), f in CATALOG.standings.items() if d == "cuda" and f.state == "missing")
    for page, word in (
        ("reference/execution-report/index.html", "not captured yet"),
        ("es/reference/execution-report/index.html", "aún no capturado"),
    ):
        rows = re.findall(r"<tr class=\"report-(\w+)\">", read(built_site, page))
        assert len(rows) == len(pairs) and rows.count("missing") == cuda_missing, page
        assert rows.count("current") == len(pairs) - cuda_missing, page
        assert word in read(built_site, page)


def test_language_alternates_are_absolute_in_a_sitemap_per_language(built_site):
    import xml.etree.ElementTree as ET

    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}
    for sitemap, prefix in (("sitemap.xml", ""), ("es/sitemap.xml", "es/")):
        urls = ET.parse(built_site / sitemap).getroot().findall("s:url", ns)
        locs = [url.find("s:loc", ns).text for url in urls]
        assert len(urls) >= 10 and len(set(locs)) == len(locs)  # seven pages and three labs, each once
        assert all(("/es/" in loc) == (prefix == "es/") for loc in locs)  # each language's own pages only
        for url in urls:
            loc = url.find("s:loc", ns).text
            links = {a.get("hreflang"): a.get("href") for a in url.findall("x:link", ns)}
            assert loc.startswith("http") and links.keys() == {"en", "es", "x-default"}
            assert links[{"": "en", "es/": "es"}[prefix]] == loc and links["x-default"] == links["en"]
            assert all(href.startswith("http") for href in links.values())
    page = read(built_site, "es/theory/01-dispatcher-and-aten/index.html")
    assert 'hreflang="en"' in page and '<link rel="alternate"' not in page  # switcher links, no head alternates


def test_diagrams_are_drawn_at_build_time_and_no_page_loads_a_diagram_script(built_site):
    pages = [p for p in built_site.rglob("*.html") if "snippet-files" not in p.parts]
    loads = re.compile(r"<script[^>]+src=[^>]*mermaid", re.IGNORECASE)  # (notebooks carry an unused loader)
    assert pages and not [p for p in pages if loads.search(p.read_text(encoding="utf-8"))]
    html = read(built_site, "es/theory/01-dispatcher-and-aten/index.html")
    assert '<figure class="snippet-diagram"><svg' in html and "llama a" in html and "kernel matemático" in html
    assert not list(built_site.rglob("mermaid*.js"))


def start_broken(scratch: Path) -> dict[str, subprocess.Popen]:
    """A copy of the project with one of every mistake a strict build must refuse, its build started."""
    project = copy_project(scratch / "project")
    layout = Layout.of(project)
    catalog = Catalog.here(layout)
    cpu = catalog.standing("00-orientation/linear_grad_fn", "cpu").record
    snippet = catalog.snippets["00-orientation/linear_grad_fn"]
    # A stand-in CUDA record made for this test: CI has no GPU to make one.
    stand_in = {
        "device": "cuda",
        "env_key": environment.env_key(snippet, "cuda"),
        "provenance": {"device_name": "NVIDIA H200", "torch": "2.11.0", "cuda": "12.8", "python": "3.12.3"},
    }
    records.save(layout, records.Record(**{**vars(cpu), **stand_in}))
    (project / "snippets/00-orientation/linear_grad_fn.py").write_text(snippet.source + "print('edited')\n")
    (project / "records/00-orientation/dispatch_keys.cpu.json").write_bytes(b'{"schema": 2, "snippet": "caf\xc3')
    (project / "records/00-orientation/shape_mismatch.cpu.json").unlink()
    (project / "docs/es/reference/execution-report.md").unlink()
    failed = records.load(layout, "theory-02/formulas", "cpu")  # a failed run of a snippet no page shows
    records.save(layout, records.Record(**{**vars(failed), "status": "failed", "error": "exited with status 3"}))
    for lang in ("en", "es"):
        page = project / f"docs/{lang}/theory/02-autograd-and-custom-ops.md"
        page.write_text(
            re.sub(r"^::: snippet theory-02/formulas\n", "", page.read_text(), flags=re.M)
            + "\n[nowhere](#no-such-heading) and [elsewhere](../index.md#no-such-heading)\n"
        )
    argv, env = build_site.command(project, project / "site", quiet=True)  # --quiet once hid every warning
    return {"build": start_niced(argv, cwd=project, env=env)}


EARLY["broken"] = start_broken  # started at collection, beside the first tests (conftest.EarlyWork)


@pytest.fixture(scope="module")
def broken():
    """The broken copy and its strict build's result (started at collection)."""
    scratch, result = early_result("broken", "the broken copy's build")
    return scratch / "project", result


def test_a_strict_build_refuses_each_mistake_naming_page_snippet_and_device(broken):
    """Even with --quiet: MkDocs counts only the warnings it logs, and --quiet logged none."""
    _, result = broken
    log = result.stderr
    assert result.returncode != 0
    for device in ("cpu", "cuda"):
        for lang in ("en", "es"):
            assert re.search(
                rf"docs/{lang}/index.md:\d+: snippet 00-orientation/linear_grad_fn \({device}\): stale", log
            )
    assert re.search(
        r"snippet 00-orientation/dispatch_keys \(cpu\): record cannot be read: "
        r"records/00-orientation/dispatch_keys.cpu.json: not UTF-8 text",
        log,
    )
    assert re.search(r"snippet 00-orientation/shape_mismatch \(cpu\): no record", log)
    assert "es/reference/execution-report.md: missing translation" in log
    assert "record: snippets/theory-02/formulas.py (cpu): failed: exited with status 3" in log
    assert "#no-such-heading" in log and "contains a link" in log  # dead anchors, same page and another page
    assert "Traceback" not in log


def test_a_broken_preview_still_shows_what_it_has_with_banners_and_the_cuda_tab(broken):
    project, _ = broken
    html = read(project / "site", "index.html")
    assert "Stale output" in html and "Unreadable record" in html and "No output recorded" in html
    assert "Captured on NVIDIA H200 · torch 2.11.0 · CUDA 12.8" in html
    report = read(project / "site", "reference/execution-report/index.html")
    assert '<tr class="report-failed"><td><code>theory-02/formulas</code></td><td>CPU</td><td>failed</td>' in report


def start_executing(scratch: Path) -> dict[str, subprocess.Popen]:
    """A copy with one snippet edited, one that writes into the checkout and an emulated record gone (what a new
    machine or an upgrade meets: the lab that shows it cannot be written until it is re-made), its executing build
    started."""
    project = copy_project(scratch / "project")
    (project / "records/lab-03/inductor_h200.sm90-codegen.json").unlink()
    snippet = project / "snippets/00-orientation/dispatch_keys.py"
    snippet.write_text(snippet.read_text().replace('print("meta tensor:', 'print("a meta tensor:'))
    (project / "snippets/00-orientation/vandal.py").write_text(
        f"# /// snippet\n# ///\nopen({str(project / 'docs/assets/vandal.txt')!r}, 'w').write('x')\nprint('done')\n"
    )
    for lang in ("en", "es"):
        page = project / f"docs/{lang}/index.md"
        page.write_text(page.read_text() + "\n::: snippet 00-orientation/vandal\n")
    argv, env = build_site.command(project, scratch / "site", execute=True)
    return {"build": start_niced(argv, cwd=project, env=env)}


EARLY["executing"] = start_executing  # started at collection, beside the first tests (conftest.EarlyWork)


@pytest.fixture
def executing() -> tuple[Path, subprocess.CompletedProcess]:
    """The executing copy's scratch folder and its build's result (started at collection)."""
    return early_result("executing", "the executing copy's build")


def test_a_build_executes_each_stale_run_once_and_refuses_a_snippet_that_writes_into_the_checkout(executing):
    scratch, result = executing
    project = scratch / "project"
    assert result.stderr.count("executing 3 stale run(s) of this machine (cpu, sm90-codegen)") == 1
    assert "Traceback" not in result.stderr and "LabError" not in result.stderr
    assert (project / "records/lab-03/inductor_h200.sm90-codegen.json").is_file(), "the emulated record re-made"
    # The runs that overlapped the write are all suspects (the emulated run too, when it ran beside the vandal).
    blamed = re.search(
        r"((?:[\w/-]+ \([\w-]+\)(?: or )?)+) changed files of the checkout while running: docs/assets/vandal.txt",
        result.stderr,
    )
    assert result.returncode != 0 and blamed and "00-orientation/vandal (cpu)" in blamed[1], result.stderr[-3000:]
    assert "a meta tensor:" in read(scratch / "site", "index.html")
    assert "a meta tensor:" in read(scratch / "site", "es/index.html")
    (project / "docs/assets/vandal.txt").unlink()
    again = build(project, scratch / "again", execute=True)
    assert "stale run" not in again.stderr and again.returncode == 0, again.stderr[-2000:]


def test_an_outdated_translation_shows_a_notice(tmp_path):
    """In-process: the notice is rendered by the adapter from the translation's freshness."""
    from phase25.site.lang import translations

    docs = tmp_path / "docs"
    for lang in ("en", "es"):
        (docs / lang).mkdir(parents=True)
    (docs / "en/index.md").write_text("# Title\n\nA sentence added after the translation.\n")
    (docs / "es/index.md").write_text("---\ntranslation_of: 000000000000\n---\n# Título\n")
    assert translations.freshness(docs, "index.md", "es").startswith("translates English revision 000000000000")

    notice = translations.notice(docs, "es/index.md", "es/")
    assert "Traducción desactualizada" in notice and 'href="../"' in notice
    assert translations.notice(docs, "en/index.md", "") == ""  # an original carries none


def test_the_spanish_pages_hold_none_of_the_themes_english_and_the_404_no_double_slash(built_site):
    english = ("Permanent link", "Copied!", "Copy to Clipboard", "Teclee", "Made with", 'aria-label="Code"')
    pages = sorted((built_site / "es").rglob("index.html"))
    assert len(pages) >= 10
    for page in pages:
        html = page.read_text(encoding="utf-8")
        assert [w for w in english if w in html] == [], page.relative_to(built_site)
    assert 'title="Enlace permanente"' in read(built_site, "es/theory/01-dispatcher-and-aten/index.html")
    not_found = read(built_site, "404.html")
    assert not re.findall(r'href="(?!https?:)[^"]*//', not_found)
