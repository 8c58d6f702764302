"""What a reader does on the built site: the first output is visible without a click and device tabs work with
the keyboard, the language switch keeps the page, Spanish search finds Spanish pages, the atlas finds an
operator, diagrams render on the pages that have them, the 404 page helps wherever the site is served.
"""

from __future__ import annotations

import re
from urllib.parse import urlparse

import pytest
from browsing import BROWSER_MARKS
from conftest import REPO
from phase25.core.catalog import pinned_torch

pytestmark = BROWSER_MARKS


def test_the_404_page_helps_in_both_languages(page, served):
    base, _ = served
    response = page.goto(f"{base}/no/such/page/")
    assert response.status == 404
    assert "Page not found · Página no encontrada" in page.locator("h1").inner_text()
    spanish = page.locator('a[hreflang="es"]').evaluate_all("links => links.map(a => a.href)")
    assert f"{base}/es/" in spanish and f"{base}/es/reference/execution-report/" in spanish
    assert page.locator(".md-sidebar, .md-nav").count() == 0, "the navigation would be English only"


def test_the_first_output_is_visible_on_load_and_device_tabs_work_with_the_keyboard(page, served):
    base, _ = served
    page.goto(f"{base}/")
    snippet = page.locator(".snippet:visible").first  # the map's own snippet is folded under it
    cpu_panel, cuda_panel = snippet.locator(".tabbed-block").nth(0), snippet.locator(".tabbed-block").nth(1)
    assert snippet.locator(".snippet-code").is_visible()
    assert cpu_panel.is_visible() and "Ran on CPU" in cpu_panel.inner_text(), "output hidden on load"
    assert not cuda_panel.is_visible()
    for _ in range(300):  # reach the first device tab with the keyboard alone
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.closest('.snippet-outputs') !== null"):
            break
    else:
        pytest.fail("the device tabs cannot be reached with Tab")
    page.keyboard.press("ArrowRight")
    assert cuda_panel.is_visible() and "has not been run on a GPU yet" in cuda_panel.inner_text()


@pytest.mark.parametrize(
    ("path", "label", "generated"),
    [
        ("theory/03-inductor-and-export/", "H200 (emulated, never run)", "for an emulated NVIDIA H200 (sm_90)"),
        (
            "es/theory/03-inductor-and-export/",
            "H200 emulada (código nunca ejecutado)",
            "para un dispositivo emulado, NVIDIA H200 (sm_90)",
        ),
    ],
    ids=["en", "es"],
)
def test_the_emulated_h200_output_is_visible_and_says_it_never_ran(page, served, path, label, generated):
    base, _ = served
    page.goto(f"{base}/{path}#the-generated-code-h200")
    snippet = page.locator('.snippet[data-snippet="theory-03/kernel_h200"]')
    assert snippet.locator(".tabbed-labels label").all_inner_texts() == [label]
    panel = snippet.locator(".tabbed-block").first
    assert panel.is_visible(), "an emulated snippet's only tab is open on load"
    shown = panel.inner_text()
    assert "triton_per_fused__softmax" in shown and generated in shown
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


ATLAS_WORDS = {
    "en": ("reference/dispatcher-atlas/", "observed with a spy kernel", "a kernel of its own at AutogradCPU"),
    "es": ("es/reference/dispatcher-atlas/", "observado con un kernel espía", "kernel propio en AutogradCPU"),
}


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("width", [1400, 390])
def test_the_atlas_finds_an_operator_and_opens_its_call_path_at_both_widths(browser, served, lang, width):
    base, _ = served
    path, observed, backward = ATLAS_WORDS[lang]
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.goto(f"{base}/{path}")
    page.fill(".atlas-search", "addmm")
    addmm = page.locator(".atlas-list > li:not([hidden])", has=page.locator('.atlas-op:text-is("aten::addmm")'))
    addmm.locator(".atlas-op").click()
    entry = addmm.locator(".atlas-entry")
    entry.wait_for()
    shown = entry.inner_text()
    assert "AddmmBackward0" in shown and "CompositeExplicitAutogradNonFunctional" in shown and observed in shown
    assert "AutogradCPU (autograd kernel) → CPU (kernel)" in shown  # the path, with the kernel at each step
    link = entry.locator('a[href*="native_functions.yaml#L"]')
    assert link.count() == 1 and f"/blob/v{pinned_torch(REPO)}/" in link.get_attribute("href")  # the pin's tag
    page.fill(".atlas-search", "")
    page.get_by_label(backward).check()
    shown_count = page.locator(".atlas-count").inner_text()
    assert int(re.search(r"\d+", shown_count).group()) > 2000, shown_count  # the first number: those shown
    assert page.evaluate("document.documentElement.scrollWidth") <= width, "the page scrolls sideways"
    search = page.locator(".atlas-search")
    colours = search.evaluate("e => [getComputedStyle(e).color, getComputedStyle(e).backgroundColor]")
    assert colours[0] != colours[1], "the filter box's text has the colour of its background"
    context.close()


def switch_to(page, lang: str) -> None:
    page.hover(".md-header__option .md-select")
    page.click(f'a.md-select__link[hreflang="{lang}"]')


def test_language_switch_lands_on_the_same_page_and_back(page, served):
    base, _ = served
    page.goto(f"{base}/reference/execution-report/")
    switch_to(page, "es")
    page.wait_for_url(f"{base}/es/reference/execution-report/")
    assert page.locator("h1").inner_text().startswith("Informe de ejecución")
    switch_to(page, "en")
    page.wait_for_url(f"{base}/reference/execution-report/")
    assert page.locator("h1").inner_text().startswith("Execution report")


def test_a_changed_mark_opens_its_diff_on_the_drift_page_in_both_languages(page, served):
    base, _ = served
    for prefix in ("", "/es"):
        page.goto(f"{base}{prefix}/theory/02-autograd-and-custom-ops/")
        marks = page.locator("a.changed-mark")
        if not marks.count():
            pytest.skip("no output on this page changed with the last torch upgrade")
        target = (marks.first.get_attribute("href") or "").split("#")[1]
        marks.first.click()
        page.wait_for_url(f"{base}{prefix}/reference/drift-torch-*/#{target}")
        assert page.locator(f"details:has(#{target})").evaluate("d => d.open"), "the diff is unfolded"
        assert page.locator(f"#{target}").is_visible()


def test_search_in_spanish_finds_spanish_pages_only(page, served):
    base, _ = served
    page.goto(f"{base}/es/")
    page.click("label.md-search__icon, .md-search__input")
    page.locator(".md-search__input").press_sequentially("plomería", delay=30)
    page.locator(".md-search-result__item a").first.wait_for(timeout=15000)
    hrefs = page.locator(".md-search-result__item a").evaluate_all("els => els.map(e => e.href)")
    assert hrefs and all("/es/" in href for href in hrefs), hrefs


def test_lab_notebook_switches_language_and_diagrams_are_drawn_without_a_script(page, served):
    base, _ = served
    page.goto(f"{base}/labs/01-autograd-by-hand/")
    assert page.locator(".jp-Cell").count() > 10
    switch_to(page, "es")
    page.wait_for_url(f"{base}/es/labs/01-autograd-by-hand/")
    assert "Autograd a mano" in page.locator("h1").first.inner_text()
    page.goto(f"{base}/es/theory/02-autograd-and-custom-ops/")
    diagram = page.locator('.snippet[data-snippet="theory-02/graph_walk"] figure.snippet-diagram svg').first
    box = diagram.bounding_box()
    assert box and box["height"] > 100 and box["width"] > 200
    assert diagram.get_attribute("role") == "img" and "AddmmBackward0" in diagram.locator("desc").text_content()
    assert "Diagrama dibujado por el fragmento" in diagram.locator("title").text_content()
    assert page.locator("script[src*=mermaid]").count() == 0


SWITCHER = """() => Object.fromEntries([...document.querySelectorAll('a.md-select__link')]
    .map(a => [a.hreflang, a.href]))"""


def test_language_links_and_the_404_page_hold_wherever_the_site_is_served(browser, served, served_elsewhere):
    """Under the path the site was built for and under another one: the home pages' language links lead to
    the other home page, and the 404 page loads its stylesheets and links to the site's own home pages.

    Under another path the browser may guess a file of the 404 page from the path the site was built for (its
    preload scanner reads the page's <base> before the page's script has pointed it at the root the site is
    served from): those guesses are the only loads that may fail there."""
    _, built = served
    for base, _ in (served, served_elsewhere):
        guessed = urlparse(base)._replace(path=built).geturl()
        context = browser.new_context()
        tab = context.new_page()
        failed = []
        tab.on(
            "response",
            lambda r, failed=failed: (
                failed.append(f"{r.url} ({r.status})")
                if r.status >= 400 and r.request.resource_type in ("stylesheet", "script", "image", "font")
                else None
            ),
        )
        homes = {"en": f"{base}/", "es": f"{base}/es/"}
        for lang, other in (("en", "es"), ("es", "en")):
            assert tab.goto(homes[lang]).status == 200
            assert tab.evaluate(SWITCHER) == homes, f"the language links of {homes[lang]}"
            switch_to(tab, other)
            tab.wait_for_url(homes[other])
            assert tab.locator("html").get_attribute("lang") == other
            assert "Page not found" not in tab.locator("h1").first.inner_text()
        assert tab.goto(f"{base}/no/such/page/").status == 404
        sheets = tab.evaluate("[...document.styleSheets].filter(s => s.href).map(s => [s.href, s.cssRules.length])")
        assert len(sheets) >= 3 and all(href.startswith(f"{base}/assets/") and rules for href, rules in sheets), sheets
        assert tab.evaluate("getComputedStyle(document.querySelector('.md-header')).position") == "sticky", "unstyled"
        assert tab.evaluate(SWITCHER) == homes, "the 404 page's language links"
        spanish = tab.locator('article a[hreflang="es"]').evaluate_all("links => links.map(a => a.href)")
        assert spanish == [f"{base}/es/", f"{base}/es/reference/execution-report/"]
        context.close()
        assert [f for f in failed if base == served[0] or not f.startswith(guessed)] == [], base
