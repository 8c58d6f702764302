"""The map of one call and the diagrams, in headless Chromium, as a reader gets them.

On both home pages the map of one call fits one 1400 by 900 screen, and each of its links lands on a section that
exists on the page it opens, in the reader's language. Every diagram's text is at least 12 px at both widths; a
drawing wider than its column scrolls in its figure, and the keyboard scrolls it.
"""

from __future__ import annotations

import pytest
from browsing import DESKTOP, PHONE

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning"),
    pytest.mark.filterwarnings("ignore::ResourceWarning"),
]

HOMES = ("", "es/")
DIAGRAM_PAGES = ("theory/01-dispatcher-and-aten/", "theory/02-autograd-and-custom-ops/")
# Each drawing: the size its text is rendered at (its font size times the drawing's scale), and whether its figure
# scrolls sideways.
DIAGRAMS = """() => [...document.querySelectorAll("figure.snippet-diagram")].map(figure => {
    const svg = figure.querySelector("svg"), text = svg.querySelector("text"), m = text.getScreenCTM();
    return {text: parseFloat(getComputedStyle(text).fontSize) * Math.hypot(m.a, m.b),
            scrolls: figure.scrollWidth > figure.clientWidth + 1, focusable: svg.tabIndex === 0};
})"""


@pytest.mark.parametrize("home", HOMES)
def test_the_map_of_one_call_fits_one_desktop_screen(browser, served, home):
    base, _ = served
    context = browser.new_context(viewport=DESKTOP)
    tab = context.new_page()
    tab.goto(f"{base}/{home}")
    steps = tab.locator(".call-map li")
    box = tab.locator(".call-map").bounding_box()
    header = tab.locator("header.md-header").bounding_box()
    count, quotes = steps.count(), tab.locator(".call-map li > code").count()
    context.close()
    assert count >= 10 and quotes == count, "every step shows one line of output"
    assert box and header and box["height"] <= DESKTOP["height"] - header["height"], box


@pytest.mark.parametrize("home", HOMES)
def test_each_step_of_the_map_lands_on_a_section_that_exists_in_the_same_language(browser, served, home):
    base, _ = served
    context = browser.new_context(viewport=DESKTOP)
    tab = context.new_page()
    tab.goto(f"{base}/{home}")
    links = tab.locator(".call-map a").evaluate_all("links => links.map(a => a.href)")
    missing = []
    for page in sorted({link.split("#")[0] for link in links}):
        tab.goto(page)
        ids = [link.split("#")[1] for link in links if link.split("#")[0] == page]
        missing += [f"{page}#{i}" for i in ids if not tab.evaluate("id => !!document.getElementById(id)", i)]
    context.close()
    assert len(links) >= 10 and all("#" in link for link in links), links
    assert all(link.startswith(f"{base}/{home}") for link in links), "a step leads to the other language"
    assert missing == []


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1400", "390"])
def test_diagram_text_is_at_least_12_px_and_a_wide_drawing_scrolls_with_the_keyboard(browser, served, viewport):
    base, _ = served
    context = browser.new_context(viewport=viewport)
    tab = context.new_page()
    found, scrolled = {}, []
    for lang in HOMES:
        for path in DIAGRAM_PAGES:
            tab.goto(f"{base}/{lang}{path}")
            found[lang + path] = tab.evaluate(DIAGRAMS)
            wide = tab.locator("figure.snippet-diagram").filter(has=tab.locator("svg"))
            for index, drawing in enumerate(found[lang + path]):
                if drawing["scrolls"]:
                    figure = wide.nth(index)
                    figure.locator("svg").focus()
                    tab.keyboard.press("ArrowRight")
                    tab.wait_for_function("f => f.scrollLeft > 0", arg=figure.element_handle(), timeout=2000)
                    scrolled.append(lang + path)
        page_width = tab.evaluate("document.documentElement.scrollWidth")
    context.close()
    drawings = [d for page in found.values() for d in page]
    assert len(drawings) >= 2 * 4, found
    assert [d for d in drawings if d["text"] < 12 - 0.01] == [], "diagram text under 12 px"
    assert all(d["focusable"] for d in drawings), "a drawing the keyboard cannot reach"
    assert page_width <= viewport["width"], "the page scrolls sideways"
    assert scrolled, "the dispatcher's walk (1161 px) is wider than the column at both widths"
