"""What a reader sees of a snippet and of the atlas's controls: the lines each snippet marks, the whole file
one click away, and controls readable in both colour schemes. (The share of each theory page that code,
output and prose take is reported by test_browser_weight.py, from the visits it makes anyway.)
"""

from __future__ import annotations

import pytest
from browsing import DESKTOP, PHONE
from conftest import REPO
from phase25.core.catalog import Catalog
from phase25.core.paths import Layout

pytestmark = [pytest.mark.slow, pytest.mark.browser]
THEORY_01 = "theory/01-dispatcher-and-aten/"


def marked_snippet() -> tuple[str, str]:
    """A snippet of theory 01 that marks sections, and one of its lines that no section shows."""
    catalog = Catalog.here(Layout.of(REPO))
    for snippet in catalog.snippets.values():
        if snippet.id.startswith("theory-01/") and snippet.sections:
            shown = {n for s in snippet.sections for n in range(s.first, s.last + 1)}
            lines = snippet.source.split("\n")
            hidden = next(
                line.strip()
                for n, line in enumerate(lines, 1)
                if n >= snippet.code_line and n not in shown and len(line.strip()) > 12 and "--8<--" not in line
            )
            return snippet.id, hidden
    raise AssertionError("no snippet of theory 01 marks a section")


def test_a_marked_snippet_shows_its_sections_and_one_click_opens_the_whole_file(browser, served):
    base, _ = served
    snippet_id, hidden = marked_snippet()
    context = browser.new_context(viewport=DESKTOP)
    tab = context.new_page()
    tab.goto(f"{base}/{THEORY_01}", wait_until="load")
    code = tab.locator(f'.snippet[data-snippet="{snippet_id}"] .snippet-code')
    fold = code.locator("details.snippet-whole")
    assert code.locator(".snippet-section").first.is_visible()
    assert hidden not in code.evaluate("e => e.innerText"), "a line no section shows is visible before a click"
    fold.locator("summary").click()
    assert hidden in fold.evaluate("e => e.innerText")
    context.close()


CONTRAST = """(el) => {
  const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const linear = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  const lum = (c) => { const [r, g, b] = rgb(c).map(linear); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const style = getComputedStyle(el);
  const page = getComputedStyle(document.body).backgroundColor;
  return {text: ratio(style.color, style.backgroundColor), border: ratio(style.borderTopColor, page)};
}"""


@pytest.mark.parametrize("scheme", ["default", "slate"])
def test_the_atlas_controls_are_visible_in_both_colour_schemes(browser, served, scheme):
    """The filter box and the menus: their text readable (4.5:1) and their edge told from the page (3:1)."""
    base, _ = served
    context = browser.new_context(viewport=PHONE)
    tab = context.new_page()
    tab.goto(f"{base}/reference/dispatcher-atlas/", wait_until="load")
    tab.evaluate(f"document.body.setAttribute('data-md-color-scheme', '{scheme}')")
    controls = tab.locator(".atlas-controls input[type=search], .atlas-controls select")
    assert controls.count() >= 1
    for index in range(controls.count()):
        found = controls.nth(index).evaluate(CONTRAST)
        assert found["text"] >= 4.5 and found["border"] >= 3, (scheme, index, found)
    context.close()
