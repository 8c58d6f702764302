"""Translation bookkeeping: twin pages, matching structure, fresh translations.

The default language's pages are the originals; every other language declared (:mod:`languages`) translates
them. Each translated page says in its front matter which revision of its original
it translates (``translation_of: <hash>``, from :func:`page_source.revision`). When
the English page changes, the hash no longer matches: the check fails and the
built page carries an "outdated translation" notice until someone re-translates
and re-stamps it (``make stamp-translation PAGE=docs/es/...``).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from pathlib import Path

from ...core.atomic import write_atomic
from ...core.errors import SourceError
from ..page import directives, page_source
from ..page.markup import admonition, escape
from . import strings
from .strings import DEFAULT, LANGUAGES

SOURCE = DEFAULT  # the language of the originals
TARGETS = tuple(code for code in LANGUAGES if code != SOURCE)  # the languages that translate them
PAGE_GLOBS = ("*.md", "*.ipynb")


@dataclass(frozen=True)
class Issue:
    page: str
    message: str

    def __str__(self) -> str:
        return f"{self.page}: {self.message}"


def page_files(docs: Path, lang: str) -> set[str]:
    base = docs / lang
    return {p.relative_to(base).as_posix() for glob in PAGE_GLOBS for p in base.rglob(glob)}


def _differences(page: str, what: str, english: list[tuple[int, str]], spanish: list[tuple[int, str]]) -> list[Issue]:
    """Name each item missing from, added to or moved in the translated ``page`` (``es/x.md``), with its line."""
    issues = []
    matcher = difflib.SequenceMatcher(a=[t for _, t in english], b=[t for _, t in spanish], autojunk=False)
    for op, a1, a2, b1, b2 in matcher.get_opcodes():
        if op in ("delete", "replace"):
            issues += [Issue(page, f"missing {what} {text} (English line {line})") for line, text in english[a1:a2]]
        if op in ("insert", "replace"):
            issues += [
                Issue(f"{page}:{line}", f"{what} {text} is not in the English page") for line, text in spanish[b1:b2]
            ]
    return issues


def _directives(text: str, where: str) -> list[tuple[int, str]]:
    return [(d.line, f"'::: {' '.join((d.kind, *d.args))}'") for d in directives.parse(text, where)]


def _ids(text: str) -> list[tuple[int, str]]:
    body = page_source.strip_front_matter(text)
    offset = text[: len(text) - len(body)].count("\n")
    lines = body.split("\n")
    found = []
    for level, heading, heading_id in page_source.headings(text):
        if level > 1:
            line = next((i for i, t in enumerate(lines, 1) if t.strip().endswith(heading)), 0) + offset
            found.append((line, f"#{heading_id}"))
    return found


def parity(docs: Path) -> list[Issue]:
    """Same files, same directives in the same order, same explicit heading ids, in every translation."""
    return [issue for lang in TARGETS for issue in _parity(docs, lang)]


def _parity(docs: Path, lang: str) -> list[Issue]:
    issues: list[Issue] = []
    original, translated = page_files(docs, SOURCE), page_files(docs, lang)
    issues += [Issue(f"{lang}/{p}", f"missing translation of {SOURCE}/" + p) for p in sorted(original - translated)]
    issues += [Issue(f"{lang}/{p}", "has no original") for p in sorted(translated - original)]
    for rel in sorted(original & translated):
        if not rel.endswith(".md"):
            continue
        en_text = (docs / SOURCE / rel).read_text(encoding="utf-8")
        es_text = (docs / lang / rel).read_text(encoding="utf-8")
        try:
            issues += _differences(
                f"{lang}/{rel}",
                "directive",
                _directives(en_text, f"{SOURCE}/{rel}"),
                _directives(es_text, f"{lang}/{rel}"),
            )
        except SourceError as exc:
            issues.append(Issue(exc.path, str(exc).split(": ", 1)[1]))
        for code, text in ((SOURCE, en_text), (lang, es_text)):
            for level, heading, heading_id in page_source.headings(text):
                if level > 1 and heading_id is None:
                    issues.append(Issue(f"{code}/{rel}", f"heading without an explicit id: {heading!r}"))
        issues += _differences(f"{lang}/{rel}", "heading id", _ids(en_text), _ids(es_text))
    return issues


def freshness(docs: Path, rel: str, lang: str) -> str | None:
    """Why ``<lang>/<rel>`` is not a translation of the current original page, or None."""
    source = docs / SOURCE / rel
    target = docs / lang / rel
    if not source.exists() or not target.exists() or not rel.endswith(".md"):
        return None
    recorded = page_source.front_matter(target.read_text(encoding="utf-8")).get("translation_of")
    if not recorded:
        return "no 'translation_of' in its front matter"
    current = page_source.revision(source)
    if recorded != current:
        return f"translates English revision {recorded}, the English page is now {current}"
    return None


def outdated(docs: Path) -> list[Issue]:
    return [
        Issue(f"{lang}/{rel}", reason)
        for lang in TARGETS
        for rel in sorted(page_files(docs, SOURCE) & page_files(docs, lang))
        if (reason := freshness(docs, rel, lang))
    ]


def stamp(docs: Path, rel: str, lang: str) -> str:
    """Record that ``<lang>/<rel>`` now translates the current original page."""
    target = docs / lang / rel
    text = target.read_text(encoding="utf-8")
    value = page_source.revision(docs / SOURCE / rel)
    match = page_source.FRONT_MATTER.match(text)
    if not match:
        text = f"---\ntranslation_of: {value}\n---\n" + text
    elif re.search(r"^translation_of:.*$", match.group("body"), re.MULTILINE):
        body = re.sub(r"^translation_of:.*$", f"translation_of: {value}", match.group("body"), flags=re.MULTILINE)
        text = f"---\n{body}\n---\n" + text[match.end() :]
    else:
        text = f"---\n{match.group('body')}\ntranslation_of: {value}\n---\n" + text[match.end() :]
    write_atomic(target, text, shown_as=f"docs/{lang}/{rel}")
    return value


def notice(docs: Path, src_uri: str, url: str) -> str:
    """The warning a translated page carries while it translates an older revision of its original (empty when
    it is current, or an original): ``src_uri`` is the page's source (``es/x.md``), ``url`` its address."""
    lang, _, rel = src_uri.partition("/")
    if lang not in TARGETS or freshness(docs, rel, lang) is None:  # the build's check names the reason
        return ""
    # Built after Markdown, so static-i18n does not localize the link back to the translation.
    original = "../" * url.count("/") + url.split("/", 1)[1]
    body = escape(strings.text(lang, "outdated", english_url="@@URL@@"))
    body = body.replace("[", f'<a hreflang="{SOURCE}" href="{original}">', 1)
    body = re.sub(r"\]\(@@URL@@\)", "</a>", body)
    return admonition("warning", strings.text(lang, "outdated_title"), body)
