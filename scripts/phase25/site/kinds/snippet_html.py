"""The snippet directive: its code, then one output tab per device, and the notes tied to a device's output.

A snippet is shown as its code, then its output with one tab per device (CPU first: it is the output every reader
can reproduce, and the one the test suite re-executes). A ``note`` or ``pending`` directive renders nothing where
it stands: its body goes into the tab of the device it names.
"""

from __future__ import annotations

import re

from ...core.catalog import Standing
from ...core.devices import pending_when_missing
from ..lang.strings import text
from ..page import review
from ..page.context import Page, Problem, Rendered
from ..page.directives import Directive
from ..page.markup import admonition, body_slot, escape, inline_code
from . import changed_mark, snippet_code
from .record_html import record_body, shown_text

CODE_SPAN = re.compile(r"`([^`\n]+)`")


def _tied_text_problems(snippet_id: str, device: str, standing: Standing, page: Page, line: int) -> list[Problem]:
    """A note needs a current record to describe; a pending text must go once the record exists."""
    where = f"snippet {snippet_id} ({device})"
    problems = []
    if page.bodies.get(("note", snippet_id, device)) and not standing.usable:
        problems.append(
            Problem(
                line,
                f"{where}: a note describes an output that is {standing.verdict}; "
                "keep it as '::: pending' until the record is current",
            )
        )
    if page.bodies.get(("pending", snippet_id, device)) and standing.state != "missing":
        problems.append(
            Problem(
                line,
                f"{where}: the record exists now; replace the '::: pending' text with a "
                "'::: note' that says what the output shows",
            )
        )
    return problems


def device_panel(snippet_id: str, device: str, standing: Standing, page: Page, line: int) -> Rendered:
    """One device tab: the output, or why there is none; and the notes tied to it."""
    lang, where = page.lang, f"snippet {snippet_id} ({device})"
    problems = _tied_text_problems(snippet_id, device, standing, page, line)
    if standing.state == "corrupt":
        problems.append(Problem(line, f"{where}: record cannot be read: {standing.reason}"))
        return Rendered(admonition("failure", text(lang, "corrupt_title"), escape(standing.reason)), problems)
    if pending(device, standing):
        slots = "".join(body_slot(n) for n in page.bodies.get(("pending", snippet_id, device), []))
        return Rendered(f'<p class="snippet-pending">{escape(text(lang, "pending_tab"))}</p>{slots}', problems)
    if standing.state == "missing":
        problems.append(Problem(line, f"{where}: no record (run `make records`)"))
        missing = inline_code(text(lang, "missing", device=text(lang, f"device_{device}")))
        return Rendered(admonition("failure", text(lang, "missing_title"), missing), problems)
    record = standing.record
    assert record is not None
    banner = ""
    if standing.state == "stale":
        problems.append(Problem(line, f"{where}: stale record: {standing.reason}"))
        banner = admonition("warning", text(lang, "stale_title"), escape(stale_text(standing, page)))
    if record.status != "ok":
        problems.append(Problem(line, f"{where}: the recorded run {record.status}: {record.error}"))
        banner += admonition("failure", text(lang, "failed_title"), escape(record.error or record.status))
    notes = page.bodies.get(("note", snippet_id, device), [])
    notes_html = "".join(body_slot(n) for n in notes) if standing.usable else ""
    return Rendered(banner + record_body(record, page) + notes_html, problems)


def stale_text(standing: Standing, page: Page) -> str:
    """Why a stale record is stale, in the page's language: the catalog gives the cause as a code, and the
    torch versions it compared; its English reason is for the build's log."""
    recorded = (standing.record.provenance.get("torch") if standing.record else None) or ""
    reason = text(page.lang, "stale_" + standing.cause, recorded=recorded, torch=page.catalog.torch or "")
    return text(page.lang, "stale", reason=reason)


def pending(device: str, standing: Standing) -> bool:
    """A tab that waits for its record: only a GPU run may be missing from a good build (no GPU in CI)."""
    return pending_when_missing(device) and standing.state == "missing"


def _label(device: str, standing: Standing, lang: str) -> str:
    """A tab's label; a pending tab says so before a reader clicks it ("CUDA · not captured yet")."""
    name = text(lang, f"device_{device}")
    return text(lang, "pending_label", device=name) if pending(device, standing) else name


def _tab_set(number: int, labels: list[str], panels: list[str], linked: bool) -> str:
    """The output tabs. Only a set whose every tab shows a record carries ``data-tabs``, the mark Material's
    ``content.tabs.link`` looks for: a click there picks the same device in every such set of the site, and
    Material remembers it. A set with a pending tab is never linked, so no click elsewhere opens its empty tab
    and no click on it hides the CPU output of another snippet (snippets.css draws its tab marker)."""
    name = f"__snippet_{number}"
    inputs = "".join(
        f'<input {"checked " if i == 1 else ""}id="{name}_{i}" name="{name}" type="radio" />'
        for i in range(1, len(labels) + 1)
    )
    label_html = "".join(f'<label for="{name}_{i}">{escape(label)}</label>' for i, label in enumerate(labels, 1))
    blocks = "".join(f'<div class="tabbed-block">{panel}</div>' for panel in panels)
    mark = f' data-tabs="{number}:{len(labels)}"' if linked else ""
    return (
        f'<div class="tabbed-set tabbed-alternate snippet-outputs{"" if linked else " snippet-unlinked"}"{mark}>'
        f'{inputs}<div class="tabbed-labels">{label_html}</div><div class="tabbed-content">{blocks}</div></div>'
    )


def _folded(code: str, lang: str) -> str:
    """The code of a snippet with no output yet on any tab (it runs only on a GPU): folded under one line, so that
    a reader meets what the tab says before eighty lines with nothing after them."""
    summary = escape(text(lang, "code_waiting"))
    return f'<details class="quote snippet-waiting"><summary>{summary}</summary>{code}</details>'


def render_snippet(directive: Directive, page: Page) -> Rendered:
    """The code, then one output tab per device the snippet declares."""
    snippet_id = directive.arg or ""
    snippet = page.catalog.snippets.get(snippet_id)
    if snippet is None:
        return Rendered(
            admonition("failure", text(page.lang, "unknown_snippet_title"), escape(snippet_id)),
            [Problem(directive.line, f"no snippet {snippet_id!r} (expected snippets/<page>/<name>.py)")],
        )
    page.count += 1
    unreviewed = review.refusals(page, directive, snippet.header.devices)
    changed = changed_mark.mark(page, snippet_id, "cpu")
    devices = snippet.header.devices
    standings = [page.catalog.standing(snippet_id, d) for d in devices]
    panels = [device_panel(snippet_id, d, s, page, directive.line) for d, s in zip(devices, standings, strict=True)]
    labels = [_label(d, s, page.lang) for d, s in zip(devices, standings, strict=True)]
    waiting = [pending(d, s) for d, s in zip(devices, standings, strict=True)]
    code = snippet_code.code_html(snippet, page, changed)
    linked = all(s.usable for s in standings)
    tabs = _tab_set(page.count, labels, [p.html for p in panels], linked)
    html = (
        f'<div class="snippet" data-snippet="{escape(snippet_id)}">'
        f"{_folded(code, page.lang) if all(waiting) else code}{tabs}</div>"
    )
    return Rendered(html, unreviewed + [p for panel in panels for p in panel.problems])


def render_body_anchor(directive: Directive, page: Page) -> Rendered:
    """A note or pending directive renders nothing where it stands: its body goes into its tab."""
    snippet_id, device = directive.target
    snippet = page.catalog.snippets.get(snippet_id)
    if snippet is None or device not in snippet.header.devices:
        return Rendered(
            "", [Problem(directive.line, f"'::: {directive.kind} {snippet_id} {device}': no such (snippet, device)")]
        )
    problems = review.refusals(page, directive, (device,))
    standing = page.catalog.standing(snippet_id, device)
    if directive.kind == "note" and standing.record is not None:
        shown = "\n".join(shown_text(standing.record, snippet.header.volatile))
        everything = "\n".join(shown_text(standing.record))
        for quoted in CODE_SPAN.findall(directive.body):
            if quoted in shown:
                continue
            why = (
                "which only a line marked volatile shows: another machine prints another line there"
                if quoted in everything
                else "which its output does not show"
            )
            problems.append(Problem(directive.line, f"the note on {snippet_id} ({device}) quotes `{quoted}`, {why}"))
    return Rendered("", problems)
