"""CUDA tabs that explain themselves, rendered in-process: which output tabs Material may link, what a tab still
waiting for its GPU run says to a reader in each language, how a snippet that runs only on a GPU is shown before
it has run, and which boxes that scroll sideways a keyboard can reach.

Material's ``content.tabs.link`` links every ``[data-tabs]`` set by the text of its labels, across pages and
languages, and remembers the choice. A set with a pending tab must never be one of them: a click on its empty
CUDA tab would hide every CPU output of the site. The browser proves the clicks
(tests/test_browser_interactions.py); these tests prove the markup the browser relies on, in milliseconds.
"""

from __future__ import annotations

import re

import pytest
from phase25.core import environment, records
from phase25.core.catalog import Catalog
from phase25.core.records import Record
from phase25.core.snippets import discover, source_sha256
from phase25.site.kinds.assemble import render_markdown
from phase25.site.page.context import Page
from phase25.site.page.highlight import Highlighter

PROVENANCE = {
    "cpu": {"python": "3.11.7", "torch": "2.13.0", "device_name": "AMD EPYC", "cpu_capability": "AVX2", "threads": 2},
    "cuda": {"python": "3.12.3", "torch": "2.11.0", "cuda": "12.8", "device_name": "NVIDIA H200"},
}
WIDE = "x" * 41  # wider than a phone's column (PHONE_COLUMNS): its box scrolls on a phone
SENTENCE = {
    "en": "This snippet has not been run on a GPU yet, and the site shows only output recorded from real runs",
    "es": "Este fragmento aún no se ha ejecutado en una GPU, y el sitio solo muestra salidas registradas",
}
PENDING_LABEL = {"en": "CUDA · not captured yet", "es": "CUDA · aún no capturado"}


@pytest.fixture
def tabs(toy):
    """Three snippets: page/both (CPU and CUDA), page/cpu (CPU only), page/gpu (CUDA only, a long harness)."""
    toy.add("page/both", "print('both')\n", devices='["cpu", "cuda"]')
    toy.add("page/cpu", "print('cpu')\n")
    toy.add("page/gpu", "".join(f"x{i} = {i}\n" for i in range(80)), devices='["cuda"]')

    def record(snippet_id: str, device: str = "cpu", stdout: str = "out\n", **extra) -> Record:
        snippet = next(s for s in discover(toy.layout) if s.id == snippet_id)
        made = Record(
            **{
                "snippet": snippet_id,
                "device": device,
                "source_sha256": source_sha256(snippet, toy.layout),
                "env_key": environment.env_key(snippet, device),
                "status": "ok",
                "exit_code": 0,
                "stdout": stdout,
                "stderr": "",
                "provenance": PROVENANCE[device],
                "run": {"date": "2026-12-01", "wall_s": 1.0, "git_commit": "abcdef1234567", "mode": "fresh"},
                **extra,
            }
        )
        records.save(toy.layout, made)
        return made

    def page(markdown: str, lang: str = "en"):
        view = Page(lang, f"docs/{lang}/page.md", Catalog(toy.layout, "2.13.0"), Highlighter())
        return render_markdown(markdown, view)

    return record, page


def tab_sets(html: str) -> dict[str, dict]:
    """Each snippet's output tab set: whether Material links it, its labels, its panels' text, its code."""
    found = {}
    for block in re.split(r'(?=<div class="snippet" data-snippet=)', html)[1:]:
        snippet_id = re.match(r'<div class="snippet" data-snippet="([^"]+)"', block).group(1)
        tab_set = re.search(r'<div class="tabbed-set tabbed-alternate snippet-outputs[^>]*>', block).group(0)
        found[snippet_id] = {
            "linked": "data-tabs=" in tab_set,
            "unlinked_class": "snippet-unlinked" in tab_set,
            "labels": re.findall(r'<label for="__snippet_\d+_\d">([^<]*)</label>', block),
            "panels": block.split('<div class="tabbed-block">')[1:],
            "code": block[: block.index(tab_set)],
        }
    return found


PAGE = "::: snippet page/both\n\n::: snippet page/cpu\n\n::: snippet page/gpu\n"


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_set_with_a_pending_tab_is_never_linked_and_its_label_says_so(tabs, lang):
    """Material links sets by label text: a pending set carries no data-tabs, and its label differs from a captured
    CUDA tab's, so neither a click on it nor one elsewhere (nor the remembered choice) reaches it."""
    record, page = tabs
    record("page/both")
    record("page/cpu")
    html, problems = page(PAGE, lang)
    assert problems == []
    sets = tab_sets(html)
    assert sets["page/both"]["labels"] == ["CPU", PENDING_LABEL[lang]]
    assert not sets["page/both"]["linked"] and sets["page/both"]["unlinked_class"]
    assert sets["page/gpu"]["labels"] == [PENDING_LABEL[lang]] and not sets["page/gpu"]["linked"]
    assert sets["page/cpu"]["labels"] == ["CPU"] and sets["page/cpu"]["linked"], "a set with every output links"
    assert 'checked id="__snippet_1_1"' in html, "the CPU output is open on load"


def test_a_captured_cuda_tab_next_to_pending_ones_links_only_with_sets_that_have_every_output(tabs):
    """The adversarial page: one snippet with a current CUDA record beside pending and CPU-only ones. Only the sets
    whose every tab shows a record are linked; the captured one is labelled plainly 'CUDA'."""
    record, page = tabs
    record("page/both")
    record("page/both", "cuda", stdout="kernel: sm90_xmma\n")
    record("page/cpu")
    markdown = PAGE + "\n::: snippet page/both\n"  # shown twice: both copies link, as Material expects
    html, problems = page(markdown.replace("::: snippet page/gpu\n", ""))
    assert problems == []
    captured = re.findall(r'<div class="tabbed-set tabbed-alternate snippet-outputs"( data-tabs="\d+:\d")>', html)
    assert captured == [' data-tabs="1:2"', ' data-tabs="2:1"', ' data-tabs="3:2"']
    assert tab_sets(html)["page/both"]["labels"] == ["CPU", "CUDA"]
    assert "not captured" not in html and "snippet-unlinked" not in html
    html, _ = page(PAGE)
    sets = tab_sets(html)
    assert sets["page/both"]["linked"] and sets["page/cpu"]["linked"] and not sets["page/gpu"]["linked"]


@pytest.mark.parametrize("state", ["stale", "failed"])
def test_a_cuda_tab_with_a_banner_is_not_linked_either(tabs, toy, state):
    """A stale or failed CUDA record (a local preview: a strict build refuses both) is no output to link to."""
    record, page = tabs
    record("page/both")
    record("page/both", "cuda", **({"status": "failed", "error": "boom"} if state == "failed" else {}))
    if state == "stale":
        toy.add("page/both", "print('edited')\n", devices='["cpu", "cuda"]')
        record("page/both")
    html, problems = page("::: snippet page/both\n")
    assert problems and not tab_sets(html)["page/both"]["linked"]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_pending_tab_speaks_to_the_reader_in_one_sentence_of_their_language(tabs, lang):
    """Why it is empty and what it will show, in the page's language; the page's own pending text follows it; not a
    word to a maintainer (the command that captures GPU records is in CONTRIBUTING.md)."""
    record, page = tabs
    record("page/both")
    body = {"en": "Once captured, this tab will show the kernel.", "es": "Cuando se capture, mostrará el kernel."}
    html, problems = page(f"::: snippet page/both\n\n::: pending page/both cuda\n    {body[lang]}\n", lang)
    assert problems == []
    pending = tab_sets(html)["page/both"]["panels"][1]
    sentence = re.search(r'<p class="snippet-pending">([^<]*)</p>', pending).group(1)
    assert sentence.startswith(SENTENCE[lang]) and sentence.count(". ") == 0 and sentence.endswith(".")
    assert pending.index("snippet-pending") < pending.index(body[lang])
    assert SENTENCE["es" if lang == "en" else "en"] not in html
    assert not re.search(r"make |gpu-records|[Mm]aintainer|mantienen", html)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_snippet_that_runs_only_on_a_gpu_folds_its_code_until_it_has_run(tabs, lang):
    """No output anywhere yet: the code folds under one line in the page's language, and the tab's sentence is
    shown outside the fold. Once its CUDA record lands the code is shown as every other snippet's."""
    record, page = tabs
    html, problems = page("::: snippet page/gpu\n", lang)
    assert problems == []
    gpu = tab_sets(html)["page/gpu"]
    summary = {"en": "Show the code: it needs a CUDA GPU", "es": "Mostrar el código: necesita una GPU con CUDA"}
    assert re.match(
        rf'<div class="snippet" data-snippet="page/gpu"><details class="quote snippet-waiting"><summary>'
        rf"{summary[lang]}",
        gpu["code"],
    )
    assert gpu["code"].count("</details>") >= 1 and "x79" in gpu["code"], "the code is folded, not dropped"
    assert SENTENCE[lang] in gpu["panels"][0]
    record("page/gpu", "cuda", stdout="graph launches: 1\n")
    html, _ = page("::: snippet page/gpu\n", lang)
    assert "snippet-waiting" not in html and tab_sets(html)["page/gpu"]["linked"]


def test_a_snippet_with_a_cpu_output_keeps_its_code_open_beside_a_pending_tab(tabs):
    record, page = tabs
    record("page/both")
    html, _ = page("::: snippet page/both\n")
    assert "snippet-waiting" not in html and "<details" not in tab_sets(html)["page/both"]["code"]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_an_output_that_can_scroll_sideways_is_a_named_region_a_keyboard_reaches(tabs, lang):
    """Wider than a phone's column: focusable, a region, named in the page's language after its snippet, device,
    stream and rank (each name unique on the page). A narrow output scrolls nowhere and is left alone."""
    record, page = tabs
    record("page/both", stdout=WIDE + "\n", stderr=WIDE + "\n")
    ranks = [{"stdout": WIDE + "\n", "stderr": "", "collectives": {"all_reduce": 1}}] * 2
    record("page/cpu", stdout="x" * 40 + "\n", ranks=ranks)
    html, _ = page("::: snippet page/both\n\n::: snippet page/cpu\n", lang)
    names = re.findall(r'<code tabindex="0" role="region" aria-label="([^"]+)">', html)
    out = {"en": "Output of", "es": "Salida de"}[lang]
    assert names == [
        f"{out} page/both (CPU) · stdout",
        f"{out} page/both (CPU) · stderr",
        f"{out} page/cpu (CPU) · rank 0",
        f"{out} page/cpu (CPU) · rank 1",
    ]
    assert len(set(names)) == len(names)
    assert html.count('role="region"') == 4, "the 40-column output fits a phone: no stop for the keyboard"


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_execution_report_tables_are_named_boxes_a_keyboard_reaches(tabs, lang):
    record, page = tabs
    record("page/both", warnings=[{"category": "UserWarning", "message": "m", "module": "torch"}])
    html, _ = page("::: execution-report\n", lang)
    tables = re.findall(r'<table class="(execution-[a-z]+)" tabindex="0" aria-label="([^"]+)">', html)
    name = {"en": "Every run and the state of its record", "es": "Cada ejecución y el estado de su registro"}
    assert [c for c, _ in tables] == ["execution-report", "execution-warnings"] and tables[0][1] == name[lang]
    assert tables[1][1].startswith({"en": "Warnings", "es": "Avisos"}[lang])
