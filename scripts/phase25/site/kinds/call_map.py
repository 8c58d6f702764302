"""The map of one call: numbered steps, each with a link to the section that explains it and a line of real output.

    ::: map 00-orientation/one_call cpu
        1. [The module calls the functional form](theory/01-dispatcher-and-aten.md#function-vs-dispatch-mode):
           `function mode sees: torch.nn.functional.linear(Tensor, Parameter, Parameter)`
        2. ...

The body is a numbered Markdown list and stays Markdown (MkDocs resolves and checks its links); the map draws a
frame where it stands and the body goes into it. A map is only worth reading if every line of code in it is one
the record printed, so the strict build holds each step to three rules: a link into the site, to a section
(``page.md#id``); exactly one code span; and that span equal to a whole line of the record's output (stripped of
its indent), never a line the snippet declares volatile, never a part of a line. Whatever else could show a
hand-written line as if it were output (raw HTML, an image, an attribute list, a fence, an indented block, a
nested list) is refused too, each problem with the page's line.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass

from ...core.records import Record
from ..page import review
from ..page.context import Page, Problem, Rendered
from ..page.directives import Directive
from ..page.markup import body_slot, escape
from .record_html import shown_text

ITEM = re.compile(r"^(?P<number>\d+)[.)][ \t]+\S")
LINK = re.compile(r"\[[^\]]*\]\((?P<target>[^)\s]*)[^)]*\)")
SECTION = re.compile(r"^(?P<path>[^#?:]*\.md)?#(?P<anchor>[A-Za-z0-9_-]+)$")
# A block of its own inside a step: a list, quote, heading, table or rule; an admonition, a folded block or a tab.
NESTED = re.compile(r"^(?:[-*+>#|]|\d+[.)])(?:\s|$)|^[=\-*_]{3,}$|^(?:!!!|\?\?\?|===|:::)")
# What could make words look like output without a code span; found outside the quote, each refused.
DISGUISES = (
    (re.compile(r"<[A-Za-z/!?]"), "raw HTML"),
    (re.compile(r"!\["), "an image"),
    (re.compile(r"[{}]"), "an attribute list or braces"),
    (re.compile(r"~~~|\\`"), "a fence or an escaped backtick"),
    (re.compile(r"-+8<-+"), "a file inclusion (--8<--)"),
)
USAGE = "write each step as '1. [words](page.md#section) ... `a whole line of the output`'"


@dataclass(frozen=True)
class Step:
    """One item of the map's list: its number, its text (continuation lines joined) and its line on the page."""

    number: int
    text: str
    line: int


def steps(body: str, first_line: int) -> tuple[list[Step], list[Problem]]:
    """The numbered list of a map's body; anything that is not a tight numbered list 1, 2, 3... is a problem."""
    found: list[Step] = []
    problems: list[Problem] = []
    for offset, line in enumerate(body.split("\n")):
        number = first_line + offset
        if not line.strip():
            problems.append(Problem(number, "a map's list has no blank line: write its steps one under another"))
        elif item := ITEM.match(line):
            expected = len(found) + 1
            if int(item["number"]) != expected:
                problems.append(Problem(number, f"step {item['number']} of the map should be numbered {expected}"))
            found.append(Step(expected, line[item.end() - 1 :], number))
        elif not found or not line.startswith((" ", "\t")):
            problems.append(Problem(number, f"a map's body is one numbered list: {USAGE}"))
        elif NESTED.match(line.strip()):
            problems.append(Problem(number, "a step of the map holds no list, quote, heading or table of its own"))
        else:
            last = found[-1]
            found[-1] = Step(last.number, f"{last.text} {line.strip()}", last.line)
    return found, problems


def output_lines(record: Record, volatile: tuple[str, ...]) -> tuple[set[str], set[str]]:
    """(what a step may quote, every line): the record's lines as a note may quote them (record_html.shown_text,
    volatile lines masked), stripped; a masked line's placeholder is no line of the output, so it is dropped."""

    def lines(texts: list[str]) -> set[str]:
        return {line.strip() for text in texts for line in text.split("\n") if line.strip()}

    everything = lines(shown_text(record))
    return lines(shown_text(record, volatile)) & everything, everything


def _section_problem(target: str, page: Page) -> str | None:
    """Why a link does not lead to a section of the site: it must name a page of this language and an id that
    page declares (``{ #id }``); a link to this page's own section may leave the page out."""
    found = SECTION.match(target)
    if found is None:
        return f"links to {target!r}, not to a section of the site (page.md#section)"
    if found["path"] is None:
        return None  # a section of this page: MkDocs checks it in the strict build
    path = posixpath.normpath(posixpath.join(posixpath.dirname(page.where), found["path"]))
    source = page.layout.root / path
    if not source.is_file():
        return f"links to {target!r}, and {path} is no page"
    if not re.search(r"\{[^}\n]*#" + re.escape(found["anchor"]) + r"[\s}]", source.read_text(encoding="utf-8")):
        return f"links to {target!r}, and {path} declares no section {{ #{found['anchor']} }}"
    return None


def _quote_problem(quote: str, allowed: set[str], everything: set[str]) -> str | None:
    """Why a quote is not a whole, stable line of the output."""
    if quote.startswith("#!"):  # inline highlighting would show the line without its first word
        return f"quotes `{quote}`, which inline highlighting would not show as it is"
    if quote in allowed:
        return None
    if quote in everything:
        return f"quotes `{quote}`, a line marked volatile: another machine prints another line there"
    if any(quote in line for line in everything):
        return f"quotes `{quote}`, which is only part of a line of the output: quote the whole line"
    return f"quotes `{quote}`, which is no line of the output"


def step_problems(step: Step, page: Page, allowed: set[str], everything: set[str]) -> list[str]:
    """What keeps one step from being a link to a section beside a line of real output."""
    where = f"step {step.number} of the map"
    problems = []
    quotes = re.findall(r"`([^`]*)`", step.text)
    if step.text.count("`") != 2 or len(quotes) != 1 or not quotes[0]:
        problems.append(f"{where} holds {step.text.count('`')} backticks: it needs exactly one `code span`")
    rest = re.sub(r"`[^`]*`", "", step.text) if len(quotes) == 1 else step.text
    problems += [
        f"{where} holds {what}, which a map does not allow" for pattern, what in DISGUISES if pattern.search(rest)
    ]
    targets = [m["target"] for m in LINK.finditer(rest)]
    if not targets:
        problems.append(f"{where} has no link to the section that explains it: {USAGE}")
    problems += [f"{where} {why}" for t in targets if (why := _section_problem(t, page))]
    if len(quotes) == 1 and quotes[0] and (why := _quote_problem(quotes[0], allowed, everything)):
        problems.append(f"{where} {why}")
    return problems


def _target_problem(directive: Directive, page: Page) -> Problem | None:
    """A map needs a snippet that declares the device, a current record of it, and is alone on its target."""
    snippet_id, device = directive.target
    snippet = page.catalog.snippets.get(snippet_id)
    where = f"'::: map {snippet_id} {device}'"
    if snippet is None or device not in snippet.header.devices:
        return Problem(directive.line, f"{where}: no such (snippet, device)")
    standing = page.catalog.standing(snippet_id, device)
    if not standing.usable or standing.record is None:
        return Problem(directive.line, f"{where}: the record is {standing.verdict}; a map quotes a current record")
    if len(page.bodies.get(("map", snippet_id, device), [])) > 1:
        return Problem(directive.line, f"{where}: one map of a record per page")
    return None


def render(directive: Directive, page: Page) -> Rendered:
    """The map's frame, with its body's slot; every step checked against the record it quotes."""
    snippet_id, device = directive.target
    problems = review.refusals(page, directive, (device,))
    if (refused := _target_problem(directive, page)) is not None:
        return Rendered("", [*problems, refused])
    record = page.catalog.standing(snippet_id, device).record
    assert record is not None
    allowed, everything = output_lines(record, page.catalog.snippets[snippet_id].header.volatile)
    found, problems_of_list = steps(directive.body, directive.end - directive.body.count("\n"))
    problems += problems_of_list
    for step in found:
        problems += [Problem(step.line, why) for why in step_problems(step, page, allowed, everything)]
    slots = "".join(body_slot(n) for n in page.bodies.get(("map", snippet_id, device), []))
    html = f'<div class="call-map" data-snippet="{escape(snippet_id)}" data-device="{escape(device)}">{slots}</div>'
    return Rendered(html, problems)
