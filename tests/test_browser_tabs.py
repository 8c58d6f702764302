"""CUDA tabs in the browser, as a reader meets them: a click on a pending CUDA tab (mouse or keyboard) hides no
CPU output anywhere else, on this page, on other pages or in the other language, now or on a later visit;
the pending tab says in the page's language why it is empty; a snippet that runs only on a GPU shows that
sentence with its code folded; every box that scrolls sideways is reached and scrolled with the keyboard.

Material's ``content.tabs.link`` stays on: it links sets whose every tab shows a record. No such set exists
until the CUDA records are captured, so one test renders a page of its own (a captured CUDA tab beside pending
and CPU-only ones, from records made for the test) into the built site's theme and clicks through it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from browsing import DESKTOP, PHONE, show_in_page
from phase25.core import environment, records
from phase25.core.catalog import Catalog
from phase25.core.records import Record
from phase25.core.snippets import discover, source_sha256
from phase25.site.kinds.assemble import render_markdown
from phase25.site.page.context import Page
from phase25.site.page.highlight import Highlighter

pytestmark = [pytest.mark.slow, pytest.mark.browser]
PENDING = {"en": "CUDA · not captured yet", "es": "CUDA · aún no capturado"}
SENTENCE = {
    "en": "This snippet has not been run on a GPU yet",
    "es": "Este fragmento aún no se ha ejecutado en una GPU",
}
# Every output tab set of the page: its labels, which one is open, and whether its open panel is visible.
TAB_SETS = """() => [...document.querySelectorAll('.snippet-outputs')].map(set => {
    const inputs = [...set.querySelectorAll(':scope > input')];
    const open = inputs.findIndex(i => i.checked);
    return {snippet: set.closest('.snippet').dataset.snippet, open, folded: !set.checkVisibility(),
            labels: [...set.querySelectorAll(':scope > .tabbed-labels > label')].map(l => l.innerText.trim()),
            shown: set.querySelectorAll(':scope > .tabbed-content > .tabbed-block')[open].checkVisibility()};
})"""
PAGES = {
    "en": ["", "theory/01-dispatcher-and-aten/", "theory/02-autograd-and-custom-ops/", "theory/02-custom-operators/"],
    "es": [
        "es/",
        "es/theory/01-dispatcher-and-aten/",
        "es/theory/02-autograd-and-custom-ops/",
        "es/theory/02-custom-operators/",
    ],
}


def tab_sets(tab, url: str) -> list[dict]:
    tab.goto(url, wait_until="load")
    return tab.evaluate(TAB_SETS)


def first_tabs_open(sets: list[dict]) -> list[str]:
    """The snippets whose first tab (CPU where there is one) is not the open one, or is hidden (in a set that is
    not itself folded away, as an exercise's solution is)."""
    return [s["snippet"] for s in sets if s["open"] != 0 or not (s["shown"] or s["folded"])]


def pending_label(tab, snippet: str | None = None):
    """The pending label of a snippet (or of the first snippet that has one and a CPU tab)."""
    sets = tab.locator(".snippet-outputs").filter(has=tab.locator("label", has_text="CPU"))
    scope = tab.locator(f'.snippet[data-snippet="{snippet}"]') if snippet else sets
    return scope.locator(".tabbed-labels label").filter(has_text=re.compile("·")).first


def test_a_click_on_a_pending_cuda_tab_hides_no_cpu_output_anywhere_in_either_language(browser, served):
    """One reader, one browser: a click on a pending CUDA tab in English, one by keyboard in Spanish. Every other
    set of every page visited, in both languages, still opens on its CPU output, the clicked one's included
    on the next visit; nothing about a pending tab is remembered."""
    base, _ = served
    context = browser.new_context(viewport=DESKTOP)
    tab = context.new_page()
    sets = tab_sets(tab, f"{base}/")
    label = pending_label(tab)
    clicked = label.evaluate("l => l.closest('.snippet').dataset.snippet")
    label.click()
    after = tab.evaluate(TAB_SETS)
    assert [s["snippet"] for s in after if s["open"] != 0] == [clicked], "the click opened its own tab only"
    assert next(s for s in after if s["snippet"] == clicked)["shown"], "the pending tab shows its sentence"
    assert first_tabs_open([s for s in after if s["snippet"] != clicked]) == []
    assert len(sets) >= 3 and sum(PENDING["en"] in s["labels"] for s in sets) >= 2, "a page with several pending"
    # The other language, by keyboard: focus a pending tab's radio and move onto it with an arrow key.
    tab.goto(f"{base}/es/", wait_until="load")
    radio = pending_label(tab).evaluate("l => l.htmlFor")
    tab.locator(f"[id='{radio}']").evaluate("r => r.previousElementSibling.focus()")
    tab.keyboard.press("ArrowRight")
    assert tab.locator(f"[id='{radio}']").is_checked()
    for lang in ("en", "es"):
        for path in PAGES[lang]:
            assert first_tabs_open(tab_sets(tab, f"{base}/{path}")) == [], f"/{path} after the clicks"
    remembered = tab.evaluate("Object.entries(localStorage).filter(([k]) => k.endsWith('__tabs'))")
    assert all(PENDING["en"] not in v and PENDING["es"] not in v for _, v in remembered), remembered
    context.close()


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_pending_tab_says_why_it_is_empty_in_the_pages_language(browser, served, lang):
    base, _ = served
    context = browser.new_context(viewport=DESKTOP)
    tab = context.new_page()
    tab.goto(f"{base}/{PAGES[lang][0]}", wait_until="load")
    label = pending_label(tab)
    assert label.inner_text().strip() == PENDING[lang], "the label says it before a click"
    label.click()
    panel = label.locator("xpath=ancestor::div[contains(@class, 'snippet-outputs')][1]").locator(
        ":scope > .tabbed-content > .tabbed-block:visible"
    )
    shown = panel.inner_text()
    assert shown.startswith(SENTENCE[lang]) and SENTENCE["es" if lang == "en" else "en"] not in shown
    assert "make " not in shown and "gpu-records" not in shown
    context.close()


def page_showing(built_site: Path, snippet_id: str, lang: str) -> str:
    """The path (below the site's root) of the first page of a language that shows a snippet."""
    marker = f'data-snippet="{snippet_id}"'
    pages = sorted(
        p for p in built_site.rglob("index.html") if (p.parts[len(built_site.parts)] == "es") == (lang == "es")
    )
    found = next(p for p in pages if marker in p.read_text(encoding="utf-8"))
    return found.parent.relative_to(built_site).as_posix() + "/"


GPU_ONLY = "theory-03/cuda_graphs"


@pytest.mark.parametrize(
    ("lang", "summary"),
    [("en", "Show the code: it needs a CUDA GPU"), ("es", "Mostrar el código: necesita una GPU con CUDA")],
)
def test_a_gpu_only_snippet_shows_its_sentence_and_folds_its_code(browser, served, built_site, lang, summary):
    """theory-03/cuda_graphs has only a CUDA tab: on load a reader sees one line for its code and the tab's
    sentence and page text, not eighty lines of code with an empty box under them; one click opens the code."""
    base, _ = served
    context = browser.new_context(viewport=DESKTOP)
    tab = context.new_page()
    tab.goto(f"{base}/{page_showing(built_site, GPU_ONLY, lang)}", wait_until="load")
    snippet = tab.locator(f'.snippet[data-snippet="{GPU_ONLY}"]')
    fold = snippet.locator("details.snippet-waiting")
    assert fold.locator(":scope > summary").inner_text().startswith(summary)
    assert not snippet.locator(".snippet-code").is_visible(), "the code is folded on load"
    panel = snippet.locator(".snippet-outputs .tabbed-block").first
    assert panel.is_visible() and panel.locator(".snippet-pending").is_visible()
    assert panel.locator(".device-note").is_visible(), "what the tab will show, in the page's words"
    assert snippet.evaluate("s => s.getBoundingClientRect().height") < 500
    fold.locator(":scope > summary").click()
    assert snippet.locator(".snippet-code").is_visible()
    context.close()


# Every box on the page that scrolls sideways now: focusable, a named region, and whether the arrow key moved it.
SCROLL_BOXES = """() => [...document.querySelectorAll('.snippet-output pre > code, table.execution-report')]
    .filter(box => box.checkVisibility() && box.scrollWidth > box.clientWidth + 1)
    .map(box => ({tabindex: box.getAttribute('tabindex'), name: box.getAttribute('aria-label'),
                  role: box.getAttribute('role') || box.tagName.toLowerCase()}))"""


@pytest.mark.parametrize(
    ("path", "viewport", "name"),
    [
        ("theory/01-dispatcher-and-aten/", PHONE, "Output of "),
        ("es/theory/01-dispatcher-and-aten/", DESKTOP, "Salida de "),
        ("reference/execution-report/", PHONE, "Every run and the state of its record"),
        ("es/reference/execution-report/", PHONE, "Cada ejecución y el estado de su registro"),
    ],
    ids=["en-phone", "es-desktop", "report-en-phone", "report-es-phone"],
)
def test_every_box_that_scrolls_sideways_is_reached_and_scrolled_with_the_keyboard(
    browser,
    served,
    path,
    viewport,
    name,
):
    """Each scrolling box has tabindex 0 and a name in the page's language; the Tab key lands on the first one
    and the right arrow key scrolls it."""
    base, _ = served
    context = browser.new_context(viewport=viewport)
    tab = context.new_page()
    tab.goto(f"{base}/{path}", wait_until="load")
    boxes = tab.evaluate(SCROLL_BOXES)
    assert boxes, f"/{path} has a box that scrolls at {viewport['width']} px"
    assert [b for b in boxes if b["tabindex"] != "0" or not (b["name"] or "").startswith(name)] == []
    assert {b["role"] for b in boxes} <= {"region", "table"}
    for _ in range(400):
        tab.keyboard.press("Tab")
        focused = tab.evaluate("""() => { const e = document.activeElement;
            return e.scrollWidth > e.clientWidth + 1 && e.matches('pre > code, table') ? e.scrollLeft : null; }""")
        if focused is not None:
            break
    else:
        pytest.fail("no scrolling box reached with Tab")
    tab.keyboard.press("ArrowRight")
    tab.wait_for_timeout(300)
    assert tab.evaluate("document.activeElement.scrollLeft") > focused, "the arrow key scrolls the focused box"
    context.close()


def test_axe_finds_nothing_serious_in_pending_tabs_folded_code_and_scroll_boxes(browser, served, built_site):
    """axe-core on what this change draws: the tab sets with a pending tab, the folded code, named scroll boxes."""
    from axe_playwright_python.sync_playwright import Axe

    base, _ = served
    context = browser.new_context(viewport=PHONE)
    tab = context.new_page()
    found = []
    # What each page holds of it: pending tab sets and named output boxes (home pages), the folded code of a
    # snippet that runs only on a GPU, the report's named tables.
    checked = {
        "": [".snippet:has(.snippet-unlinked)", ".snippet:has(code[role=region])"],
        "es/": [".snippet:has(.snippet-unlinked)", ".snippet:has(code[role=region])"],
        page_showing(built_site, GPU_ONLY, "en"): [f'.snippet[data-snippet="{GPU_ONLY}"]'],
        "es/reference/execution-report/": ["table[tabindex]"],
    }
    for path, selectors in checked.items():
        tab.goto(f"{base}/{path}", wait_until="load")
        assert all(tab.locator(sel).count() for sel in selectors), path
        tab.evaluate(Axe().axe_script)
        include = json.dumps({"include": [[sel] for sel in selectors]})
        results = tab.evaluate(f"axe.run({include}, {{resultTypes: ['violations']}})")
        found += [
            f"/{path}: {v['id']} {[n['target'] for n in v['nodes'][:3]]}"
            for v in results["violations"]
            if v["impact"] in ("serious", "critical")
        ]
    context.close()
    assert found == []


def test_tabs_link_where_every_tab_has_a_record_and_never_reach_a_pending_one(browser, served, toy):
    """A page of its own in the site's theme: snippet a (CPU and a captured CUDA tab), b (CPU and a pending CUDA
    tab), then a again. CUDA on the first a opens CUDA on the second a, not on b; the choice is remembered on
    the next visit for a, never for b; a click on b's pending tab moves nothing else."""
    base, _ = served
    toy.add("page/a", "print('a')\n", devices='["cpu", "cuda"]')
    toy.add("page/b", "print('b')\n", devices='["cpu", "cuda"]')
    for snippet in discover(toy.layout):
        for device in ("cpu", "cuda") if snippet.id == "page/a" else ("cpu",):
            records.save(toy.layout, made_record(snippet, device, toy.layout))
    view = Page("en", "docs/en/page.md", Catalog(toy.layout, "2.13.0"), Highlighter())
    html, problems = render_markdown("::: snippet page/a\n\n::: snippet page/b\n\n::: snippet page/a\n", view)
    assert problems == []
    url = f"{base}/theory/01-dispatcher-and-aten/"
    context = browser.new_context(viewport=DESKTOP)
    tab = context.new_page()
    show_in_page(tab, url, html)
    opened = lambda: [(s["snippet"], s["open"]) for s in tab.evaluate(TAB_SETS)]  # noqa: E731
    tab.goto(url, wait_until="load")
    assert opened() == [("page/a", 0), ("page/b", 0), ("page/a", 0)]
    tab.locator(".snippet-outputs").nth(0).locator("label", has_text=re.compile("^CUDA$")).click()
    assert opened() == [("page/a", 1), ("page/b", 0), ("page/a", 1)], "linked where every tab has a record"
    tab.locator(".snippet-outputs").nth(1).locator("label", has_text="not captured").click()
    assert opened() == [("page/a", 1), ("page/b", 1), ("page/a", 1)], "a pending tab moves nothing else"
    tab.goto(url, wait_until="load")
    assert opened() == [("page/a", 1), ("page/b", 0), ("page/a", 1)], "remembered for a, never for b"
    context.close()


def made_record(snippet, device: str, layout) -> Record:
    """A record made for the test: a device name and a line of output, nothing a page of the site shows."""
    return Record(
        snippet=snippet.id,
        device=device,
        source_sha256=source_sha256(snippet, layout),
        env_key=environment.env_key(snippet, device),
        status="ok",
        exit_code=0,
        stdout=f"{snippet.id} on {device}\n",
        stderr="",
        provenance={"python": "3.12.3", "torch": "2.13.0", "device_name": "NVIDIA H200" if device == "cuda" else "x"},
        run={"date": "2026-12-01", "wall_s": 1.0, "git_commit": "abcdef1234567", "mode": "fresh"},
    )
