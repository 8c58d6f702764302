"""The snippet directive: its code, then one output tab per device, and the notes tied to a device's output.

A snippet is shown as its code, then its output with one tab per device (CPU first: it is the output every reader
can reproduce, and the one the test suite re-executes). A ``note`` or ``pending`` directive renders nothing where
it stands: its body goes into the tab of the device it names.
"""

from __future__ import annotations

import re

from ...core.catalog import Standing
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
    if standing.state == "missing":
        slots = "".join(body_slot(n) for n in page.bodies.get(("pending", snippet_id, device), []))
        if device == "cuda":
            note = admonition("info", text(lang, "not_captured_title"), inline_code(text(lang, "not_captured")))
            return Rendered(note + slots, problems)
        problems.append(Problem(line, f"{where}: no record (run `make records`)"))
        missing = inline_code(text(lang, "missing", device=text(lang, f"device_{device}")))
        return Rendered(admonition("failure", text(lang, "missing_title"), missing), problems)
    record = standing.record
    assert record is not None
    banner = ""
    if standing.state == "stale":
        problems.append(Problem(line, f"{where}: stale record: {standing.reason}"))
        banner = admonition("warning", text(lang, "stale_title"), escape(text(lang, "stale", reason=standing.reason)))
    if record.status != "ok":
        problems.append(Problem(line, f"{where}: the recorded run {record.status}: {record.error}"))
        banner += admonition("failure", text(lang, "failed_title"), escape(record.error or record.status))
    notes = page.bodies.get(("note", snippet_id, device), [])
    notes_html = "".join(body_slot(n) for n in notes) if standing.usable else ""
    return Rendered(banner + record_body(record, page) + notes_html, problems)


def render_snippet(directive: Directive, page: Page) -> Rendered:
    """The code, then one output tab per device the snippet declares."""
    snippet_id = directive.arg or ""
    snippet = page.catalog.snippets.get(snippet_id)
    if snippet is None:
        return Rendered(
            admonition("failure", "Unknown snippet", escape(snippet_id)),
            [Problem(directive.line, f"no snippet {snippet_id!r} (expected snippets/<page>/<name>.py)")],
        )
    page.count += 1
    name = f"__snippet_{page.count}"
    unreviewed = review.refusals(page, directive, snippet.header.devices)
    changed = changed_mark.mark(page, snippet_id, "cpu")
    panels = [
        device_panel(snippet_id, d, page.catalog.standing(snippet_id, d), page, directive.line)
        for d in snippet.header.devices
    ]
    labels = [text(page.lang, f"device_{d}") for d in snippet.header.devices]
    inputs = "".join(
        f'<input {"checked " if i == 1 else ""}id="{name}_{i}" name="{name}" type="radio" />'
        for i in range(1, len(labels) + 1)
    )
    label_html = "".join(f'<label for="{name}_{i}">{escape(label)}</label>' for i, label in enumerate(labels, 1))
    blocks = "".join(f'<div class="tabbed-block">{panel.html}</div>' for panel in panels)
    html = (
        f'<div class="snippet" data-snippet="{escape(snippet_id)}">'
        f"{snippet_code.code_html(snippet, page, changed)}"
        f'<div class="tabbed-set tabbed-alternate snippet-outputs" data-tabs="{page.count}:{len(labels)}">{inputs}'
        f'<div class="tabbed-labels">{label_html}</div><div class="tabbed-content">{blocks}</div></div></div>'
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
