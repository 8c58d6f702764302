"""The site as one zip a reader opens from the disk (``file://``): both languages, the search, the language switch.

Material's ``offline`` plugin was tried with this site and is not used, for what it does here:

- it turns ``use_directory_urls`` off, which changes every address of the site: the links this package writes
  itself (a lab's download, the execution report's links to each snippet) assume directory addresses and break;
- it writes ``search/search_index.js`` before the site's own last step splits static-i18n's merged search index
  per language, so the English search lists both languages and the Spanish search has no index at all;
- it loads its Web Worker shim (iframe-worker) from unpkg.com: a copy read offline has no search, and one read
  online asks a third party for every page.

So the copy is the strict build itself, addresses unchanged, then made readable from the disk: each link to a
folder names its ``index.html`` (a browser shows a folder's listing from ``file://``), each language's search
index is also a script (no fetch from ``file://``), and the shim, kept in this folder, is loaded from the copy.
"""

from __future__ import annotations

import argparse
import json
import re
import tempfile
import zipfile
from pathlib import Path

from ..core.errors import SourceError
from ..core.paths import Layout
from . import build_site

SHIM = Path(__file__).with_name("iframe_worker_shim.js")
SHIM_NAME = "assets/javascripts/iframe-worker-shim.js"
FOLDER = "phase25-site"  # the one folder at the top of the zip
_URL = re.compile(r'(?P<attr>\b(?:href|src)=")(?P<url>[^"#?]*)(?P<rest>[#?][^"]*)?"')
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def _file_url(url: str) -> str:
    """A relative address of a folder (``../es/``, ``..``, ``.``) as the file a browser opens from the disk."""
    if not url or url.startswith("/") or _SCHEME.match(url):
        return url
    if url.endswith("/"):
        return url + "index.html"
    if url.rsplit("/", 1)[-1] in (".", ".."):
        return url + "/index.html"
    return url


def readable_from_disk(html: str, depth: int) -> str:
    """One page: its folder links made file links, and the shim loaded first (``depth``: folders below the root)."""
    html = _URL.sub(lambda m: f'{m["attr"]}{_file_url(m["url"])}{m["rest"] or ""}"', html)
    shim = f'<script src="{"../" * depth}{SHIM_NAME}"></script>'
    return html.replace("<head>", "<head>" + shim, 1) if shim not in html else html


def make_offline(site: Path) -> int:
    """Turn a built site into its offline copy, in place; returns the number of pages changed."""
    pages = 0
    for page in sorted(site.rglob("*.html")):
        depth = len(page.relative_to(site).parts) - 1
        before = page.read_text(encoding="utf-8")
        after = readable_from_disk(before, depth)
        if after != before:
            page.write_text(after, encoding="utf-8")
            pages += 1
    for index in sorted(site.rglob("search/search_index.json")):  # Material reads __index from this script
        found = json.loads(index.read_text(encoding="utf-8"))
        for doc in found.get("docs", []):  # a result opens the page's file, not the listing of its folder
            path, hash_, anchor = doc["location"].partition("#")
            doc["location"] = (_file_url(path) if path else path) + hash_ + anchor
        script = "var __index = " + json.dumps(found, ensure_ascii=False)
        index.with_suffix(".js").write_text(script, encoding="utf-8")
    (site / SHIM_NAME).write_bytes(SHIM.read_bytes())
    return pages


def pack(site: Path, archive: Path) -> None:
    """The copy as a zip whose every file lies under one folder; the same bytes for the same site."""
    archive.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as packed:
        for path in sorted(p for p in site.rglob("*") if p.is_file() and not p.is_symlink()):
            info = zipfile.ZipInfo(f"{FOLDER}/{path.relative_to(site).as_posix()}", date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            packed.writestr(info, path.read_bytes(), zipfile.ZIP_DEFLATED)


def build(root: Path, folder: Path) -> Path:
    """Build the site strictly into ``folder`` and make it readable from the disk; the strict build's refusal
    is an error naming mkdocs.yml with the build's last lines."""
    built = build_site.build(root, folder)
    if built.returncode:
        raise SourceError("mkdocs.yml", f"the strict build failed, so no offline copy:\n{built.stderr[-3000:]}")
    make_offline(folder)
    return folder / "index.html"


def main(args: argparse.Namespace, layout: Layout) -> int:
    """``python -m phase25 offline [--output site-offline.zip]``: build, convert, zip."""
    archive = Path(args.output).resolve()
    with tempfile.TemporaryDirectory(prefix="phase25-offline-") as scratch:
        build(layout.root, Path(scratch) / "site")
        pack(Path(scratch) / "site", archive)
    print(f"wrote {archive} ({archive.stat().st_size // 1024} KB): unzip it and open {FOLDER}/index.html")
    return 0
