"""The diff a drift page shows for a changed output: both sides' streams, a table's header kept in view.

:func:`compare.diff_outputs` gives the plain unified diff; a first hunk that starts a few lines below its
stream's top is widened to line 1, so that a table's header line is shown above its changed rows.
"""

from __future__ import annotations

import re
from typing import cast

from . import compare
from .drift_rule import Output

HEADER_REACH = 20  # a diff's first hunk that starts this close to its stream's top shows it from line 1
_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@$")
_SECTION = re.compile(r"^--- (?P<name>.+) \(before\)$")


def _stream(output: Output, name: str) -> str:
    """The text of a diff's section ``name`` (``stdout``, ``artifacts/x.txt``, ``rank 1 stderr``) in ``output``."""
    if name.startswith("artifacts/"):
        return str(cast(Output, output.get("artifacts") or {}).get(name.removeprefix("artifacts/"), ""))
    if match := re.fullmatch(r"rank (\d+) (\w+)", name):
        ranks = cast(list[Output], output.get("ranks") or [])
        index = int(match.group(1))
        return str(ranks[index].get(match.group(2), "")) if index < len(ranks) else ""
    value = output.get(name)
    return value if isinstance(value, str) else ""


def diff(a: Output | None, b: Output | None) -> str:
    """The diff of two outputs; a first hunk that starts within :data:`HEADER_REACH` lines of its stream's top
    starts at line 1 instead, so that a table's header line is shown above its changed rows."""
    lines, old, first = compare.diff_outputs(a, b, "before", "after").split("\n"), "", False
    for number, line in enumerate(lines):
        if section := _SECTION.match(line):
            old, first = _stream(a or {}, section.group("name")), True
            continue
        hunk = _HUNK.match(line)
        if not hunk or not first:
            continue
        first, start = False, int(hunk.group(1))
        length, new_length = int(hunk.group(2) or 1), int(hunk.group(4) or 1)
        if 1 < start <= HEADER_REACH + 1 and length and int(hunk.group(3)) == start:
            above = [" " + text for text in old.split("\n")[: start - 1]]
            lines[number] = f"@@ -1,{length + start - 1} +1,{new_length + start - 1} @@"
            lines[number + 1 : number + 1] = above
    return "\n".join(lines)
