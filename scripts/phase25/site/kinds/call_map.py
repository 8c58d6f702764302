"""The map of one call: its set-up, then groups of numbered steps, each step a link to the section that explains
it beside a line of real output.

    ::: map 00-orientation/one_call cpu
        The run: `set-up: x (2, 64) requires_grad=False | ...`

        Forward: `y = head(x)`

        1. [The module calls the functional form](theory/01-dispatcher-and-aten.md#function-vs-dispatch-mode):
           `function mode  torch.nn.functional.linear(Tensor, Parameter, Parameter)`
        2. ...

        Backward: `loss = y.sum(); loss.backward()`

        9. ...

The body stays Markdown (MkDocs resolves and checks its links); the map draws a frame where it stands and the body
goes into it. A map is only worth reading if every line of code in it is one the record printed, and if the reader
who follows a step finds that line where the step leads. So the strict build holds the body to its shape (a set-up
line, then for each group a heading line and its steps, numbered on across the groups, blocks apart by one blank
line) and every line of it to these rules: exactly one code span, equal to a whole line of the record's output
(stripped of its indent), never a line the snippet declares volatile, never a part of a line; and each step a link
to a section (``page.md#id``) whose own snippets show the quoted line (map_sections.py). Whatever else could show
a hand-written line as if it were output (raw HTML, an image, an attribute list, a fence, an indented block, a
nested list) is refused too, each problem with the page's line.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field

from ...core.names import linked
from ...core.records import Record
from ..page import review
from ..page.context import Page, Problem, Rendered
from ..page.directives import Directive
from ..page.markup import body_slot, escape
from .map_sections import SECTION, Sections
from .record_html import shown_text

ITEM = re.compile(r"^(?P<number>\d+)[.)][ \t]+\S")
LINK = re.compile(r"\[[^\]]*\]\((?P<target>[^)\s]*)[^)]*\)")
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
SHAPE = (
    "a map is its set-up line, then for each group a heading line and its steps, one blank line between them: "
    "'The run: `a line`', blank, 'Forward: `a line`', blank, '1. ...', '2. ...', blank, 'Backward: ...'"
)


@dataclass(frozen=True)
class Step:
    """One item of the map's list, or one of its lines (the set-up, a group's heading): its number (0 for a line),
    its text (continuation lines joined) and its line on the page."""

    number: int
    text: str
    line: int


@dataclass
class Body:
    """A map's body as the reader sees it: the set-up line, then each group's heading line and steps."""

    setup: Step | None = None
    groups: list[tuple[Step, list[Step]]] = field(default_factory=list)

    @property
    def steps(self) -> list[Step]:
        return [step for _, steps in self.groups for step in steps]


def _blocks(body: str, first_line: int) -> list[list[tuple[int, str]]]:
    """The body's blocks: runs of lines with text, each line with its number on the page."""
    blocks: list[list[tuple[int, str]]] = [[]]
    for offset, line in enumerate(body.split("\n")):
        if line.strip():
            blocks[-1].append((first_line + offset, line))
        elif blocks[-1]:
            blocks.append([])
    return [block for block in blocks if block]


def _line(block: list[tuple[int, str]]) -> tuple[Step, list[Problem]]:
    """A block of words (the set-up or a group's heading): one paragraph, no list, no block of its own."""
    problems = []
    for number, line in block[1:]:
        if ITEM.match(line.strip()) or NESTED.match(line.strip()):
            problems.append(Problem(number, "a map's line holds no list or block: leave one blank line before a list"))
    if block[0][1].startswith((" ", "\t")):
        problems.append(Problem(block[0][0], "an indented block is no part of a map: " + SHAPE))
    return Step(0, " ".join(line.strip() for _, line in block), block[0][0]), problems


def _items(block: list[tuple[int, str]], before: int) -> tuple[list[Step], list[Problem]]:
    """A block of numbered steps, numbered on from ``before`` (the steps of the groups above)."""
    found: list[Step] = []
    problems: list[Problem] = []
    for number, line in block:
        if item := ITEM.match(line):
            expected = before + len(found) + 1
            if int(item["number"]) != expected:
                problems.append(Problem(number, f"step {item['number']} of the map should be numbered {expected}"))
            found.append(Step(expected, line[item.end() - 1 :], number))
        elif not line.startswith((" ", "\t")):
            problems.append(Problem(number, f"a map's steps are one numbered list: {USAGE}"))
        elif NESTED.match(line.strip()):
            problems.append(Problem(number, "a step of the map holds no list, quote, heading or table of its own"))
        else:
            last = found[-1]
            found[-1] = Step(last.number, f"{last.text} {line.strip()}", last.line)
    return found, problems


def read(body: str, first_line: int) -> tuple[Body, list[Problem]]:
    """A map's body: its set-up line, then groups of a heading line and a numbered list; anything else is a
    problem with its page line (a blank line inside a list, a list with no heading, a heading with no steps)."""
    found, problems = Body(), []
    heading: Step | None = None
    for block in _blocks(body, first_line):
        if ITEM.match(block[0][1]):
            steps, wrong = _items(block, len(found.steps))
            problems += wrong
            if found.setup is None:
                problems.append(Problem(block[0][0], "a map opens with its set-up line: " + SHAPE))
                found.setup = Step(0, "", block[0][0])
            elif heading is None:
                problems.append(Problem(block[0][0], "these steps have no heading line above them: " + SHAPE))
            found.groups.append((heading or Step(0, "", block[0][0]), steps))
            heading = None
            continue
        line, wrong = _line(block)
        problems += wrong
        if found.setup is None:
            found.setup = line
        elif heading is not None:
            problems.append(Problem(heading.line, "this heading line has no steps under it: " + SHAPE))
        heading = line if found.setup is not line else None
    if heading is not None:
        problems.append(Problem(heading.line, "this heading line has no steps under it: " + SHAPE))
    if not found.groups:
        problems.append(Problem(first_line, "a map has no steps: " + SHAPE))
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
    if not path.startswith(f"docs/{page.lang}/"):  # nothing outside the language's pages is read
        return f"links to {target!r}, and {path} is no page of the site's {page.lang!r} pages"
    if linked(source, page.layout.root) is not None:
        return f"links to {target!r}, and {path} is reached through a symbolic link"
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


def line_problems(step: Step, where: str, allowed: set[str], everything: set[str]) -> tuple[str | None, list[str]]:
    """(its quote, what keeps it from being words beside one whole line of real output) of a step or a line."""
    problems = []
    quotes = re.findall(r"`([^`]*)`", step.text)
    quote = quotes[0] if step.text.count("`") == 2 and len(quotes) == 1 and quotes[0] else None
    if quote is None:
        problems.append(f"{where} holds {step.text.count('`')} backticks: it needs exactly one `code span`")
    rest = re.sub(r"`[^`]*`", "", step.text) if len(quotes) == 1 else step.text
    problems += [
        f"{where} holds {what}, which a map does not allow" for pattern, what in DISGUISES if pattern.search(rest)
    ]
    if quote is not None and (why := _quote_problem(quote, allowed, everything)):
        problems.append(f"{where} {why}")
        quote = None
    return quote, problems


def step_problems(step: Step, page: Page, lines: tuple[set[str], set[str]], sections: Sections) -> list[str]:
    """What keeps one step from being a link to a section that shows the line of real output it quotes."""
    where = f"step {step.number} of the map"
    quote, problems = line_problems(step, where, *lines)
    targets = [m["target"] for m in LINK.finditer(re.sub(r"`[^`]*`", "", step.text))]
    if not targets:
        problems.append(f"{where} has no link to the section that explains it: {USAGE}")
    for target in targets:
        if why := _section_problem(target, page):
            problems.append(f"{where} {why}")
        elif quote is not None and (why := sections.problem(target, quote)):
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
    """The map's frame, with its body's slot; every line checked against the record it quotes, every step against
    the section it leads to."""
    snippet_id, device = directive.target
    problems = review.refusals(page, directive, (device,))
    if (refused := _target_problem(directive, page)) is not None:
        return Rendered("", [*problems, refused])
    record = page.catalog.standing(snippet_id, device).record
    assert record is not None
    lines = output_lines(record, page.catalog.snippets[snippet_id].header.volatile)
    body, problems_of_body = read(directive.body, directive.end - directive.body.count("\n"))
    problems += problems_of_body
    headings = [(body.setup, "the map's set-up line")] if body.setup and body.setup.text else []
    headings += [(heading, "the heading line of a group") for heading, _ in body.groups if heading.text]
    for line, where in headings:
        problems += [Problem(line.line, why) for why in line_problems(line, where, *lines)[1]]
    sections = Sections(page, device)
    for step in body.steps:
        problems += [Problem(step.line, why) for why in step_problems(step, page, lines, sections)]
    slots = "".join(body_slot(n) for n in page.bodies.get(("map", snippet_id, device), []))
    html = f'<div class="call-map" data-snippet="{escape(snippet_id)}" data-device="{escape(device)}">{slots}</div>'
    return Rendered(html, problems)
