"""A long output cut to what the page reads: its first and last lines and every line its prose quotes.

An output over :data:`LONG_OUTPUT_LINES` lines shows its first :data:`HEAD_LINES` and last :data:`TAIL_LINES`
lines, and every line that holds one of the quotes :mod:`quoted` collected for its snippet (each line holding it,
wherever it is). Each run of lines left out is one visible marker line ("… 41 lines …"); a run shorter than
:data:`SHORTEST_GAP` is shown instead, the marker would take as much room. The whole output stays in the page, one
click away, so the browser's find and a reader who wants every line lose nothing.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from ..lang.strings import text
from ..page.markup import escape

LONG_OUTPUT_LINES = 25  # up to this many lines, an output is shown whole
HEAD_LINES = 8  # a long output's first lines: what ran, the start of a traceback or of a log
TAIL_LINES = 4  # and its last ones: the error, the verdict, the summary line
SHORTEST_GAP = 4  # the fewest lines a marker stands for: a shorter run is shown, the marker would save little
MOST_HITS = 2  # a quote found on more lines than this is a name (`buf0`, `del`), not a line the prose quotes


def is_long(lines: Sequence[str]) -> bool:
    return len(lines) > LONG_OUTPUT_LINES


def kept(lines: Sequence[str], quotes: Sequence[str]) -> list[int]:
    """The indexes of the lines a long output shows, in order."""
    total = len(lines)
    keep = set(range(min(HEAD_LINES, total))) | set(range(max(0, total - TAIL_LINES), total))
    for quote in quotes:
        hits = [i for i, line in enumerate(lines) if quote in line]
        if len(hits) <= MOST_HITS:
            keep.update(hits)
    shown = sorted(keep)
    for before, after in itertools.pairwise(shown):  # a short run left out is shown after all
        if 0 < after - before - 1 < SHORTEST_GAP:
            keep.update(range(before + 1, after))
    return sorted(keep)


def gap(lang: str, lines: int) -> str:
    """The marker that stands for ``lines`` lines left out; a line of its own inside the output's box."""
    return f'<span class="snippet-gap">{escape(text(lang, "gap", lines=lines))}</span>'


def excerpt(shown: Sequence[str], keep: Sequence[int], lang: str) -> str:
    """The kept lines of an output (already escaped and marked up, one per line), each run left out a marker."""
    pieces, previous = [], -1
    for index in keep:
        if index - previous > 1:
            pieces.append(gap(lang, index - previous - 1))
        pieces.append(shown[index])
        previous = index
    if len(shown) - 1 > previous:
        pieces.append(gap(lang, len(shown) - 1 - previous))
    return "\n".join(pieces)


def whole(block: str, lang: str, lines: int) -> str:
    """The whole output under the cut one, folded; its summary left out of the search index, as outputs are."""
    summary = escape(text(lang, "whole_output", lines=lines))
    return f'<details class="quote snippet-long"><summary data-search-exclude>{summary}</summary>{block}</details>'
