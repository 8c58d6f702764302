"""The top of a drift page: what a reader of each page would notice, the release's changes apart from the build's.

Each line is the report's own (reports/drift/<name>.readers.toml, checked against it by core/drift_readers.py):
why the change matters, and links to the output on the page that shows it and to its diff. A report with no
such file still lists each change, with its first changed lines instead of a reason.
"""

from __future__ import annotations

from ...core import drift, drift_readers, drift_rule
from ...core.drift_shape import DriftEntry, DriftReport
from ..lang.strings import text
from ..page.context import Page
from ..page.markup import escape, inline_code
from . import snippet_pages
from .changed_mark import diff_id


def _links(snippets: tuple[str, ...], page: Page) -> str:
    """Each snippet: its name linked to its output on the page that shows it (plain where none does), and its diff."""
    found = []
    for snippet in snippets:
        href = snippet_pages.link(snippet, page)
        name = f"<code>{escape(snippet)}</code>"
        shown = f'<a href="{escape(href)}">{name}</a>' if href else name
        found.append(f'{shown} (<a href="#{diff_id(snippet)}">{escape(text(page.lang, "drift_diff_link"))}</a>)')
    return ", ".join(found)


def _first_lines(entry: DriftEntry) -> str:
    """What a change looks like when nobody has said why it matters: its first removed and added lines."""
    lines = entry["diff"].split("\n")
    old = next((x[1:] for x in lines if x.startswith("-") and not x.startswith("---")), "")
    new = next((x[1:] for x in lines if x.startswith("+") and not x.startswith("+++")), "")
    return f"<code>{escape(old.strip()[:120])}</code> → <code>{escape(new.strip()[:120])}</code>"


def _items(report: DriftReport, changes: list[drift_readers.Change] | None, lang: str) -> dict[str, list]:
    """kind -> [(snippets, line HTML)], in the report's order (which is the pages' order)."""
    kinds = {e["snippet"]: e["kind"] for e in report["entries"] if e["state"] == "changed"}
    found: dict[str, list] = {kind: [] for kind in drift_readers.NOTICED}
    if changes is not None:
        for change in changes:
            kind = kinds.get(change.snippets[0])
            if kind in found:
                found[kind].append((change.snippets, inline_code(change.why[lang])))
        return found
    for entry in report["entries"]:
        if entry["state"] == "changed" and entry["kind"] in found:
            found[entry["kind"]].append(((entry["snippet"],), _first_lines(entry)))
    return found


def render(report: DriftReport, changes: list[drift_readers.Change] | None, page: Page) -> str:
    """The readers' summary: the release's changes, the build's under the rule that sets them apart, the rest
    counted."""
    lang, (a, b) = page.lang, (report["a"], report["b"])
    items = _items(report, changes, lang)
    parts = [f'<h2 id="what-a-reader-notices">{escape(text(lang, "drift_readers_title"))}</h2>']
    if changes is None:
        parts.append(f"<p>{escape(text(lang, 'drift_readers_missing'))}</p>")
    sections = [("real", "drift_release_title", ""), ("build", "drift_build_title", "drift_build_rule")]
    for kind, title, rule in sections:
        if not items[kind]:
            continue
        heading = text(lang, title, a=a.get("build") or a["torch"], b=b.get("build") or b["torch"])
        parts.append(f'<h3 id="changed-with-{"the-release" if kind == "real" else "the-build"}">{escape(heading)}</h3>')
        if rule and drift_rule.build_switch(report):
            parts.append(f'<p class="drift-rule">{escape(text(lang, rule))}</p>')
        lines = "".join(f"<li>{line} — {_links(snippets, page)}</li>" for snippets, line in items[kind])
        parts.append(f'<ul class="drift-readers">{lines}</ul>')
    tally = drift.counts(report)
    failed = sum(1 for e in report["entries"] if e["state"] == "only-b" and (e.get("failed") or {}).get("a"))
    rest = text(
        lang,
        "drift_quiet",
        quiet=tally["line-numbers"] + tally["volatile"],
        only=tally["only-b"],
        failed=failed,
        a=a["torch"],
    )
    parts.append(f'<p class="drift-quiet">{escape(rest)}</p>')
    return "".join(parts)
