"""Bilingual bookkeeping: twin pages, matching structure, fresh translations.

Each Spanish page says in its front matter which revision of its English twin
it translates (``translation_of: <hash>``, from :func:`pages.revision`). When
the English page changes, the hash no longer matches: the check fails and the
built page carries an "outdated translation" notice until someone re-translates
and re-stamps it (``make stamp-translation PAGE=docs/es/...``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from . import pages

SOURCE, TARGET = "en", "es"
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


def parity(docs: Path) -> list[Issue]:
    """Same files, same snippet directives in the same order, same explicit heading ids."""
    issues: list[Issue] = []
    english, spanish = page_files(docs, SOURCE), page_files(docs, TARGET)
    issues += [Issue(f"{TARGET}/{p}", "missing translation of en/" + p) for p in sorted(english - spanish)]
    issues += [Issue(f"{TARGET}/{p}", "has no English original") for p in sorted(spanish - english)]
    for rel in sorted(english & spanish):
        if not rel.endswith(".md"):
            continue
        en_text = (docs / SOURCE / rel).read_text(encoding="utf-8")
        es_text = (docs / TARGET / rel).read_text(encoding="utf-8")
        en_dirs = [(d.kind, d.arg) for d in pages.directives(en_text)]
        es_dirs = [(d.kind, d.arg) for d in pages.directives(es_text)]
        if en_dirs != es_dirs:
            issues.append(Issue(f"{TARGET}/{rel}", f"snippet directives differ from English: {es_dirs} != {en_dirs}"))
        for lang, text in ((SOURCE, en_text), (TARGET, es_text)):
            for level, heading, heading_id in pages.headings(text):
                if level > 1 and heading_id is None:
                    issues.append(Issue(f"{lang}/{rel}", f"heading without an explicit id: {heading!r}"))
        en_ids = [h[2] for h in pages.headings(en_text) if h[0] > 1]
        es_ids = [h[2] for h in pages.headings(es_text) if h[0] > 1]
        if en_ids != es_ids:
            issues.append(Issue(f"{TARGET}/{rel}", f"heading ids differ from English: {es_ids} != {en_ids}"))
    return issues


def freshness(docs: Path, rel: str) -> str | None:
    """Why ``es/<rel>`` is not a translation of the current English page, or None."""
    source = docs / SOURCE / rel
    target = docs / TARGET / rel
    if not source.exists() or not target.exists() or not rel.endswith(".md"):
        return None
    recorded = pages.front_matter(target.read_text(encoding="utf-8")).get("translation_of")
    if not recorded:
        return "no 'translation_of' in its front matter"
    current = pages.revision(source)
    if recorded != current:
        return f"translates English revision {recorded}, the English page is now {current}"
    return None


def outdated(docs: Path) -> list[Issue]:
    return [
        Issue(f"{TARGET}/{rel}", reason)
        for rel in sorted(page_files(docs, SOURCE) & page_files(docs, TARGET))
        if (reason := freshness(docs, rel))
    ]


def stamp(docs: Path, rel: str) -> str:
    """Record that ``es/<rel>`` now translates the current English page."""
    target = docs / TARGET / rel
    text = target.read_text(encoding="utf-8")
    value = pages.revision(docs / SOURCE / rel)
    match = pages.FRONT_MATTER.match(text)
    if not match:
        text = f"---\ntranslation_of: {value}\n---\n" + text
    elif re.search(r"^translation_of:.*$", match.group("body"), re.MULTILINE):
        body = re.sub(r"^translation_of:.*$", f"translation_of: {value}", match.group("body"), flags=re.MULTILINE)
        text = f"---\n{body}\n---\n" + text[match.end() :]
    else:
        text = f"---\n{match.group('body')}\ntranslation_of: {value}\n---\n" + text[match.end() :]
    target.write_text(text, encoding="utf-8")
    return value
