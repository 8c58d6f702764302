"""What a reader meets on one built page, read from its HTML: ids that are unique, text with no placeholder or
control character in it, downloads that hold what their sentence says, and "above"/"below" references that name
something on the page in that direction. Links and anchors are the link checker's (tools/reader_path.py).
"""

from __future__ import annotations

import json
import re
import zipfile
from dataclasses import dataclass, field
from functools import cache
from html.parser import HTMLParser
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urlsplit

from ..site.lang import strings

SKIPPED = {"script", "style", "template"}  # their text is not read by anyone
HIDDEN_CLASSES = {"clipboard-copy-txt"}  # text kept for a copy button, never shown
CODE = {"code", "pre", "kbd", "samp"}  # output and code: braces and symbols there are the program's
HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
# Control characters, their visible stand-ins (U+2400-U+2426, what an escaped NUL becomes) and the replacement
# character: none of them is ever meant for a reader.
UNREADABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u2400-\u2426\ufffd]")
PLACEHOLDER = re.compile(r"\{[a-z_]{2,30}\}|\{ ?#[\w-]+ ?\}")  # an unfilled {name}, or an attribute list left as text
# "the tlparse section below", "exercise 3 below", "dynamic shapes (above)": each language says them in its own
# words, a regular expression of its strings (reader_path_* keys), with the groups `name`, `n` and `dir`.


@cache
def said(lang: str, key: str) -> re.Pattern[str]:
    return re.compile(strings.STRINGS[lang][f"reader_path_{key}"])  # as written: a pattern is not formatted


@cache
def words(lang: str, key: str) -> frozenset[str]:
    return frozenset(strings.STRINGS[lang][f"reader_path_{key}"].split())


DOWNLOAD_SIZE = re.compile(r"\((\d[\d,.]*)\s*KB\)")


@dataclass(frozen=True)
class Problem:
    page: str  # the page's path inside the site
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.page}:{self.line}: {self.message}"


@dataclass
class Text:
    """A run of text with where it is: its line, the heading it follows, whether it is code, its link."""

    data: str
    line: int
    code: bool
    link: str | None
    order: int  # its place in the document, for "above" and "below"


@dataclass
class Reading(HTMLParser):
    """One pass over a page: its ids, headings, links, downloads and texts, in document order."""

    ids: dict[str, list[int]] = field(default_factory=dict)
    headings: list[tuple[int, str, str]] = field(default_factory=list)  # (order, level, text)
    texts: list[Text] = field(default_factory=list)
    downloads: list[tuple[int, str, int]] = field(default_factory=list)  # (line, href, order of the link's text)
    stack: list[str] = field(default_factory=list)
    hidden: list[bool] = field(default_factory=list)  # per open element: is it (or what holds it) never shown
    links: list[str | None] = field(default_factory=list)
    heading: list[str] | None = None

    def __post_init__(self) -> None:
        super().__init__(convert_charrefs=True)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if (ident := values.get("id")) is not None:
            self.ids.setdefault(ident, []).append(self.getpos()[0])
        if tag == "a":
            self.links.append(values.get("href"))
            if "download" in values and values.get("href"):
                self.downloads.append((self.getpos()[0], values["href"] or "", len(self.texts)))
        if tag in HEADINGS:
            self.heading = []
        if tag not in VOID:
            self.stack.append(tag)
            classes = set((values.get("class") or "").split())
            self.hidden.append(bool(classes & HIDDEN_CLASSES) or "hidden" in values or tag in SKIPPED)

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self.links:
            self.links.pop()
        if tag in HEADINGS and self.heading is not None:
            self.headings.append((len(self.texts), tag, " ".join(self.heading)))
            self.heading = None
        if tag in self.stack:
            while self.stack:
                self.hidden.pop()
                if self.stack.pop() == tag:
                    break

    def handle_data(self, data: str) -> None:
        if any(self.hidden):
            return
        if self.heading is not None:
            self.heading.append(data)
        link = next((href for href in reversed(self.links) if href), None)
        code = any(tag in CODE for tag in self.stack)
        self.texts.append(Text(data, self.getpos()[0], code, link, len(self.texts)))


def read(html: str) -> Reading:
    reading = Reading()
    reading.feed(html)
    reading.close()
    return reading


def duplicate_ids(page: str, reading: Reading) -> list[Problem]:
    return [
        Problem(page, lines[1], f'the id "{ident}" is given to {len(lines)} elements (lines {_joined(lines)})')
        for ident, lines in reading.ids.items()
        if len(lines) > 1
    ]


def _joined(lines: list[int]) -> str:
    return ", ".join(map(str, lines))


def unreadable_text(page: str, reading: Reading) -> list[Problem]:
    """A control character or its stand-in anywhere a reader reads; an unfilled placeholder in prose."""
    problems = []
    for text in reading.texts:
        if found := UNREADABLE.search(text.data):
            problems.append(Problem(page, text.line, f"the text shows U+{ord(found[0]):04X} near {_near(text, found)}"))
        elif not text.code and (found := PLACEHOLDER.search(text.data)):
            problems.append(Problem(page, text.line, f"the text shows a placeholder {found[0]!r}"))
    return problems


def _near(text: Text, found: re.Match[str]) -> str:
    return repr(text.data[max(0, found.start() - 30) : found.end() + 30])


def _prose(reading: Reading) -> list[tuple[Text, str, str | None]]:
    """The page's prose in runs that end with a sentence: (its first text, the words, a link inside it)."""
    joined: list[tuple[Text, str, str | None]] = []
    boundaries = {order for order, _, _ in reading.headings}
    for text in reading.texts:
        if text.code and len(text.data) > 80:
            continue  # an output or a code block, not a sentence
        if joined and text.order not in boundaries and not joined[-1][1].rstrip().endswith((".", ":")):
            first, words, link = joined[-1]
            joined[-1] = (first, words + text.data, link or text.link)
        else:
            joined.append((text, text.data, text.link))
    return joined


def references(page: str, reading: Reading, lang: str) -> list[Problem]:
    """Each "the X section above/below" names a heading on this page in that direction (or links to one), each
    "X (above)" words the page shows there, and each "exercise N above/below" an exercise of this page there."""
    problems = []
    for first, run, link in _prose(reading):
        flat = " ".join(run.split())
        for check in (_section, _aside, _exercise):
            for found in said(lang, check.__name__.strip("_") + "_ref").finditer(flat):
                if why := check(found, reading, lang, first.order, link):
                    problems.append(Problem(page, first.line, f"{found[0]!r}: {why}"))
    return problems


def _before(found: re.Match[str], lang: str, at: int, order: int) -> bool:
    """Whether a place (by its order in the page) is on the side of ``at`` the reference points to."""
    return order <= at if found["dir"] in words(lang, "up") else order > at


def _section(found: re.Match[str], reading: Reading, lang: str, at: int, link: str | None) -> str | None:
    if link and "#" in link:
        return None  # it links to the section it names: the link checker holds the link
    named = {w.lower().strip("`'’") for w in re.findall(r"[\w`'’-]+", found["name"])} - words(lang, "stop")
    side = [h for h in reading.headings if _before(found, lang, at, h[0])]
    if named and not any(named & {w.lower() for w in re.findall(r"[\w'’-]+", h[2])} for h in side):
        return f"no heading {found['dir']} it names {found['name']}"
    return None


def _aside(found: re.Match[str], reading: Reading, lang: str, at: int, link: str | None) -> str | None:
    shown = [t.data for t in reading.texts if t.order != at and _before(found, lang, at - 1, t.order)]
    seen = "".join("".join(shown).lower().split())  # highlighted code is split into spans: join them
    wanted = [w.strip("`'’.") for w in found["name"].lower().split()]
    if any(w not in seen for w in wanted if w not in words(lang, "stop")):
        return f"no {found['name']} {found['dir']} it on this page"
    return None


def _exercise(found: re.Match[str], reading: Reading, lang: str, at: int, link: str | None) -> str | None:
    number = re.compile(rf"^\s*(?:{strings.text(lang, 'reader_path_exercise')})?\s*{found['n']}\.\s")
    if not any(number.match(t.data) for t in reading.texts if t.order != at and _before(found, lang, at, t.order)):
        return f"this page has no exercise {found['n']} there"
    return None


def downloads(page: str, reading: Reading, html_path: Path, site: Path) -> list[Problem]:
    """A download link leads to a file that is what it says: a zip that opens (a lab's holds the notebook the page
    links, byte for byte), a notebook that parses, and the size its sentence gives."""
    problems = []
    hrefs = [href for _, href, _ in reading.downloads]
    for line, href, order in reading.downloads:
        target = _local(href, html_path, site)
        if target is None or not target.is_file():
            problems.append(Problem(page, line, f"the download {href} is not a file of the site"))
            continue
        problems += [Problem(page, line, why) for why in _holds(target, hrefs, html_path, site)]
        problems += _size_said(page, (line, order), reading, target)
    return problems


def _local(href: str, html_path: Path, site: Path) -> Path | None:
    parts = urlsplit(href)
    if parts.scheme or parts.netloc:
        return None
    path = (html_path.parent / unquote(parts.path)).resolve()
    return path if path.is_relative_to(site.resolve()) else None


def _holds(target: Path, hrefs: list[str], html_path: Path, site: Path) -> list[str]:
    if target.suffix == ".ipynb":
        try:
            notebook = json.loads(target.read_text())
        except (ValueError, UnicodeDecodeError) as exc:
            return [f"{target.name} is not a notebook: {exc}"]
        return [] if notebook.get("nbformat") == 4 and notebook.get("cells") else [f"{target.name} has no cells"]
    if target.suffix != ".zip":
        return []
    try:
        with zipfile.ZipFile(target) as archive:
            names = set(archive.namelist())
            notebooks = [_local(h, html_path, site) for h in hrefs if h.endswith(".ipynb")]
            for notebook in filter(None, notebooks):
                inside = [n for n in names if PurePosixPath(n).name == notebook.name]
                if len(inside) != 1:
                    return [f"{target.name} does not hold {notebook.name}, the notebook the page links"]
                if archive.read(inside[0]) != notebook.read_bytes():
                    return [f"{target.name} holds another {notebook.name} than the one the page links"]
            if not any(PurePosixPath(n).name.lower().startswith("readme") for n in names):
                return [f"{target.name} has no README"]
    except zipfile.BadZipFile:
        return [f"{target.name} is not a zip archive"]
    return []


def _size_said(page: str, where: tuple[int, int], reading: Reading, target: Path) -> list[Problem]:
    """The size the link's sentence gives, in the few texts after the link, is the file's."""
    line, order = where
    after = [t.data for t in reading.texts if t.order >= order][:3]
    said = DOWNLOAD_SIZE.search(" ".join(after))
    if said and int(re.sub(r"[,.]", "", said[1])) != target.stat().st_size // 1024:
        size = target.stat().st_size // 1024
        return [Problem(page, line, f"the sentence says {said[1]} KB, {target.name} is {size} KB")]
    return []
