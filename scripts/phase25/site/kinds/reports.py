"""The two report directives: the execution report (every run's state) and a drift report (an upgrade)."""

from __future__ import annotations

from typing import Any

from ...core import drift
from ...core.catalog import VERDICTS, Catalog
from ..lang.strings import number, text
from ..page.context import Page, Problem, Rendered
from ..page.directives import Directive
from ..page.markup import admonition, escape
from . import snippet_pages
from .changed_mark import diff_id


def _table(classes: str, heads: list[str], rows: list[str], name: str = "") -> str:
    """A report's table. The execution report's tables scroll in their own box where the column is narrower
    (snippets.css): named (``name``), such a box is reached and scrolled with the keyboard."""
    head = "".join(f"<th>{escape(h)}</th>" for h in heads)
    box = f' tabindex="0" aria-label="{escape(name)}"' if name else ""
    return f'<table class="{classes}"{box}><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'


def _snippet_cell(snippet_id: str, page: Page) -> str:
    """The snippet's name, linked to its block on the page of this language that shows it (if one does)."""
    href = snippet_pages.link(snippet_id, page)
    code = f"<code>{escape(snippet_id)}</code>"
    return f'<a href="{escape(href)}">{code}</a>' if href else code


def execution_report(directive: Directive, page: Page) -> Rendered:
    """Every (snippet, device): its state, wall time, torch, where and when it ran."""
    lang, catalog = page.lang, page.catalog
    rows, tally = [], {"ok": 0, "missing": 0, "bad": 0}
    for (snippet_id, device), standing in sorted(catalog.standings.items()):
        verdict = standing.verdict
        assert verdict in VERDICTS
        tally["ok" if verdict == "current" else "bad" if standing.is_problem(device) else "missing"] += 1
        rec = standing.record
        cells = [
            _snippet_cell(snippet_id, page),
            escape(text(lang, f"device_{device}")),
            escape(text(lang, f"status_{verdict}")),
            escape(f"{number(lang, rec.run['wall_s'])} s") if rec else "—",
            escape(str(rec.provenance.get("torch", "—"))) if rec else "—",
            escape(str(rec.provenance.get("device_name", "—"))) if rec else "—",
            escape(str(rec.run.get("date", "—"))) if rec else "—",
            escape(str(len(rec.warnings))) if rec else "—",
        ]
        rows.append(f'<tr class="report-{verdict}">' + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    summary = text(lang, "report_summary", total=len(catalog.standings), snippets=len(catalog.snippets), **tally)
    heads = [
        text(lang, k)
        for k in (
            "report_snippet",
            "report_device",
            "report_status",
            "report_wall",
            "report_torch",
            "report_where",
            "report_date",
            "report_warnings",
        )
    ]
    table = _table("execution-report", heads, rows, text(lang, "report_region"))
    return Rendered(f'<p class="execution-summary">{escape(summary)}</p>' + table + _warnings(catalog, lang))


def _warnings(catalog: Catalog, lang: str) -> str:
    """Every warning the current runs emitted, snippet by snippet: a deprecation shows here before the API goes."""
    rows = []
    for (snippet_id, device), standing in sorted(catalog.standings.items()):
        for found in standing.record.warnings if standing.record else []:
            cells = [
                f"<code>{escape(snippet_id)}</code> ({escape(text(lang, 'device_' + device))})",
                f"<code>{escape(found['category'])}</code>",
                f"<code>{escape(found['module'])}</code>",
                escape(found["message"]),
            ]
            rows.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    title = text(lang, "report_warnings_title", n=len(rows))
    if not rows:
        return f'<p class="execution-warnings">{escape(title)}</p>'
    heads = [text(lang, k) for k in ("report_snippet", "report_category", "report_module", "report_message")]
    return f'<h2 id="warnings">{escape(title)}</h2>' + _table("execution-warnings", heads, rows, title)


def _drift_summary(report: dict[str, Any], lang: str) -> str:
    """The two sentences above the table: what was compared, and how the changes divide by kind."""
    tally = drift.counts(report)
    a, b = report["a"], report["b"]
    summary = text(
        lang,
        "drift_summary",
        total=len(report["entries"]),
        a=a.get("build") or a["torch"],
        a_date=a["date"],
        b=b.get("build") or b["torch"],
        b_date=b["date"],
        changed=tally["changed"],
        unchanged=tally["unchanged"],
        other=tally["only-a"] + tally["only-b"] + tally["missing"],
    )
    classes = text(
        lang,
        "drift_classes",
        real=tally["real"],
        build=tally["build"],
        volatile=tally["volatile"],
        lines=tally["line-numbers"],
    )
    return f'<p class="drift-summary">{escape(summary)}</p><p class="drift-classes">{escape(classes)}</p>'


def _warning_changes(entry: dict[str, Any], lang: str) -> str:
    """The warnings an upgrade adds to a snippet's run (a deprecation to act on) or removes."""
    found = entry.get("warnings") or {}
    rows = [
        f"<li>{escape(text(lang, 'drift_warning_' + side))} <code>{escape(w['category'])}</code> "
        f"(<code>{escape(w['module'])}</code>): {escape(w['message'])}</li>"
        for side in ("new", "gone")
        for w in found.get(side, [])
    ]
    if not rows:
        return ""
    title = escape(text(lang, "drift_warnings_title", snippet=entry["snippet"]))
    return f'<div class="drift-warnings"><p>{title}</p><ul>{"".join(rows)}</ul></div>'


def _atlas_changes(entry: dict[str, Any], lang: str) -> str:
    """What an upgrade changes in the dispatcher atlas, operator by operator (see core/atlas_drift.py)."""
    found = entry.get("atlas")
    if not found:
        return ""
    rows = []
    for key in ("added", "removed"):
        if found[key]:
            rows.append(
                f"<li>{escape(text(lang, 'atlas_drift_' + key, n=len(found[key])))} "
                f"<code>{escape(', '.join(found[key][:200]))}</code></li>"
            )
    for key in ("kernels_gained", "kernels_lost", "composite", "decomposition", "inductor", "grad_fn"):
        if found[key]:
            items = "; ".join(
                f"{name}: {value if isinstance(value, str) else ' → '.join(map(str, value))}"
                if key not in ("kernels_gained", "kernels_lost")
                else f"{name}: {', '.join(value)}"
                for name, value in list(found[key].items())[:200]
            )
            rows.append(
                f"<li>{escape(text(lang, 'atlas_drift_' + key, n=len(found[key])))} <code>{escape(items)}</code></li>"
            )
    if not rows:
        rows.append(f"<li>{escape(text(lang, 'atlas_drift_none'))}</li>")
    title = escape(text(lang, "atlas_drift_title", snippet=entry["snippet"]))
    return f'<div class="drift-atlas"><p>{title}</p><ul>{"".join(rows)}</ul></div>'


def _drift_rows(report: dict[str, Any], page: Page) -> tuple[list[str], list[str]]:
    """One table row per snippet, and the folded diff of each one that changed."""
    lang, rows, details = page.lang, [], []
    for entry in report["entries"]:
        digest = page.catalog.digests.get(entry["snippet"])
        edited = digest is not None and entry["source_sha256"]["a"] not in (None, digest)
        note = f" ({text(lang, 'drift_edited')})" if edited else ""
        kind = text(lang, f"drift_kind_{entry['kind'] or 'none'}")
        rows.append(
            f'<tr class="drift-{entry["state"]}" data-kind="{entry["kind"] or ""}">'
            f"<td><code>{escape(entry['snippet'])}</code></td>"
            f"<td>{escape(text(lang, 'drift_' + entry['state']) + note)}</td><td>{escape(kind)}</td></tr>"
        )
        details.append(_atlas_changes(entry, lang))
        details.append(_warning_changes(entry, lang))
        if entry["diff"]:
            details.append(
                f'<details class="quote"><summary>{escape(text(lang, "drift_diff"))}: '
                f"<code>{escape(entry['snippet'])}</code> ({escape(kind)})</summary>"
                f'<div class="highlight" id="{diff_id(entry["snippet"])}">'
                f"<pre><code>{escape(entry['diff'])}</code></pre></div></details>"
            )
    return rows, details


def drift_report(directive: Directive, page: Page) -> Rendered:
    """A drift report: one row per snippet with its kind of change, each diff one click away."""
    name = directive.arg or ""
    try:
        report, found = drift.checked(page.layout.root, name)
    except (OSError, ValueError) as exc:
        return Rendered(
            admonition("failure", text(page.lang, "drift_report_title"), escape(str(exc))),
            [Problem(directive.line, f"drift report {name!r} cannot be read: {exc}")],
        )
    problems = [Problem(directive.line, f"drift report {name}: {p}") for p in found]
    if problems:
        title = text(page.lang, "drift_report_title")
        return Rendered(admonition("failure", title, escape(problems[0].message)), problems)
    rows, details = _drift_rows(report, page)
    heads = [text(page.lang, key) for key in ("report_snippet", "report_status", "drift_kind")]
    return Rendered(_drift_summary(report, page.lang) + _table("drift-report", heads, rows) + "".join(details))
