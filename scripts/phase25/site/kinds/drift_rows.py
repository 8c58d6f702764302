"""A drift report's table: one row per snippet, linked to where its page shows it, its diff folded under it.

The diff's id (``diff-<page>-<name>``) sits inside the fold, so a "changed in X.Y" mark that links to it opens
it with no script. A diff too long for a page is a file beside it (see downloads/drift_files.py), and the fold
holds the link and what the change means instead.
"""

from __future__ import annotations

from typing import Any

from ...core.drift_shape import DriftEntry, DriftReport
from ..downloads import drift_files
from ..lang.strings import STRINGS, number, text
from ..page.context import Page
from ..page.markup import escape
from . import snippet_pages
from .changed_mark import diff_id

ATLAS_NAMES = 24  # names shown per kind of atlas change; the rest are counted, and all are in the diff
HEADS = ("report_snippet", "report_status", "drift_kind")
# The atlas's fields whose values are the site's own categories, and the strings that name them on the atlas page.
CATEGORIES = {"atlas_drift_composite": "atlas_composite_", "atlas_drift_inductor": "atlas_inductor_"}


def snippet_cell(snippet_id: str, page: Page) -> str:
    """The snippet's name, linked to its block on the page of this language that shows it (if one does)."""
    href = snippet_pages.link(snippet_id, page)
    code = f"<code>{escape(snippet_id)}</code>"
    return f'<a href="{escape(href)}">{code}</a>' if href else code


def _status(entry: DriftEntry, report: DriftReport, page: Page) -> str:
    """The entry's state; a side that ran and failed says how (an API the older release lacks)."""
    lang, state = page.lang, entry["state"]
    said = text(lang, "drift_" + state)
    failed = (entry.get("failed") or {}).get("a" if state == "only-b" else "b")
    if failed and state in ("only-a", "only-b"):
        side = report["b" if state == "only-a" else "a"]
        said += " · " + text(lang, "drift_failed", torch=side.get("torch") or "", error=failed)
    digest, ran = page.catalog.digests.get(entry["snippet"]), entry["source_sha256"]
    if digest is not None and (ran.get("a") or ran.get("b") or digest) != digest:
        said += f" ({text(lang, 'drift_edited')})"
    return escape(said)


def _warnings(entry: DriftEntry, lang: str) -> str:
    """The warnings an upgrade adds to a snippet's run (a deprecation to act on) or removes."""
    found = entry["warnings"]
    rows = [
        f"<li>{escape(text(lang, 'drift_warning_' + side))} <code>{escape(w['category'])}</code> "
        f"(<code>{escape(w['module'])}</code>): {escape(w['message'])}</li>"
        for side, warnings in (("new", found["new"]), ("gone", found["gone"]))
        for w in warnings
    ]
    if not rows:
        return ""
    title = escape(text(lang, "drift_warnings_title", snippet=entry["snippet"]))
    return f'<div class="drift-warnings"><p>{title}</p><ul>{"".join(rows)}</ul></div>'


def _names(value: list[str] | dict[str, Any], kernels: bool) -> list[str]:
    """An atlas change's items: a name, ``name: keys`` (kernels) or ``name: old → new`` (a field)."""
    if isinstance(value, list):
        return value
    joiner = ", " if kernels else " → "
    return [f"{name}: {joiner.join(map(str, v))}" for name, v in value.items()]


def atlas_changes(entry: DriftEntry, lang: str) -> str:
    """What an upgrade changes in the dispatcher atlas, operator by operator (see core/atlas_drift.py); the
    kernels a CUDA build registers are listed apart from the release's."""
    found = entry.get("atlas")
    if not found:
        return ""
    rows = []
    for key in ("added", "removed", "kernels_gained", "kernels_lost", "composite", "decomposition", "inductor"):
        rows.append(_atlas_row(found.get(key) or [], "atlas_drift_" + key, lang))
    rows.append(_atlas_row(found.get("grad_fn") or [], "atlas_drift_grad_fn", lang))
    rows.append(_atlas_row(found.get("kernels_gained_build") or [], "atlas_drift_kernels_gained_build", lang))
    rows = [r for r in rows if r] or [f"<li>{escape(text(lang, 'atlas_drift_none'))}</li>"]
    title = escape(text(lang, "atlas_drift_title", snippet=entry["snippet"]))
    return f'<div class="drift-atlas"><p>{title}</p><ul>{"".join(rows)}</ul></div>'


def _categories(value: dict[str, Any], prefix: str, lang: str) -> list[str]:
    """``name: old → new`` where old and new are the site's own categories (a composite kind, Inductor's
    treatment): each is said in the page's language, as the atlas says it; an id the site no longer has (an older
    release's) stays as written, in code."""
    known = {k[len(prefix) :] for k in STRINGS[lang] if k.startswith(prefix)}

    def said(v: object) -> str:
        return escape(text(lang, prefix + v)) if isinstance(v, str) and v in known else f"<code>{escape(str(v))}</code>"

    return [f"<code>{escape(name)}</code>: {' → '.join(map(said, v))}" for name, v in value.items()]


def _atlas_row(value: list[str] | dict[str, Any], key: str, lang: str) -> str:
    prefix = CATEGORIES.get(key)
    if prefix and isinstance(value, dict):
        items = _categories(value, prefix, lang)
        shown = "; ".join(items[:ATLAS_NAMES])
    else:
        items = _names(value, "kernels" in key)
        shown = f"<code>{escape('; '.join(items[:ATLAS_NAMES]))}</code>"
    if not items:
        return ""
    more = f" {text(lang, 'atlas_drift_more', n=len(items) - ATLAS_NAMES)}" if len(items) > ATLAS_NAMES else ""
    return f"<li>{escape(text(lang, key, n=len(items)))} {shown}{escape(more)}</li>"


def _diff(entry: DriftEntry, name: str, page: Page, outside: frozenset[str]) -> str:
    """The folded diff, or the link to its file when it is too long for the page; the mark's target inside."""
    lang, diff, target = page.lang, entry["diff"], diff_id(entry["snippet"])
    lines = diff.count("\n") + 1
    summary = escape(text(lang, "drift_diff_lines", n=lines))
    if entry["snippet"] in outside:
        href = page.site_root + drift_files.diff_url(name, entry["snippet"])
        size = number(lang, len(diff.encode("utf-8")) / 1024, 0)
        link = f'<a href="{escape(href)}" download>{escape(href.rsplit("/", 1)[1])}</a>'
        body = f"{escape(text(lang, 'drift_download', n=lines, size=size))} {link}"
        inner = f'<div id="{target}"><p class="drift-download">{body}</p>{atlas_changes(entry, lang)}</div>'
    else:
        inner = f'<div class="highlight" id="{target}"><pre><code>{escape(diff)}</code></pre></div>'
        inner += atlas_changes(entry, lang)
    return f'<details class="quote drift-fold"><summary>{summary}</summary>{inner}</details>'


def rows(report: DriftReport, name: str, page: Page) -> list[str]:
    """One row per snippet; under a changed one, a row of its own with its warnings and its folded diff."""
    lang, found, outside = page.lang, [], drift_files.outside(report)
    for entry in report["entries"]:
        kind = text(lang, f"drift_kind_{entry['kind'] or 'none'}")
        cells = [snippet_cell(entry["snippet"], page), _status(entry, report, page), escape(kind)]
        found.append(
            f'<tr class="drift-{entry["state"]}" data-kind="{entry["kind"] or ""}">'
            + "".join(f"<td>{c}</td>" for c in cells)
            + "</tr>"
        )
        notes = _warnings(entry, lang) + (_diff(entry, name, page, outside) if entry["diff"] else "")
        if notes:
            found.append(f'<tr class="drift-fold-row"><td colspan="{len(HEADS)}">{notes}</td></tr>')
    return found
