"""The map of one call and the diagrams, in headless Chromium, as a reader gets them.

On both home pages: at 1400 by 900 every step of the map of one call is on the first screen; at 390 by 844 the
first screen shows its set-up line and the headings of both its groups (forward and backward), so a phone reader
sees where it goes; and each step's link lands on a heading whose section, in the reader's language, shows the
line the step quotes. Every diagram's text is at least 12 px at both widths; a drawing wider than its column
scrolls in its figure, and the keyboard scrolls it.
"""

from __future__ import annotations

import pytest
from browsing import BROWSER_MARKS, DESKTOP, PHONE

pytestmark = BROWSER_MARKS

HOMES = ("", "es/")
DIAGRAM_PAGES = ("theory/01-dispatcher-and-aten/", "theory/02-autograd-and-custom-ops/")
# Each drawing: the size its text is rendered at (its font size times the drawing's scale), and whether its figure
# scrolls sideways.
DIAGRAMS = """() => [...document.querySelectorAll("figure.snippet-diagram")].map(figure => {
    const svg = figure.querySelector("svg"), text = svg.querySelector("text"), m = text.getScreenCTM();
    return {text: parseFloat(getComputedStyle(text).fontSize) * Math.hypot(m.a, m.b),
            scrolls: figure.scrollWidth > figure.clientWidth + 1, focusable: svg.tabIndex === 0};
})"""
# Where the map's parts are on the screen as the page opens: its set-up line, its groups' headings, its steps
# (each with its link and the line it quotes), and the bottom of the fixed header.
MAP_ON_SCREEN = """() => {
    const note = document.querySelector(".call-map .device-note"), box = e => e.getBoundingClientRect();
    const part = e => e && {top: box(e).top, bottom: box(e).bottom, text: e.textContent.trim()};
    return {header: box(document.querySelector("header.md-header")).bottom, height: innerHeight,
            setup: part(note.querySelector(":scope > p:first-child")),
            headings: [...note.querySelectorAll(":scope > p:not(:first-child)")].map(part),
            groups: [...note.querySelectorAll(":scope > ol")].map(ol => ol.children.length),
            steps: [...note.querySelectorAll(":scope > ol > li")].map(li => ({...part(li),
                href: li.querySelector("a")?.href, quote: li.querySelector(":scope > code")?.textContent}))};
}"""
# What the section an id opens shows of its outputs: the text of every output block the reader sees (not folded,
# not in another tab) from its heading to the next heading of the same or a higher level, whitespace collapsed as
# an inline quote shows it; null when the id is not on a heading.
SECTION_SHOWS = """id => {
    const heading = document.getElementById(id);
    if (!heading || !/^H[1-6]$/.test(heading.tagName)) return null;
    const level = Number(heading.tagName[1]), range = document.createRange();
    const after = [...document.querySelectorAll("h1, h2, h3, h4, h5, h6")].find(h =>
        heading.compareDocumentPosition(h) & Node.DOCUMENT_POSITION_FOLLOWING && Number(h.tagName[1]) <= level);
    range.setStartAfter(heading);
    if (after) range.setEndBefore(after); else range.setEndAfter(heading.closest("article").lastChild);
    const shown = [...document.querySelectorAll("pre")].filter(p => range.intersectsNode(p) && p.checkVisibility());
    return shown.map(pre => pre.innerText).join("\\n").replace(/\\s+/g, " ");
}"""


def map_on_screen(browser, url: str, viewport: dict) -> dict:
    context = browser.new_context(viewport=viewport)
    tab = context.new_page()
    tab.goto(url)
    found = tab.evaluate(MAP_ON_SCREEN)
    context.close()
    return found


def on_screen(part: dict, found: dict) -> bool:
    return part["top"] >= found["header"] - 1 and part["bottom"] <= found["height"] + 1


@pytest.mark.parametrize("home", HOMES)
def test_at_1400_by_900_every_step_of_the_map_is_on_the_first_screen(browser, served, home):
    found = map_on_screen(browser, f"{served[0]}/{home}", DESKTOP)
    assert len(found["steps"]) >= 10 and all(step["quote"] for step in found["steps"]), "one line of output a step"
    assert found["groups"] == [8, 5] and len(found["headings"]) == 2, found["groups"]
    assert [s["text"][:40] for s in found["steps"] if not on_screen(s, found)] == [], "a step below the first screen"
    assert on_screen(found["setup"], found) and all(on_screen(h, found) for h in found["headings"])


@pytest.mark.parametrize("home", HOMES)
def test_at_390_by_844_the_first_screen_shows_the_set_up_and_both_groups_headings(browser, served, home):
    found = map_on_screen(browser, f"{served[0]}/{home}", PHONE)
    assert found["setup"] and found["setup"]["text"].startswith("set-up: x (2, 64) requires_grad=False"), found
    assert [h["text"].split(",")[0] for h in found["headings"]] == ["Forward", "Backward"]
    assert on_screen(found["setup"], found), found["setup"]
    assert [h["text"][:30] for h in found["headings"] if not on_screen(h, found)] == [], found["headings"]


@pytest.mark.parametrize("home", HOMES)
def test_each_step_lands_on_a_heading_whose_section_shows_the_line_it_quotes_unfolded_in_its_language(
    browser, served, home
):
    base, _ = served
    steps = map_on_screen(browser, f"{base}/{home}", DESKTOP)["steps"]
    context = browser.new_context(viewport=DESKTOP)
    tab = context.new_page()
    wrong = []
    for step in steps:
        page, _, anchor = step["href"].partition("#")
        if tab.url.split("#")[0] != page:
            tab.goto(page)
        text = tab.evaluate(SECTION_SHOWS, anchor)
        quote = " ".join(step["quote"].split())
        if text is None or quote not in text:
            wrong.append(f"{step['href']}: {'no heading' if text is None else 'does not show'} `{quote}`")
    context.close()
    assert len(steps) >= 10 and all("#" in step["href"] for step in steps), steps
    assert all(step["href"].startswith(f"{base}/{home}") for step in steps), "a step leads to the other language"
    assert wrong == []


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
