"""The cell protocol of lab snippets, in one place.

A lab snippet (header ``cells = true``) is cut into cells by ``# %% <cell-id>``
lines. The runner executes it once, in one namespace, and writes a marker line
on stdout and stderr before each cell, so the recorded output can be split per
cell when the notebook is built.
"""

from __future__ import annotations

import re

CELL = re.compile(r"^# %%[ \t]*(?P<id>[\w-]*)[ \t]*$", re.MULTILINE)
_MARKER = re.compile(r"^##phase25-cell (?P<id>[\w-]+)##\n?", re.MULTILINE)


def marker(cell_id: str) -> str:
    """The line written on both streams before a cell runs."""
    return f"##phase25-cell {cell_id}##\n"


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
