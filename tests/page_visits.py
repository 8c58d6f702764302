"""Every page of the built site loaded once in a fresh tab, two at a time: what the per-page browser tests
read (the ``visits`` fixture in conftest.py holds the result for the whole session)."""

from __future__ import annotations

import queue
import threading
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from axe_check import axe_violations
from browsing import CHROMIUM, DESKTOP, FLAGS, PHONE, SITEMAP_NS, site_prefix

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


HAS_DIAGRAM = "() => document.querySelector('figure.snippet-diagram svg') !== null"


# The same page at a phone's width, once the tab is resized and the layout has followed (two frames): its width,
# the viewport's, its texts under 12 px and its shares.
PHONE_LOOK = f"""async () => {{
    await new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)));
    return {{viewport: innerWidth, width: document.documentElement.scrollWidth,
             small: ({SMALL_TEXT})(), shares: ({SHARES})()}};
}}"""


Twin = dict[str, Any] | None  # what a translation's English twin measured; None for a page of the default language


@dataclass(frozen=True)
class Probe:
    """One per-page measurement: ``measure`` runs in the page's tab at ``viewport``, given what the page's English
    twin measured when the page is a translation. Its result is kept under the row's name, its time in ``seconds``.
    """

    viewport: dict[str, int]
    measure: Callable[[Any, Twin], Any]


def script(source: str) -> Callable[[Any, Twin], Any]:
    """A probe that is a script run in the page."""
    return lambda tab, _twin: tab.evaluate(source)


def axe(tab, twin: Twin) -> dict[str, Any]:
    """axe's serious and critical violations (see :func:`axe_check.run_axe`), what its shortcuts left out, and
    what the page's translation needs from it: its code blocks and the kinds of text whose contrast it checked."""
    blocks = tab.evaluate("[...document.querySelectorAll('pre > code')].map(b => b.outerHTML)")
    english = (twin["axe"]["blocks"], twin["axe"]["kinds"]) if twin else (None, None)
    violations, twins, contrast_twins, kinds = axe_violations(tab, *english)
    return {
        "violations": violations,
        "twin_blocks": twins,
        "contrast_twins": contrast_twins,
        "blocks": blocks,
        "kinds": kinds,
    }


# What every page's visit measures, one row per per-page check, in the order the rows run: the shares before axe
# marks the page, and the phone's row last, on the page as loaded with its tab resized to a phone's width (see
# test_every_page_on_a_phone_has_no_sideways_scroll_and_no_text_under_12_px). The test that reads each row:
PROBES: dict[str, Probe] = {
    "shares": Probe(DESKTOP, script(SHARES)),  # test_theory_pages_report_their_share_of_code_output_and_prose
    "diagram": Probe(DESKTOP, script(HAS_DIAGRAM)),  # test_every_page_transfers_at_most_300_kb, which marks them
    "axe": Probe(DESKTOP, axe),  # test_no_serious_or_critical_accessibility_violation
    "phone": Probe(PHONE, script(PHONE_LOOK)),  # test_every_page_on_a_phone_has_no_sideways_scroll_and_no_text_...
}


def visit(browser, base: str, path: str, twin: Twin) -> dict[str, Any]:
    """One page loaded in a fresh tab at a desktop's width: its errors, failed requests and bytes, and each row
    of ``PROBES`` measured in turn."""
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
    found: dict[str, Any] = {"seconds": {"load": time.perf_counter() - started}}
    tab.wait_for_timeout(300)
    for name, probe in PROBES.items():
        started = time.perf_counter()
        if probe.viewport != tab.viewport_size:
            tab.set_viewport_size(probe.viewport)
        found[name] = probe.measure(tab, twin)
        found["seconds"][name] = time.perf_counter() - started
    weight = [sum(size[i] for url, size in sizes.items() if "search_index.json" not in url) for i in (0, 1)]
    if path == "no/such/page/":  # its own document is a 404 by design; what it loads must not be
        errors = [e for e in errors if "status of 404" not in e]
    context.close()
    return found | {"errors": errors, "failed": failed, "bytes": weight[0], "decoded": weight[1]}


def next_or_none(pending: queue.SimpleQueue) -> str | None:
    try:
        return pending.get_nowait()
    except queue.Empty:
        return None


VISITORS = 2  # tabs at work at once, one browser each: Playwright's sync API keeps to the thread that started it


def visit_all(base: str, paths: list[str]) -> dict[str, dict]:
    """Every page visited by ``VISITORS`` threads: English pages first, then the translations, which
    need what their twin measured (see :func:`axe_check.run_axe`)."""
    english = [p for p in paths if not p.startswith(TRANSLATED)]
    phases = [english, [p for p in paths if p not in english]]
    queues = [queue.SimpleQueue() for _ in phases]
    for todo, pending in zip(phases, queues, strict=True):
        for path in todo:
            pending.put(path)
    found: dict[str, dict] = {}
    failures: list[Exception] = []
    barrier = threading.Barrier(VISITORS)

    def work() -> None:
        from playwright.sync_api import sync_playwright

        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
                for pending in queues:
                    for path in iter(lambda pending=pending: next_or_none(pending), None):
                        twin = found.get(path.removeprefix(TRANSLATED)) if path.startswith(TRANSLATED) else None
                        found[path] = visit(browser, base, path, twin)
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
