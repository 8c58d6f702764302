"""The built site in headless Chromium: language switch keeps the page, tabs work, search is Spanish."""

from __future__ import annotations

import functools
import http.server
import shutil
import threading
from pathlib import Path

import pytest

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    # The stdlib server's keep-alive sockets close when the browser hangs up, not before.
    pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning"),
    pytest.mark.filterwarnings("ignore::ResourceWarning"),
]

CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def base_url(built_site: Path):
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args) -> None:
            pass

    handler = functools.partial(Quiet, directory=str(built_site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def page(base_url):
    from playwright.sync_api import sync_playwright

    assert shutil.which(CHROMIUM) or Path(CHROMIUM).exists(), "install Debian's chromium (make browser)"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield browser.new_page()
        browser.close()


def switch_to_spanish(page) -> None:
    page.hover(".md-header__option .md-select")
    page.click('a.md-select__link[hreflang="es"]')


def test_language_switch_lands_on_the_same_page(page, base_url):
    page.goto(f"{base_url}/reference/execution-report/")
    switch_to_spanish(page)
    page.wait_for_url(f"{base_url}/es/reference/execution-report/")
    assert page.locator("h1").inner_text().startswith("Informe de ejecución")


def test_and_back_to_english_on_the_same_page(page, base_url):
    page.goto(f"{base_url}/es/reference/execution-report/")
    page.hover(".md-header__option .md-select")
    page.click('a.md-select__link[hreflang="en"]')
    page.wait_for_url(f"{base_url}/reference/execution-report/")
    assert page.locator("h1").inner_text().startswith("Execution report")


def test_the_first_output_is_visible_on_load_and_device_tabs_switch(page, base_url):
    page.goto(f"{base_url}/")
    snippet = page.locator('.snippet[data-snippet="00-orientation/linear_grad_fn"]')
    assert snippet.locator(".snippet-code").is_visible()
    cpu_panel, cuda_panel = snippet.locator(".tabbed-block").nth(0), snippet.locator(".tabbed-block").nth(1)
    assert cpu_panel.is_visible() and "AddmmBackward0" in cpu_panel.inner_text(), "output hidden on load"
    assert not cuda_panel.is_visible()
    snippet.locator("label", has_text="CUDA").click()
    assert cuda_panel.is_visible() and "Not captured on a GPU yet" in cuda_panel.inner_text()
    snippet.locator("label", has_text="CPU").click()
    assert cpu_panel.is_visible()


def test_search_in_spanish_finds_spanish_pages_only(page, base_url):
    page.goto(f"{base_url}/es/")
    page.click("label.md-search__icon, .md-search__input")
    page.locator(".md-search__input").press_sequentially("fontanería", delay=30)
    result = page.locator(".md-search-result__item a").first
    result.wait_for(timeout=15000)
    hrefs = page.locator(".md-search-result__item a").evaluate_all("els => els.map(e => e.href)")
    assert hrefs and all("/es/" in href for href in hrefs), hrefs


def test_lab_notebook_switches_language_and_diagrams_render(page, base_url):
    page.goto(f"{base_url}/labs/01-autograd-by-hand/")
    assert page.locator(".jp-Cell").count() > 10
    switch_to_spanish(page)
    page.wait_for_url(f"{base_url}/es/labs/01-autograd-by-hand/")
    assert "Autograd a mano" in page.locator("h1").first.inner_text()
    page.goto(f"{base_url}/theory/02-autograd-and-custom-ops/")
    snippet = page.locator('.snippet[data-snippet="theory-02/graph_walk"]')
    # Material swaps each <pre class="mermaid"> for a <div> holding the drawing in a
    # closed shadow root: the swap and the drawing's size show that Mermaid ran.
    diagram = snippet.locator("div.mermaid").first
    diagram.wait_for(timeout=15000)
    assert snippet.locator("pre.mermaid").count() == 0
    assert diagram.bounding_box()["height"] > 100
