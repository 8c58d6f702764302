"""The built site in headless Chromium, served under its published path, as a reader gets it.

Every page of both languages (read from the sitemaps) is visited: no console error, no failed
request, at most 500 KB transferred for a page without a diagram (the search index aside; the
server compresses text with gzip, as static hosts such as GitHub Pages do), no
serious or critical axe-core violation, the first output visible without a click. Then the
interactions: the language switch keeps the page, device tabs work with the keyboard, Spanish search
finds Spanish pages, diagrams render on the pages that have them.
"""

from __future__ import annotations

import json
import queue
import re
import threading
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import urlparse

import pytest
from browsing import CHROMIUM, DESKTOP, FLAGS, PHONE, SITEMAP_NS, site_prefix
from conftest import REPO
from phase25.core.catalog import pinned_torch

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    # The stdlib server's keep-alive sockets close when the browser hangs up, not before.
    pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning"),
    pytest.mark.filterwarnings("ignore::ResourceWarning"),
]

PAGE_BUDGET = 300 * 1024
# Heights a reader sees in the article: snippet code (caption, sections, the closed fold), outputs (tabs, streams,
# diagrams, provenance) and the rest (prose, headings, lists, admonitions); and the page in screens.
SHARES = """() => {
  const article = document.querySelector("article.md-content__inner");
  if (!article) return null;
  const sum = (sel) => [...article.querySelectorAll(sel)].reduce((h, e) => h + e.getBoundingClientRect().height, 0);
  return {total: article.getBoundingClientRect().height, code: sum(".snippet-code"), output: sum(".snippet-outputs"),
          page: document.documentElement.scrollHeight, screen: window.innerHeight};
}"""
THEORY = ("theory/", "es/theory/")


def share_line(width: int, path: str, found: dict) -> str:
    """One page's shares as a figure line, checked for sense (every part measured, none over the whole)."""
    code, output = found["code"] / found["total"], found["output"] / found["total"]
    assert 0 < code and 0 < output and code + output < 1, (path, found)
    return (
        f"{width} px /{path}: code {code:.0%}, output {output:.0%}, prose {1 - code - output:.0%}; "
        f"{found['page'] / found['screen']:.0f} screens"
    )


def every_page(built_site: Path) -> list[str]:
    """Every page of every language, from the sitemaps, as paths below the site's root."""
    prefix = site_prefix(built_site)
    paths = []
    for sitemap in sorted(built_site.rglob("sitemap.xml")):
        for loc in ET.parse(sitemap).getroot().findall("s:url/s:loc", SITEMAP_NS):
            paths.append(urlparse(loc.text).path[len(prefix) :])
    return sorted(set(paths))


TRANSLATED = "es/"  # the prefix of the translated pages; the default language has none
MARK_TWIN_BLOCKS = """english => {
    const seen = new Set(english);
    let marked = 0;
    for (const block of document.querySelectorAll("pre > code")) {
        if (seen.has(block.outerHTML)) { block.setAttribute("data-twin-block", ""); marked++; }
    }
    return marked;
}"""


# Texts with the same colour, font, shadow and cumulative opacity over the same painted background have
# the same contrast ratio, which is all axe's color-contrast rule computes: the first one of each kind
# that axe reads stands for the rest. Only leaves are marked; what stands for others is shown (not hidden,
# clipped to a pixel or outside the page) and holds a letter or a digit (axe passes over icon glyphs).
# Across pages, a translation's text also stands aside when its English twin page had a checked text of its
# kind, the background told by the colours painted under it (a background image is never the same twice).
# Returns how many were marked and the kinds this page had checked.
MARK_CONTRAST_TWINS = """english => {
    const opacity = new Map(), painter = new Map(), backdrop = new Map(), seen = new Set();
    const checkedElsewhere = new Set(english || []);
    const opacityOf = el => {
        if (!el) return 1;
        if (!opacity.has(el)) opacity.set(el, parseFloat(getComputedStyle(el).opacity) * opacityOf(el.parentElement));
        return opacity.get(el);
    };
    const paints = s => s.backgroundImage !== "none" || s.backgroundColor !== "rgba(0, 0, 0, 0)";
    const painterOf = el => {
        if (!el) return -1;
        if (!painter.has(el)) {
            painter.set(el, paints(getComputedStyle(el)) ? painter.size : painterOf(el.parentElement));
        }
        return painter.get(el);
    };
    const backdropOf = el => {  // the colours painted under an element, nearest first
        if (!el) return "";
        if (!backdrop.has(el)) {
            const s = getComputedStyle(el), below = backdropOf(el.parentElement);
            const image = s.backgroundImage !== "none";
            const own = image ? `image#${painterOf(el)}@${location.pathname}` : s.backgroundColor;
            backdrop.set(el, paints(s) ? `${own}>${below}` : below);
        }
        return backdrop.get(el);
    };
    let marked = 0;
    const kinds = new Set();
    for (const el of document.body.querySelectorAll("*")) {
        if (el.childElementCount || !el.textContent.trim()) continue;
        if (!el.checkVisibility({opacityProperty: true, visibilityProperty: true})) continue;
        const box = el.getBoundingClientRect();
        if (box.width <= 1 || box.height <= 1 || box.right + scrollX <= 0 || box.bottom + scrollY <= 0) continue;
        if (!/[\\p{L}\\p{N}]/u.test(el.textContent)) continue;
        const s = getComputedStyle(el);
        const text = [s.color, s.fontSize, s.fontWeight, s.fontStyle, s.textShadow, s.webkitTextStrokeColor,
                      s.mixBlendMode, opacityOf(el)].join("|");
        const key = `${text}|${painterOf(el)}`, kind = `${text}|${backdropOf(el)}`;
        if (seen.has(key) || checkedElsewhere.has(kind)) { el.setAttribute("data-contrast-twin", ""); marked++; }
        else { seen.add(key); kinds.add(kind); }
    }
    return [marked, [...kinds]];
}"""


def axe_violations(
    tab, twin_blocks: list[str] | None, twin_kinds: list[str] | None = None
) -> tuple[list[str], int, int, list[str]]:
    """Serious and critical axe-core violations of the page in ``tab`` (see :func:`run_axe`), as lines."""
    found, twins, contrast_twins, kinds = run_axe(tab, twin_blocks, twin_kinds)
    violations = [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes'][:3]]}"
        for v in found
        if v["impact"] in ("serious", "critical")
    ]
    return violations, twins, contrast_twins, kinds


def run_axe(
    tab, twin_blocks: list[str] | None, twin_kinds: list[str] | None = None
) -> tuple[list[dict], int, int, list[str]]:
    """axe-core's violations of the page in ``tab``, and how much was left out.

    Code and output blocks are rendered from one snippet and one record for both languages, and
    checking their highlighted tokens is most of axe's time. In a translated page, the code of a block
    that is byte-identical to one of its English twin's, already checked there, is left out; the block
    around it (its localized copy button, its tab) and every other block are checked in both languages.
    Colour contrast, about 85 % of what is left (47 of 55 s on theory 03), is checked once per kind of
    text (see ``MARK_CONTRAST_TWINS``), on a translated page across it and its English twin (``twin_kinds``,
    the kinds checked there); every other rule sees every element. Returns the violations, the blocks left
    out, the texts whose contrast another of their kind stood for, and the kinds this page checked."""
    from axe_playwright_python.sync_playwright import Axe

    twins = tab.evaluate(MARK_TWIN_BLOCKS, twin_blocks) if twin_blocks else 0
    contrast_twins, kinds = tab.evaluate(MARK_CONTRAST_TWINS, twin_kinds)
    # The rule's own selector leaves the twins out: an exclude list of thousands of nodes costs axe more than
    # checking them would. Excluding an element excludes what it holds, which is right for a twin block.
    tab.evaluate(Axe().axe_script)
    tab.evaluate("axe.configure({rules: [{id: 'color-contrast', selector: '*:not([data-contrast-twin])'}]})")
    context = json.dumps({"exclude": [["[data-twin-block]"]]}) if twins else "document"
    # Only violations are read: node lists of passes (7.8 MB of JSON on theory 03) would double axe's time.
    found = tab.evaluate(f"axe.run({context}, {{resultTypes: ['violations']}})")["violations"]
    return found, twins, contrast_twins, kinds


# Every visible element with text of its own whose text is rendered under 12 px: its computed font size, times
# the scale an SVG drawing is shown at (a drawing shrunk to fit shrinks its text with it).
SMALL_TEXT = """() => {
    const small = [];
    for (const el of document.body.querySelectorAll("*")) {
        const text = [...el.childNodes].filter(n => n.nodeType === Node.TEXT_NODE).map(n => n.data).join("").trim();
        if (!text || !el.checkVisibility({opacityProperty: true, visibilityProperty: true})) continue;
        const box = el.getBoundingClientRect();
        if (box.width < 1 || box.height < 1) continue;
        let size = parseFloat(getComputedStyle(el).fontSize);
        if (el instanceof SVGGraphicsElement) {
            const m = el.getScreenCTM();
            size *= Math.hypot(m.a, m.b);
        }
        if (size < 12 - 0.01) {
            small.push(`${el.tagName.toLowerCase()}${[...el.classList].map(c => "." + c).join("")} `
                       + `${size.toFixed(1)} px: ${text.slice(0, 40)}`);
        }
    }
    return small;
}"""


# The same page at a phone's width, once the tab is resized and the layout has followed (two frames): its width,
# the viewport's, its texts under 12 px and its shares.
PHONE_LOOK = f"""async () => {{
    await new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)));
    return {{viewport: innerWidth, width: document.documentElement.scrollWidth,
             small: ({SMALL_TEXT})(), shares: ({SHARES})()}};
}}"""
# What the site's own scripts are: a script that reads the viewport's width could draw a page loaded at 390 px
# differently from one resized to it, and the phone's measurements are taken by resizing.
SITE_SCRIPTS = ("docs/assets/javascripts/*.js", "overrides/*.html", "scripts/phase25/site/**/*.py")
READS_THE_WIDTH = re.compile(
    r"innerWidth|outerWidth|clientWidth|offsetWidth|matchMedia|visualViewport|screen\.width|ResizeObserver"
    r"|[\"']resize[\"']|onresize"
)


def visit(browser, base: str, path: str, twin: tuple[list[str], list[str]] | None) -> tuple[dict, tuple]:
    """One page loaded in a fresh tab: its errors, failed requests, bytes and axe violations at a desktop's
    width, then its width and small texts at a phone's; and what its translation needs from it (its code blocks
    and the kinds of text whose contrast it checked)."""
    context = browser.new_context(viewport=DESKTOP)
    tab = context.new_page()
    errors, failed, sizes = [], [], {}
    tab.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    tab.on("pageerror", lambda exc: errors.append(str(exc)))
    tab.on("requestfailed", lambda r: failed.append(f"{r.url} ({r.failure})"))

    def finished(request):
        response = request.response()
        sizes[request.url] = (request.sizes()["responseBodySize"], len(response.body()) if response else 0)
        if response is not None and response.status >= 400 and not request.url.endswith("/no/such/page/"):
            failed.append(f"{request.url} ({response.status})")

    tab.on("requestfinished", finished)
    started = time.perf_counter()
    tab.goto(f"{base}/{path}", wait_until="load")
    loaded = time.perf_counter()
    tab.wait_for_timeout(300)
    blocks = tab.evaluate("[...document.querySelectorAll('pre > code')].map(b => b.outerHTML)")
    shares = tab.evaluate(SHARES)
    checking = time.perf_counter()
    violations, twins, contrast_twins, kinds = axe_violations(tab, *(twin or (None, None)))
    checked = time.perf_counter()
    tab.set_viewport_size(PHONE)  # the phone's checks, on the page as loaded (test_every_page_on_a_phone_...)
    phone = tab.evaluate(PHONE_LOOK)
    weight = [sum(size[i] for url, size in sizes.items() if "search_index.json" not in url) for i in (0, 1)]
    if path == "no/such/page/":  # its own document is a 404 by design; what it loads must not be
        errors = [e for e in errors if "status of 404" not in e]
    found = {
        "errors": errors,
        "failed": failed,
        "bytes": weight[0],
        "decoded": weight[1],
        "axe": violations,
        "twin_blocks": twins,
        "contrast_twins": contrast_twins,
        "diagram": bool(tab.locator("figure.snippet-diagram svg").count()),
        "shares": shares,
        "phone": phone,
        "seconds": {"load": loaded - started, "axe": checked - checking, "phone": time.perf_counter() - checked},
    }
    context.close()
    return found, (blocks, kinds)


def next_or_none(pending: queue.SimpleQueue) -> str | None:
    try:
        return pending.get_nowait()
    except queue.Empty:
        return None


VISITORS = 2  # tabs at work at once, one browser each: Playwright's sync API keeps to the thread that started it


def visit_all(base: str, paths: list[str]) -> dict[str, dict]:
    """Every page visited by ``VISITORS`` threads: English pages first, then the translations, which
    need their twin's code blocks (see :func:`axe_violations`)."""
    english = [p for p in paths if not p.startswith(TRANSLATED)]
    phases = [english, [p for p in paths if p not in english]]
    queues = [queue.SimpleQueue() for _ in phases]
    for todo, pending in zip(phases, queues, strict=True):
        for path in todo:
            pending.put(path)
    found, blocks, failures = {}, {}, []
    barrier = threading.Barrier(VISITORS)

    def work() -> None:
        from playwright.sync_api import sync_playwright

        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
                for pending in queues:
                    for path in iter(lambda pending=pending: next_or_none(pending), None):
                        twin = blocks.get(path.removeprefix(TRANSLATED)) if path.startswith(TRANSLATED) else None
                        found[path], blocks[path] = visit(browser, base, path, twin)
                    barrier.wait()  # every English page is done before any translation starts
                browser.close()
        except Exception as exc:  # noqa: BLE001 -- re-raised in the test's thread
            failures.append(exc)
            barrier.abort()

    threads = [threading.Thread(target=work) for _ in range(VISITORS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        raise failures[0]
    return found


@pytest.fixture(scope="module")
def visits(served, built_site):
    """Each page of both languages, and the 404, loaded once in a fresh tab."""
    base, _ = served
    paths = [*every_page(built_site), "no/such/page/"]
    # axe's time grows with the elements it checks, mostly highlighted tokens: the longest runs go first.
    elements = {
        p: (built_site / p / "index.html").read_text().count("<span") if (built_site / p).is_dir() else 0 for p in paths
    }
    found = visit_all(base, sorted(paths, key=elements.get, reverse=True))
    return {path: found[path] for path in sorted(found)}


def test_every_page_has_no_console_error_and_no_failed_request(visits):
    assert {p: v["errors"] + v["failed"] for p, v in visits.items() if v["errors"] or v["failed"]} == {}


def test_theory_pages_report_their_share_of_code_output_and_prose(visits, figures):
    """Figures to read against the aim (code at most a quarter of a theory page), at 1400 px; the phone's are
    reported by the phone test, from the same visits at 390 px."""
    theory = {p: v["shares"] for p, v in visits.items() if p.startswith(THEORY)}
    assert len(theory) >= 2 * 5, sorted(theory)
    figures.extend(share_line(DESKTOP["width"], path, found) for path, found in theory.items())


def test_every_page_transfers_at_most_300_kb(visits, built_site, figures):
    weights = {p: round(v["bytes"] / 1024) for p, v in visits.items()}
    figures.append(
        "KB transferred per page on first load, search index excluded: gzip / uncompressed (* draws a diagram)"
    )
    figures.extend(
        f"  {w:5d} / {round(visits[p]['decoded'] / 1024):5d}  /{p}{' *' if visits[p]['diagram'] else ''}"
        for p, w in weights.items()
    )
    assert {p: w for p, w in weights.items() if w * 1024 > PAGE_BUDGET} == {}
    assert any(v["diagram"] for v in visits.values())
    assert len(visits) == len(every_page(built_site)) + 1 >= 2 * 10 + 1, "every page of both languages, and the 404"


def test_no_serious_or_critical_accessibility_violation(visits, figures):
    twins = {p: v["twin_blocks"] for p, v in visits.items() if v["twin_blocks"]}
    figures.append(
        f"axe: {sum(twins.values())} code blocks of {len(twins)} translated pages identical to their "
        f"English twin's, checked there; the contrast of {sum(v['contrast_twins'] for v in visits.values())} "
        "texts stood for by another of their kind on the same page or on its English twin"
    )
    load, axe, phone = (sum(v["seconds"][k] for v in visits.values()) for k in ("load", "axe", "phone"))
    slowest = sorted(visits, key=lambda p: -sum(visits[p]["seconds"].values()))[:3]
    figures.append(
        f"browser: {len(visits)} visits, {VISITORS} at once: loading {load:.0f} s, axe {axe:.0f} s and the phone's "
        f"checks {phone:.0f} s in all; "
        "the slowest: "
        + ", ".join(f"/{p} {visits[p]['seconds']['load']:.1f} + {visits[p]['seconds']['axe']:.1f} s" for p in slowest)
    )
    assert {p: v["axe"] for p, v in visits.items() if v["axe"]} == {}


def test_axe_leaves_out_only_code_identical_to_the_english_twins(page):
    """The shortcut of :func:`axe_violations` hides nothing it should not: unreadable code that the
    English page also has is reported there; the same code changed in the translation is reported here."""
    unreadable = '<pre><code style="color:#eee;background:#fff">{}</code></pre>'
    english = [unreadable.format("print(1)")]
    page.set_content(f'<html lang="es"><title>t</title><main>{english[0]}{unreadable.format("print(2)")}</main></html>')
    twin_code = page.evaluate("[...document.querySelectorAll('pre > code')].map(b => b.outerHTML)")[:1]
    violations, twins, _, _ = axe_violations(page, twin_code)
    assert twins == 1
    assert violations == ["color-contrast (serious): [['pre:nth-child(2) > code']]"]  # the changed block only
    page.set_content(f'<html lang="en"><title>t</title><main>{english[0]}</main></html>')
    assert [v.split(" ")[0] for v in axe_violations(page, None)[0]] == ["color-contrast"]


CONTRAST_CASES = """
<div style="background:#fff"><span id="same-1" style="color:#eee">abc</span>
  <span id="same-2" style="color:#eee">abc</span></div>
<div style="background:#fff"><span class="k" style="color:#000">abc</span>
  <span id="recoloured" class="k" style="color:#eee">abc</span></div>
<div style="background:#fff"><span style="visibility:hidden;color:#eee">abc</span>
  <span id="after-invisible" style="color:#eee">abc</span></div>
<div style="background:#fff"><span style="display:none;color:#eee">abc</span>
  <span id="after-hidden" style="color:#eee">abc</span></div>
<div style="background:#fff">
  <span style="position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);color:#eee">abc</span>
  <span id="after-clipped" style="color:#eee">abc</span></div>
<div style="background:#fff"><span style="position:absolute;left:-9999px;color:#eee">abc</span>
  <span id="after-off-page" style="color:#eee">abc</span></div>
<div style="background:#fff"><span style="color:#eee">( )</span>
  <span id="after-punctuation" style="color:#eee">abc</span></div>
<div style="background:#fff"><span style="color:#595959">abc</span>
  <span style="opacity:.3"><span id="faded" style="color:#595959">abc</span></span></div>
<div style="background:#fff"><span style="color:#595959">abc</span></div>
<div style="background:#fff">
  <span id="other-background" style="color:#595959;background:#ddd">abc</span></div>
<div style="background:#fff"><b style="color:#000">abc</b>
  <i id="holds-a-child" style="color:#000">abc <span style="color:#eee">xyz</span></i></div>
"""


def test_contrast_is_checked_once_per_kind_of_text_and_no_unreadable_text_hides_behind_a_twin(page):
    """The shortcut of :func:`run_axe` leaves out only texts another text of their kind stood for: a second
    identical text is not checked again, and every text that differs in colour, opacity or background, or
    whose stand-in axe could not read (hidden, clipped, off the page, punctuation only), is checked."""
    page.set_content(f'<html lang="en"><title>t</title><main><h1>Cases</h1>{CONTRAST_CASES}</main></html>')
    found, _, contrast_twins, _ = run_axe(page, None)
    unreadable = {tuple(n["target"]) for v in found if v["id"] == "color-contrast" for n in v["nodes"]}
    expected = "same-1 recoloured after-invisible after-hidden after-clipped after-off-page after-punctuation faded"
    assert {"#" + i for i in expected.split()} | {"#holds-a-child > span"} <= {t[0] for t in unreadable}
    assert ("#same-2",) not in unreadable and page.locator("#same-2[data-contrast-twin]").count() == 1
    assert page.locator("#other-background[data-contrast-twin], i[data-contrast-twin]").count() == 0
    assert contrast_twins >= 1
    assert [v["id"] for v in found] == ["color-contrast"], "each case differs in its contrast only"


def test_a_translation_leaves_out_only_kinds_of_text_its_english_twin_checked(page):
    """Across a page and its translation, a kind of text checked on the English page stands for the same kind
    on the Spanish one; a kind the English page did not have (another colour, the same colour on another
    background, over an image) is checked on the Spanish page."""
    english = '<div style="background:#fff"><span style="color:#767676">abc</span></div>'
    page.set_content(f'<html lang="en"><title>t</title><main><h1>t</h1>{english}</main></html>')
    found, _, _, kinds = run_axe(page, None)
    assert found == [] and len([k for k in kinds if k.startswith("rgb(118, 118, 118)")]) == 1
    spanish = (
        '<div style="background:#fff"><span id="same-kind" style="color:#767676">xyz</span></div>'
        '<div style="background:#eee"><span id="other-backdrop" style="color:#767676">xyz</span></div>'
        '<div style="background:#fff"><span id="other-colour" style="color:#eee">xyz</span></div>'
        '<div style="background:#fff url(data:image/gif;base64,R0lGODlhAQABAAAAACw=)">'
        '<span id="over-an-image" style="color:#767676">xyz</span></div>'
    )
    page.set_content(f'<html lang="es"><title>t</title><main><h1>t</h1>{spanish}</main></html>')
    found, _, contrast_twins, _ = run_axe(page, None, kinds)
    assert page.locator("#same-kind[data-contrast-twin], h1[data-contrast-twin]").count() == contrast_twins == 2
    unreadable = {n["target"][0] for v in found if v["id"] == "color-contrast" for n in v["nodes"]}
    assert unreadable == {"#other-backdrop", "#other-colour"}  # #767676 on #eee and #eee on #fff: too faint
    assert page.locator("#over-an-image[data-contrast-twin]").count() == 0


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
