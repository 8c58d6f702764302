"""The kind of a changed output in a drift report: :mod:`compare`'s rule, with two refinements of its own.

Each rank's streams are compared apart, and when the old side is a CPU-only wheel and the new one a CUDA build,
a table whose only changed cells sit in a column headed CUDA changed with the build, not the release.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import cast

from . import compare

Output = dict[str, object]  # a record's output (``Record.output``), as a drift report embeds it


def build_switch(report: Mapping[str, object]) -> bool:
    """Whether the old side is a CPU-only wheel (``+cpu``) and the new one is not: its CUDA kernels and warnings
    are the build's, not the release's."""
    a, b = (str(cast(Mapping[str, object], report.get(side, {})).get("build") or "") for side in ("a", "b"))
    return a.endswith("+cpu") and not b.endswith("+cpu")


def _cuda_columns(output: Output) -> Output:
    """The output with every cell of a table column headed CUDA masked: a table is a block of lines without a blank
    one, its header the block's first line, a column the span from one header word to the next."""

    def mask(text: str) -> str:
        out: list[str] = []
        header: list[tuple[int, str]] | None = None
        for line in text.split("\n"):
            if not line.strip():
                header = None
            elif header is None:
                header = [(m.start(), m.group(0)) for m in re.finditer(r"\S+", line)]
            else:
                bounds = [*(start for start, _ in header[1:]), 1 << 30]
                cells = [(start, end) for (start, word), end in zip(header, bounds, strict=True) if "CUDA" in word]
                for start, end in cells:
                    line = line[:start] + "#" * max(0, min(end, len(line)) - start) + line[end:]  # noqa: PLW2901
            out.append(line)
        return "\n".join(out)

    return {k: mask(v) if k != "artifacts" and isinstance(v, str) else v for k, v in output.items()}


def _flat(output: Output) -> Output:
    """The output with each rank's streams as streams of their own: compared as one JSON line, a rank's single
    CUDA line would hide every other change of every rank from the rule."""
    flat = {k: v for k, v in output.items() if k != "ranks"}
    for index, rank in enumerate(cast(list[Output], output.get("ranks") or [])):
        flat.update({f"rank {index} {part}": value for part, value in rank.items()})
    return flat


def classify(a: Output, b: Output, volatile: tuple[str, ...], switch: bool) -> str:
    """:func:`compare.classify`'s rule, applied to each rank's streams apart; across a build switch, a change that
    is gone once the cells of CUDA columns are masked too is the build's."""
    kind = compare.classify(_flat(a), _flat(b))
    if kind == "line-numbers":
        return kind
    masked_a, masked_b = (_flat(compare.comparable(x, volatile)) for x in (a, b))
    kind = compare.classify(masked_a, masked_b)
    if kind == "line-numbers":
        return "volatile"  # kind was not line-numbers before the volatile lines were masked
    if kind == "real" and switch and compare.classify(_cuda_columns(masked_a), _cuda_columns(masked_b)) != "real":
        return "build"
    return kind
