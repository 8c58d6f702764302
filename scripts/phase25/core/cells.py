"""The cell protocol of lab snippets, in one place.

A lab snippet (header ``cells = true``) is cut into cells by ``# %% <cell-id>``
lines. The runner executes it once, in one namespace, and writes a marker line
on stdout and stderr before each cell, so the recorded output can be split per
cell when the notebook is built.

Structure must not travel in-band where a snippet could forge it: during a run the
marker carries the run's tag, a secret the runner made for that run and the snippet
does not see (see :func:`seal`); the record keeps the plain marker.
"""

from __future__ import annotations

import re

CELL = re.compile(r"^# %%[ \t]*(?P<id>[\w-]*)[ \t]*$", re.MULTILINE)
_MARKER = re.compile(r"^##phase25-cell (?P<id>[\w-]+)##\n?", re.MULTILINE)


_SHAPE = "##phase25-cell"  # any line that starts so is the runner's, or forged


class Forged(ValueError):
    """A run printed a line in the shape of the runner's own structure."""


def marker(cell_id: str, tag: str | None = None) -> str:
    """The line before a cell: with the run's ``tag`` on the run's streams, without it in a record."""
    return f"{_SHAPE} {tag} {cell_id}##\n" if tag else f"{_SHAPE} {cell_id}##\n"


def seal(text: str, tag: str) -> str:
    """A run's stream with its tagged markers made plain; :class:`Forged` names the first line in their shape
    that the run's tag did not write (a cell that printed a marker, or half of one)."""
    tagged = re.compile(rf"^{_SHAPE} {re.escape(tag)} (?P<id>[\w-]+)##$")
    lines = text.split("\n")
    for number, line in enumerate(lines, 1):
        if line.startswith(_SHAPE):
            found = tagged.match(line)
            if found is None:
                raise Forged(f"line {number} has the shape of a cell marker, the runner's alone: {line[:80]!r}")
            lines[number - 1] = marker(found.group("id")).rstrip("\n")
    return "\n".join(lines)


def spans(code: str) -> list[tuple[str, int, int]]:
    """(cell id, start of its body, end) for every cell, in file order; unnamed cells are numbered."""
    marks = list(CELL.finditer(code))
    ends = [mark.start() for mark in marks[1:]] + [len(code)]
    return [
        (mark.group("id") or str(index), mark.end() + 1, end)
        for index, (mark, end) in enumerate(zip(marks, ends, strict=True))
    ]


def split_code(code: str) -> dict[str, str]:
    """Cell id -> its code, without the ``# %%`` line."""
    return {cell_id: code[start:end].strip("\n") for cell_id, start, end in spans(code)}


def split_output(text: str) -> dict[str, str]:
    """Cell id -> what that cell printed, from the markers."""
    marks = list(_MARKER.finditer(text))
    return {
        mark.group("id"): text[mark.end() : marks[i + 1].start() if i + 1 < len(marks) else len(text)]
        for i, mark in enumerate(marks)
    }
