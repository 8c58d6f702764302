"""A picture a snippet drew (the DDP timeline), read on a phone: its text at the size it was drawn at, the picture
scrolling in its own frame, a link that opens it alone; and a long output cut, its whole one click below.

The page's own check of small text (test_browser_phone.py) cannot see text inside an image: this one computes it from
the size the image is shown at against the size it was drawn at (its text is drawn at 12 px).
"""

from __future__ import annotations

import pytest
from browsing import DESKTOP, PHONE

pytestmark = [pytest.mark.slow, pytest.mark.browser]
DISTRIBUTED = "theory/03-distributed-training/"
DRAWN_AT = 12  # px: the timeline's font-size (snippets/theory-03/dist_ddp_overlap.py)

# The picture once loaded: the scale it is shown at, its frame's and the page's widths, and the link under it.
LOOK = """async (figure) => {
    const img = figure.querySelector("img");
    img.loading = "eager";
    if (!img.complete || !img.naturalWidth) await new Promise(done => img.addEventListener("load", done));
    const frame = img.parentElement, link = figure.querySelector("a[href$='.svg']");
    return {scale: img.getBoundingClientRect().width / img.naturalWidth,
            frame: frame.clientWidth, scrolls: frame.scrollWidth > frame.clientWidth, focusable: frame.tabIndex >= 0,
            page: document.documentElement.scrollWidth, viewport: innerWidth,
            link: link ? link.getAttribute("href") : null, src: img.getAttribute("src")};
}"""


@pytest.mark.parametrize("lang", ["", "es/"])
def test_the_ddp_timeline_is_read_at_its_own_size_on_a_phone_and_opens_alone(browser, served, lang):
    base, _ = served
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    tab = context.new_page()
    tab.goto(f"{base}/{lang}{DISTRIBUTED}", wait_until="load")
    figure = tab.locator('.snippet[data-snippet="theory-03/dist_ddp_overlap"] figure.snippet-figure')
    figure.scroll_into_view_if_needed()
    look = figure.evaluate(LOOK)
    text_px = DRAWN_AT * look["scale"]
    assert text_px >= DRAWN_AT - 0.01, f"the timeline's text is shown at {text_px:.1f} px: {look}"
    assert look["scrolls"] and look["focusable"], f"wider than a phone, the picture must scroll in its frame: {look}"
    assert look["page"] == look["viewport"], f"the page itself scrolls sideways: {look}"
    assert look["link"] == look["src"], f"no link opens the picture alone: {look}"
    context.close()


def test_a_long_output_shows_its_cut_and_one_click_opens_the_whole(browser, served):
    """The orientation page's generated kernel (83 lines): a marker stands for the lines left out; its fold
    holds every line, the last one included."""
    base, _ = served
    context = browser.new_context(viewport=DESKTOP)
    tab = context.new_page()
    tab.goto(f"{base}/", wait_until="load")
    outputs = tab.locator('.snippet[data-snippet="00-orientation/compile_peek"] .snippet-outputs')
    gap = outputs.locator(".snippet-gap").first
    assert gap.is_visible() and "lines" in gap.inner_text()
    fold = outputs.locator("details.snippet-long").first
    whole = fold.locator("code")
    assert not whole.is_visible()
    fold.locator("summary").click()
    assert whole.is_visible() and len(whole.inner_text().splitlines()) > len(
        outputs.locator("pre code").first.inner_text().splitlines()
    )
    context.close()
