"""The review an upgrade leaves behind: every place in the prose that shows or quotes an output the new torch changed.

A drift report says which outputs changed; this module turns it into a checklist beside the report,
``reports/drift/<name>.review.md``, one box per (page, snippet directive or note, device). While a box is
unticked, the strict build refuses the directive it names, on its page and line: the page still says what
the old torch printed until someone has read it against the new output. A reviewer fixes the prose in both
languages and ticks the box (``- [x]``); nothing else about the file matters to the build.

The checklist is computed from the report and the pages; it is never written by hand. A box whose page or
directive no longer exists is a problem of the checklist itself, so a renamed page cannot hide a review.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ...core import devices, drift
from ...core.drift_shape import DriftReport
from ...core.errors import SourceError
from . import directives
from .context import Page, Problem
from .directives import Directive

SUFFIX = ".review.md"
# The kinds whose directives show or quote a record's output (``Kind.reviewed``): a snippet directive shows it (a tab
# per device, emulated ones included); a note quotes it; a map quotes one line of it per step; a lab's cell shows
# its share of the lab's output (or, without #<cell>, a whole snippet's).
REVIEWED_KINDS = tuple(name for name, kind in directives.KINDS.items() if kind.reviewed)
ITEM = re.compile(
    r"^- \[(?P<tick>[ xX])\] (?P<page>docs/[a-z]{2}/(?:[A-Za-z0-9_-][A-Za-z0-9_.-]*/)*[A-Za-z0-9_-][A-Za-z0-9_.-]*\.md)"
    rf" · (?P<kind>{'|'.join(REVIEWED_KINDS)}) (?P<snippet>[A-Za-z0-9_-]+/[A-Za-z0-9_-]+(?:#[A-Za-z0-9_-]+)?) "
    rf"\((?P<device>{devices.NAME})\)(?: · .*)?$"
)
# A list item that opens with a box, however an editor bullets or indents it: one that ITEM does not match is an error.
BOXLIKE = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s*\[")


@dataclass(frozen=True)
class Item:
    page: str  # docs/<lang>/<page>.md
    kind: str  # one of REVIEWED_KINDS
    snippet: str  # <page>/<name>, or <lab-page>/<name>#<cell-id> for a lab's cell
    device: str


@dataclass(frozen=True)
class Open:
    """An unticked box: where it stands in its checklist."""

    checklist: str  # reports/drift/<name>.review.md
    line: int


def changed(report: DriftReport) -> dict[tuple[str, str], str]:
    """(snippet, device) -> kind of change, for every output the report finds changed."""
    return {(e["snippet"], e["device"]): e["kind"] or "" for e in report["entries"] if e["state"] == "changed"}


def _devices(directive: Directive, outputs: dict[tuple[str, str], str]) -> list[str]:
    """The devices whose output ``directive`` shows or quotes: a note's or a map's own; a lab cell's CPU record;
    every tab of a snippet (or of a whole snippet in a lab), the emulated ones included."""
    if directive.kind in ("note", "map"):
        return [directive.args[1]] if len(directive.args) > 1 else []
    if directive.kind == "cell" and "#" in directive.args[0]:
        return [devices.LOCAL[0]]  # a lab runs its cells in one process, on the CPU
    return [device for device in devices.DEVICES if (directive.args[0], device) in outputs]


def items(root: Path, report: DriftReport) -> list[tuple[Item, str]]:
    """Each place in the pages and labs that shows or quotes a changed output, with the kind of change."""
    outputs = changed(report)
    found: list[tuple[Item, str]] = []
    for page in sorted((root / "docs").glob("*/**/*.md")):
        where = page.relative_to(root).as_posix()
        for directive in directives.parse(page.read_text(encoding="utf-8"), where):
            if directive.kind not in REVIEWED_KINDS or not directive.args:
                continue
            snippet = directive.args[0].partition("#")[0]
            for device in _devices(directive, outputs):
                if (snippet, device) in outputs:
                    item = Item(where, directive.kind, directive.args[0], device)
                    if item not in [i for i, _ in found]:
                        found.append((item, outputs[(snippet, device)]))
    return found


def _ticked(path: Path) -> set[tuple[str, str, str, str]]:
    """The boxes ticked in a checklist, by language and place (not by page: a page split moves the prose with
    its snippet)."""
    lines = path.read_text(encoding="utf-8").split("\n") if path.is_file() else []
    boxes = [m for m in map(ITEM.match, lines) if m and m.group("tick") != " "]
    return {(m.group("page").split("/")[1], m.group("kind"), m.group("snippet"), m.group("device")) for m in boxes}


def write(root: Path, name: str) -> Path:
    """The checklist of drift report ``name``; a box ticked in the checklist it replaces stays ticked when the
    same kind of directive shows the same snippet on the same device in the same language, on whichever page it
    stands now: that place was read against the new output. Every other box starts unticked."""
    report = drift.load(root, name)
    a, b = report["a"].get("torch"), report["b"].get("torch")
    lines = [
        f"# Review: torch {a} → {b}",
        "",
        f"Every place in the pages and labs that shows or quotes an output that torch {b} prints differently (drift",
        f"report `{name}`). Read each against its new output (the diff is on the drift page), fix the prose in both",
        "languages, then tick its box. The strict build refuses every unticked place.",
        "",
    ]
    target = root / drift.REPORTS / f"{name}{SUFFIX}"
    ticked = _ticked(target)
    for item, kind in items(root, report):
        tick = "x" if (item.page.split("/")[1], item.kind, item.snippet, item.device) in ticked else " "
        lines.append(f"- [{tick}] {item.page} · {item.kind} {item.snippet} ({item.device}) · {kind}")
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return target


def unticked(root: Path) -> dict[Item, Open]:
    """Every unticked box of every checklist; a line that looks like a box and does not parse is an error."""
    found: dict[Item, Open] = {}
    for checklist in sorted((root / drift.REPORTS).glob(f"*{SUFFIX}")):
        rel = checklist.relative_to(root).as_posix()
        for number, line in enumerate(checklist.read_text(encoding="utf-8").split("\n"), 1):
            if not BOXLIKE.match(line):
                continue
            match = ITEM.match(line)
            if not match:
                raise SourceError(
                    rel,
                    f"'{line}' is not a review box: '- [ ] docs/<lang>/<page>.md · note|snippet "
                    "<page>/<name>[#<cell>] (<device>)'",
                    number,
                )
            if match.group("tick") == " ":
                item = Item(match.group("page"), match.group("kind"), match.group("snippet"), match.group("device"))
                found.setdefault(item, Open(rel, number))
    return found


def refusals(page: Page, directive: Directive, devices: tuple[str, ...]) -> list[Problem]:
    """Why the build refuses this directive: one problem per unticked box that names it (none once ticked)."""
    boxes = unticked(page.layout.root)
    found = []
    for device in devices:
        item = Item(page.where, directive.kind, directive.arg or "", device)
        if (box := boxes.get(item)) is not None:
            what = "shows" if directive.kind == "snippet" else "quotes"  # a note or a map quotes
            found.append(
                Problem(
                    directive.line,
                    f"this {directive.kind} {what} {item.snippet} ({device}), whose output the new torch changed: "
                    f"read it against the new output, fix the prose, then tick its box in {box.checklist} line "
                    f"{box.line}",
                )
            )
    return found


def stale_boxes(root: Path) -> list[str]:
    """Unticked boxes that name a page or directive that no longer exists: the review cannot be skipped by a
    rename."""
    problems = []
    for item, box in unticked(root).items():
        page = root / item.page
        present = page.is_file() and any(
            d.kind == item.kind and d.args and d.args[0] == item.snippet and d.args[1:] in ((), (item.device,))
            for d in directives.parse(page.read_text(encoding="utf-8"), item.page)
        )
        if not present:
            problems.append(f"{box.checklist}:{box.line}: {item.page} has no {item.kind} {item.snippet} any more")
    return problems
