"""Real `mkdocs build --strict` of both languages, and of copies broken on purpose."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import REPO
from phase25 import records
from phase25.paths import Layout, copy_project
from site_build import build

pytestmark = pytest.mark.slow


def read(site: Path, page: str) -> str:
    return (site / page).read_text(encoding="utf-8")


def test_both_languages_build_with_tabs_and_provenance(built_site):
    for page, code_label in (("index.html", "Code"), ("es/index.html", "Código")):
        html = read(built_site, page)
        assert html.count('class="snippet"') == 6, page
        assert f">{code_label}</label>" in html
        assert "Ran on CPU" in html or "Ejecutado en CPU" in html
        assert "AddmmBackward0 object at 0x&lt;addr&gt;" in html
    assert "Not captured on a GPU yet" in read(built_site, "index.html")
    assert "Aún no capturado en una GPU" in read(built_site, "es/index.html")


def test_labs_render_as_notebooks_in_both_languages_with_a_download(built_site):
    for page, title in (("labs/01-autograd-by-hand/index.html", "Lab 01 — Autograd by hand"),
                        ("es/labs/01-autograd-by-hand/index.html", "Laboratorio 01 — Autograd a mano")):
        html = read(built_site, page)
        assert '"cells":' not in html, "raw notebook JSON instead of a rendered page"
        assert html.count("jp-Cell") > 10 and title in html
        assert "largest absolute error" in html and "gradcheck: True" in html
        assert (built_site / page).with_name("01-autograd-by-hand.ipynb").exists()


def test_published_reports_are_in_the_site_and_linked(built_site):
    report = built_site / "snippet-files/theory-03/tlparse_report/cpu/tlparse/index.html"
    assert report.exists() and "<html" in report.read_text(encoding="utf-8").lower()
    for page in ("theory/03-compile-and-distributed/index.html", "es/theory/03-compile-and-distributed/index.html"):
        assert "snippet-files/theory-03/tlparse_report/cpu/tlparse/index.html" in read(built_site, page)


def test_the_drift_report_renders_in_both_languages(built_site):
    for page, word in (("reference/drift-torch-2.14.1/index.html", "changed"),
                       ("es/reference/drift-torch-2.14.1/index.html", "cambiaron")):
        html = read(built_site, page)
        assert word in html and html.count('<tr class="drift-') >= 40
        assert "--- stdout (before)" in html  # the diffs, escaped, one click away
    assert "drift-torch-2.14.1/" in read(built_site, "reference/execution-report/index.html")


def test_outputs_are_the_records_not_a_second_execution(built_site):
    record = records.load(Layout.of(Path(__file__).resolve().parents[1]), "00-orientation/dispatch_keys", "cpu")
    first_line = record.stdout.splitlines()[0]
    assert first_line.split(":", 1)[1].strip() in read(built_site, "index.html")
    assert first_line.split(":", 1)[1].strip() in read(built_site, "es/index.html")


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
    assert '"base": "."' in es and '"base": "../.."' in read(built_site, "es/reference/execution-report/index.html")


def test_execution_report_lists_every_run_in_both_languages(built_site):
    for page, word in (
        ("reference/execution-report/index.html", "not captured yet"),
        ("es/reference/execution-report/index.html", "aún no capturado"),
    ):
        html = read(built_site, page)
        rows = re.findall(r"<tr class=\"report-(\w+)\">", html)
        pairs = [(s.id, d) for s in records.discover(Layout.of(REPO)) for d in s.header.devices]
        cuda = sum(1 for _, d in pairs if d == "cuda")
        assert len(rows) == len(pairs) and rows.count("current") == len(pairs) - cuda, page
        assert rows.count("missing") == cuda, page  # no CUDA capture on this machine yet
        assert word in html and "2.13.0" in html


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return copy_project(tmp_path / "project")


def test_stale_records_fail_the_strict_build_naming_page_snippet_and_device(project, tmp_path):
    layout = Layout.of(project)
    snippet_meta = next(s for s in records.discover(layout) if s.id == "00-orientation/linear_grad_fn")
    cpu = records.load(layout, snippet_meta.id, "cpu")
    # A stand-in CUDA record, in this scratch copy only: CI has no GPU to make one.
    records.save(
        layout, records.Record(**{**vars(cpu), "device": "cuda", "env_key": records.env_key(snippet_meta, "cuda")})
    )
    assert build(project, tmp_path / "ok").returncode == 0

    snippet = project / "snippets/00-orientation/linear_grad_fn.py"
    snippet.write_text(snippet.read_text() + "print('edited')\n")
    result = build(project, tmp_path / "stale")
    assert result.returncode != 0
    for device in ("cpu", "cuda"):
        assert f"docs/en/index.md: snippet 00-orientation/linear_grad_fn ({device}): stale record" in result.stderr
        assert f"docs/es/index.md: snippet 00-orientation/linear_grad_fn ({device}): stale record" in result.stderr

    preview = build(project, tmp_path / "preview", strict=False)
    assert preview.returncode == 0
    assert "Stale output" in read(tmp_path / "preview", "index.html")
    assert "Salida obsoleta" in read(tmp_path / "preview", "es/index.html")


def test_a_build_executes_each_stale_run_once_not_once_per_language(project, tmp_path):
    snippet = project / "snippets/00-orientation/dispatch_keys.py"
    snippet.write_text(snippet.read_text().replace('print("meta tensor:', 'print("a meta tensor:'))
    result = build(project, tmp_path / "site", execute=True)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stderr.count("executing 1 stale CPU run(s)") == 1
    assert "a meta tensor:" in read(tmp_path / "site", "index.html")
    assert "a meta tensor:" in read(tmp_path / "site", "es/index.html")
    again = build(project, tmp_path / "again", execute=True)
    assert "stale CPU run" not in again.stderr


def test_a_failing_snippet_fails_the_build(project, tmp_path):
    snippet = project / "snippets/00-orientation/linear_grad_fn.py"
    snippet.write_text(snippet.read_text() + "raise SystemExit(3)\n")
    result = build(project, tmp_path / "site", execute=True)
    assert result.returncode != 0
    assert "snippet 00-orientation/linear_grad_fn (cpu) failed: exited with status 3" in result.stderr
    assert "docs/en/index.md: snippet 00-orientation/linear_grad_fn (cpu): the recorded run failed" in result.stderr


def test_corrupt_record_missing_record_and_missing_translation_fail(project, tmp_path):
    (project / "records/00-orientation/dispatch_keys.cpu.json").write_text("{ not json")
    (project / "records/00-orientation/shape_mismatch.cpu.json").unlink()
    (project / "docs/es/reference/execution-report.md").unlink()
    result = build(project, tmp_path / "site")
    assert result.returncode != 0
    assert "snippet 00-orientation/dispatch_keys (cpu): record cannot be read" in result.stderr
    assert "snippet 00-orientation/shape_mismatch (cpu): no record" in result.stderr
    assert "es/reference/execution-report.md: missing translation" in result.stderr


def test_outdated_translation_shows_a_notice(project, tmp_path):
    english = project / "docs/en/index.md"
    english.write_text(english.read_text() + "\nA sentence added after the translation.\n")
    result = build(project, tmp_path / "site")
    assert result.returncode == 0, result.stderr[-3000:]
    html = read(tmp_path / "site", "es/index.html")
    assert "Traducción desactualizada" in html and 'href="../"' in html
