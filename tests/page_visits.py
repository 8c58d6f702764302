"""Every page of the built site loaded once in a fresh tab, two at a time: what the per-page browser tests
read (the ``visits`` fixture in conftest.py holds the result for the whole session)."""

from __future__ import annotations

import queue
import threading
import time
import xml.etree.ElementTree as ET
from pathlib import Path
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


# The same page at a phone's width, once the tab is resized and the layout has followed (two frames): its width,
# the viewport's, its texts under 12 px and its shares.
PHONE_LOOK = f"""async () => {{
    await new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)));
    return {{viewport: innerWidth, width: document.documentElement.scrollWidth,
             small: ({SMALL_TEXT})(), shares: ({SHARES})()}};
}}"""


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
