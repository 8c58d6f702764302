"""The two report directives: the execution report (every run's state) and a drift report (an upgrade)."""

from __future__ import annotations

from pathlib import Path

from ...core import drift, drift_readers
from ...core.catalog import VERDICTS, Catalog
from ...core.drift_shape import DriftReport
from ..lang.strings import LANGUAGES, number, text
from ..page.context import Page, Problem, Rendered
from ..page.directives import Directive
from ..page.markup import admonition, escape
from . import drift_rows, drift_summary


def _table(classes: str, heads: list[str], rows: list[str], name: str = "") -> str:
    """A report's table. The execution report's tables scroll in their own box where the column is narrower
    (snippets.css): named (``name``), such a box is reached and scrolled with the keyboard."""
    head = "".join(f"<th>{escape(h)}</th>" for h in heads)
    box = f' tabindex="0" aria-label="{escape(name)}"' if name else ""
    return f'<table class="{classes}"{box}><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'


def _said(verdict: str, problem: bool) -> str:
    """The state's name in the table: a missing record that is a problem (a CPU run) has none to capture later."""
    return "no_record" if verdict == "missing" and problem else verdict


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
            drift_rows.snippet_cell(snippet_id, page),
            escape(text(lang, f"device_{device}")),
            escape(text(lang, f"status_{_said(verdict, standing.is_problem(device))}")),
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
    summary_html = f'<p class="execution-summary">{escape(summary)}</p>'
    return Rendered(summary_html + table + drift_links(page) + _warnings(catalog, lang))


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


def _drift_summary(report: DriftReport, lang: str) -> str:
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


def drift_report(directive: Directive, page: Page) -> Rendered:
    """A drift report: what a reader would notice first, then one row per snippet with its kind of change,
    each diff one click away (or a download, when it is too long for a page)."""
    name = directive.arg or ""
    try:
        report, found = drift.checked(page.layout.root, name)
        changes = drift_readers.load(page.layout.root, name, LANGUAGES)
    except (OSError, ValueError) as exc:
        return Rendered(
            admonition("failure", text(page.lang, "drift_report_title"), escape(str(exc))),
            [Problem(directive.line, f"drift report {name!r} cannot be read: {exc}")],
        )
    where = drift_readers.path(page.layout.root, name).relative_to(page.layout.root).as_posix()
    found += drift_readers.problems(changes, report, where) if changes is not None else []
    problems = [Problem(directive.line, f"drift report {name}: {p}") for p in found]
    if problems:
        title = text(page.lang, "drift_report_title")
        return Rendered(admonition("failure", title, escape(problems[0].message)), problems)
    heads = [text(page.lang, key) for key in drift_rows.HEADS]
    table = _table("drift-report", heads, drift_rows.rows(report, name, page), text(page.lang, "drift_region"))
    top = drift_summary.render(report, changes, page)
    return Rendered(top + _drift_summary(report, page.lang) + table)


def drift_links(page: Page) -> str:
    """The execution report's pointer to the drift reports: the one that ends at the torch this site is built
    with first, the earlier ones after it, as history."""
    torch = page.catalog.torch
    reports = sorted((page.layout.root / drift.REPORTS).glob("torch-*-to-*.json"))
    pairs = [tuple(p.stem.removeprefix("torch-").split("-to-", 1)) for p in reports]
    pages = page.layout.root / Path(page.where).parent  # docs/<lang>/reference
    pairs = [pair for pair in pairs if (pages / f"drift-torch-{pair[1]}.md").is_file()]  # a report with its page
    current = [pair for pair in pairs if pair[1] == torch]
    earlier = sorted((pair for pair in pairs if pair[1] != torch), key=lambda p: p[1], reverse=True)

    def link(pair: tuple[str, ...]) -> str:
        label = text(page.lang, "nav_drift", a=pair[0], b=pair[1])
        return f'<a href="../drift-torch-{escape(pair[1])}/">{escape(label)}</a>'

    parts = [f"{escape(text(page.lang, 'drift_current'))} {link(current[0])}." if current else ""]
    if earlier:
        parts.append(f"{escape(text(page.lang, 'drift_earlier'))} {', '.join(link(p) for p in earlier)}.")
    return f'<p class="drift-links">{" ".join(p for p in parts if p)}</p>' if any(parts) else ""
