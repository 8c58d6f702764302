"""Serving the built site as a static host does, and the browser the browser tests drive: shared by every
browser test module (the fixtures themselves are in conftest.py)."""

from __future__ import annotations

import contextlib
import functools
import gzip
import http.server
import io
import threading
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import urlparse

import pytest

DESKTOP = {"width": 1400, "height": 900}
PHONE = {"width": 390, "height": 844}
CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SITEMAP_NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
ELSEWHERE = "/other/prefix/"  # a second path to serve the same build under
COMPRESSED = {".html", ".css", ".js", ".json", ".xml", ".svg", ".txt", ".ipynb"}


def site_prefix(built_site: Path) -> str:
    """The path the site is published under, read from its own sitemap (site_url)."""
    first = ET.parse(built_site / "sitemap.xml").getroot().find("s:url/s:loc", SITEMAP_NS).text
    return urlparse(first).path


@functools.cache
def gzipped(path: Path) -> bytes:
    """A file as a static host sends it: compressed once, not on every request."""
    return gzip.compress(path.read_bytes(), compresslevel=6)


@contextlib.contextmanager
def serving(built_site: Path, prefix: str, port: int = 0):
    """The built site served under ``prefix`` (on ``port``, or any free one), as a static host does; yields the
    base URL, without its last slash."""

    class Site(http.server.SimpleHTTPRequestHandler):
        """Serves site/ under the prefix, text gzipped; anything else gets the site's 404 page."""

        def log_message(self, *args) -> None:
            pass

        def send_head(self):
            path = Path(self.translate_path(self.path))
            if path.is_dir():
                path = path / "index.html"
            if (
                not path.is_file()
                or path.suffix not in COMPRESSED
                or "gzip" not in self.headers.get("Accept-Encoding", "")
            ):
                return super().send_head()
            body = gzipped(path)
            self.send_response(200)
            self.send_header("Content-Type", self.guess_type(str(path)))
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            return io.BytesIO(body)

        def translate_path(self, path: str) -> str:
            if path.startswith(prefix):
                return super().translate_path("/" + path[len(prefix) :])
            return str(built_site / "missing")

        def send_error(self, code, message=None, explain=None) -> None:
            if code != 404:
                return super().send_error(code, message, explain)
            body = (built_site / "404.html").read_bytes()
            self.send_response(404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), functools.partial(Site, directory=str(built_site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}{prefix.rstrip('/')}"
    finally:
        server.shutdown()
        server.server_close()


def show_in_page(tab, url: str, html: str) -> None:
    """Serve ``url`` with its article replaced by ``html``: a rendered toy page seen in the site's real chrome."""
    import re

    inner = re.compile(r'(<article class="md-content__inner md-typeset">).*?(</article>)', re.S)

    def fulfil(route):
        page_html = route.fetch().text()
        route.fulfill(body=inner.sub(lambda m: m.group(1) + html + m.group(2), page_html), content_type="text/html")

    tab.route(url, fulfil)


# Every module that drives Chromium against the served site: browser tests, slow, and the stdlib server's keep-alive
# sockets, which close when the browser hangs up and not before, are no warning of the test's.
BROWSER_MARKS = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning"),
    pytest.mark.filterwarnings("ignore::ResourceWarning"),
]
