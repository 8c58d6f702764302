"""The site at a phone's width: no page scrolls sideways, no text is under 12 px, wide outputs and tables scroll
in their own box.
"""

from __future__ import annotations

import re

from browsing import BROWSER_MARKS, PHONE
from conftest import REPO
from page_visits import THEORY, share_line

pytestmark = BROWSER_MARKS

# What the site's own scripts are: a script that reads the viewport's width could draw a page loaded at 390 px
# differently from one resized to it, and the phone's measurements are taken by resizing.
SITE_SCRIPTS = ("docs/assets/javascripts/*.js", "overrides/*.html", "scripts/phase25/site/**/*.py")
READS_THE_WIDTH = re.compile(
    r"innerWidth|outerWidth|clientWidth|offsetWidth|matchMedia|visualViewport|screen\.width|ResizeObserver"
    r"|[\"']resize[\"']|onresize"
)


WIDE_OUTPUTS = """() => [...document.querySelectorAll('.tabbed-block:first-of-type .snippet-output pre > code')]
    .filter(code => code.offsetParent !== null)
    .map(code => ({cols: Math.max(...code.innerText.split('\\n').map(l => l.length)),
                   scroll: code.scrollWidth, client: code.clientWidth,
                   size: parseFloat(getComputedStyle(code).fontSize)}))"""


def test_outputs_of_up_to_120_columns_fit_a_1400_px_screen_and_a_phone_scrolls_only_the_block(browser, served):
    """At 1400 px an output of up to 120 columns shows whole in its box (the code box, the one that scrolls);
    on a phone it scrolls inside that box and the page does not. Its text is at least 12 px at both widths."""
    base, _ = served
    for width, fits in ((1400, True), (390, False)):
        context = browser.new_context(viewport={"width": width, "height": 900})
        tab = context.new_page()
        tab.goto(f"{base}/theory/01-dispatcher-and-aten/")
        blocks = tab.evaluate(WIDE_OUTPUTS)
        page_width = tab.evaluate("document.documentElement.scrollWidth")
        context.close()
        wide = [b for b in blocks if 80 < b["cols"] <= 120]
        assert wide, "theory 01 has outputs wider than 80 columns"
        scrolled = [b for b in wide if b["scroll"] > b["client"] + 1]
        if fits:
            assert scrolled == []
        else:
            assert scrolled, "on a phone a wide output scrolls inside its box instead of shrinking"
        assert [b for b in wide if b["size"] < 12 - 0.01] == [], f"output text under 12 px at {width} px"
        assert page_width <= width, f"the page itself scrolls sideways at {width} px"


def test_every_page_on_a_phone_has_no_sideways_scroll_and_no_text_under_12_px(visits, figures):
    """At 390 px, on every page of both languages and the 404 page: the page is no wider than the screen
    (a wide block scrolls inside its own box) and no visible text is rendered under 12 px. Measured in each
    page's visit, its tab resized to a phone's width after the desktop's checks (a second load of every page
    at 390 px cost the suite 35 to 45 s): Material's layout follows a resize, and no script of the site reads the
    width (test_no_script_of_the_site_reads_the_viewports_width)."""
    phone = {path: found["phone"] for path, found in visits.items()}
    assert {p: look["viewport"] for p, look in phone.items() if look["viewport"] != PHONE["width"]} == {}
    figures.extend(share_line(PHONE["width"], p, look["shares"]) for p, look in phone.items() if p.startswith(THEORY))
    figures.append(
        f"at {PHONE['width']} px: {len(phone)} pages, the widest {max(look['width'] for look in phone.values())} px, "
        f"{sum(len(look['small']) for look in phone.values())} texts under 12 px"
    )
    assert {p: look["width"] for p, look in phone.items() if look["width"] > PHONE["width"]} == {}, "sideways"
    assert {p: look["small"][:5] for p, look in phone.items() if look["small"]} == {}, "texts under 12 px"


def test_no_script_of_the_site_reads_the_viewports_width():
    """What lets a resized tab stand for a page loaded at a phone's width: a script of the site that read the
    width (at load or on a resize) could lay a page out for the width it was loaded at."""
    scripts = sorted({path for pattern in SITE_SCRIPTS for path in REPO.glob(pattern)})
    assert any(path.suffix == ".js" for path in scripts) and any(path.suffix == ".html" for path in scripts)
    for reads in (
        "innerWidth",
        'addEventListener("resize", f)',
        "matchMedia('(max-width: 600px)')",
        "new ResizeObserver",
    ):
        assert READS_THE_WIDTH.search(reads), reads
    found = {
        f"{path.relative_to(REPO)}:{number}": line.strip()
        for path in scripts
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if READS_THE_WIDTH.search(line)
    }
    assert found == {}, "this script reads the width: load each page at 390 px in the phone's test instead"


def test_the_execution_report_is_a_table_that_scrolls_in_its_own_box_on_a_phone(browser, served):
    """Ruled rows, a header row and padded cells on a desktop; on a phone the table scrolls inside itself."""
    base, _ = served
    for width, path in ((1400, "reference/execution-report/"), (390, "es/reference/execution-report/")):
        context = browser.new_context(viewport={"width": width, "height": 900})
        tab = context.new_page()
        tab.goto(f"{base}/{path}")
        table = tab.locator("table.execution-report")
        looks = table.evaluate("""t => {
            const cell = t.querySelector("tbody td"), head = t.querySelector("th"), style = getComputedStyle(cell);
            return {padding: parseFloat(style.paddingLeft), rule: style.borderTopStyle,
                    header: getComputedStyle(head).backgroundColor, scroll: t.scrollWidth, client: t.clientWidth,
                    page: document.documentElement.scrollWidth};
        }""")
        context.close()
        assert looks["padding"] >= 4 and looks["rule"] == "solid", looks
        assert looks["header"] not in ("rgba(0, 0, 0, 0)", "transparent"), "the header row is marked"
        assert looks["page"] <= width, f"the report widens the page at {width} px"
        if width == 390:
            assert looks["scroll"] > looks["client"], "on a phone the table scrolls inside its own box"
        else:
            assert looks["scroll"] <= looks["client"] + 1, "on a desktop the whole table shows"
