"""Comparing two outputs: the one place that says when two runs printed the same thing, and how they differ.

A record's ``output`` section is compared byte for byte, except for the lines
its snippet declares ``volatile`` (an autotuner's timings and its pick), which
are masked on both sides. Everything that compares outputs reads this module:
``check``, the tests that re-execute every snippet, the benchmark's warm-versus-
fresh comparison, the drift report of a torch upgrade and the reader's
"reproduce this output" script.

A difference between two torch releases is also given a kind, by a stated rule:

- ``line-numbers``: it disappears once line numbers inside torch's and its
  libraries' own files are masked (they move between releases);
- ``volatile``: what is left disappears once the lines the snippet declares
  machine-dependent are masked as well;
- ``build``: what is left disappears once lines naming CUDA, NVIDIA or a GPU
  are dropped (a CUDA build of torch run with no GPU registers CUDA kernels and
  warns that no CUDA runtime was found);
- ``real``: anything else, a change in what the snippet shows.
"""

from __future__ import annotations

import difflib
import json
import re
from typing import Any

from .records import Record

KINDS = ("real", "build", "volatile", "line-numbers")
VOLATILE = "<varies by machine>"


def comparable(output: dict[str, Any], volatile: tuple[str, ...]) -> dict[str, Any]:
    """The output as two runs are compared: lines the snippet declares volatile are masked."""
    if not volatile:
        return output
    patterns = [re.compile(p) for p in volatile]

    def mask(text: str) -> str:
        return "\n".join(VOLATILE if any(p.search(line) for p in patterns) else line for line in text.split("\n"))

    masked = {**output, "stdout": mask(output["stdout"]), "stderr": mask(output["stderr"])}
    if output.get("ranks"):
        masked["ranks"] = [{**r, "stdout": mask(r["stdout"]), "stderr": mask(r["stderr"])} for r in output["ranks"]]
    return masked


def diff_outputs(a: dict[str, Any] | None, b: dict[str, Any] | None, before: str, after: str) -> str:
    """A readable diff of two output sections: line by line within each stream and artifact."""
    a, b = a or {}, b or {}
    parts = []
    for key in sorted(set(a) | set(b), key=lambda k: (k == "artifacts", k)):
        if key == "artifacts":
            names = sorted(set(a.get(key) or {}) | set(b.get(key) or {}))
            pairs = [(f"artifacts/{n}", (a.get(key) or {}).get(n, ""), (b.get(key) or {}).get(n, "")) for n in names]
        elif key == "ranks":
            left, right = a.get(key) or [], b.get(key) or []
            pairs = [
                (
                    f"rank {i} {part}",
                    (left[i] if i < len(left) else {}).get(part, ""),
                    (right[i] if i < len(right) else {}).get(part, ""),
                )
                for i in range(max(len(left), len(right)))
                for part in ("stdout", "stderr", "collectives")
            ]
        else:
            pairs = [(key, a.get(key), b.get(key))]
        for name, old, new in pairs:
            if old == new:
                continue
            old_lines = old.splitlines() if isinstance(old, str) else [json.dumps(old, ensure_ascii=False)]
            new_lines = new.splitlines() if isinstance(new, str) else [json.dumps(new, ensure_ascii=False)]
            parts.append(
                "\n".join(
                    difflib.unified_diff(old_lines, new_lines, f"{name} ({before})", f"{name} ({after})", lineterm="")
                )
            )
    return "\n".join(parts)


def mismatch(
    expected: Record | None,
    actual: Record,
    volatile: tuple[str, ...] = (),
    labels: tuple[str, str] = ("committed", "re-executed"),
) -> str:
    """A line-by-line diff of two records' outputs (volatile lines masked); empty when they match."""
    if expected is None:
        return "  no committed record"
    diff = diff_outputs(comparable(expected.output(), volatile), comparable(actual.output(), volatile), *labels)
    if expected.source_sha256 != actual.source_sha256:
        diff = f"source_sha256: {expected.source_sha256} -> {actual.source_sha256}\n" + diff
    return diff


def same_output(a: Record, b: Record, volatile: tuple[str, ...] = ()) -> bool:
    """Whether two runs printed the same thing, volatile lines aside."""
    return comparable(a.output(), volatile) == comparable(b.output(), volatile)


# "torch/_dynamo/output_graph.py:1135", "LinearAlgebra.cpp:204", 'File "...", line 979' -- not in snippets/.
_LINE_NUMBER = re.compile(r'(?<![\w./<>-])(?P<path>[\w./<>-]+\.(?:py|cpp|h|cu|cc))(?P<sep>", line |:)\d+')
_CUDA_LINE = re.compile(r"CUDA|cuda|NVIDIA|\bgpu\w*", re.IGNORECASE)


def _masked(match: re.Match[str]) -> str:
    """A line number inside torch or a library becomes <n>; one in a snippet is the snippet's own."""
    if match.group("path").startswith("snippets/"):
        return match.group(0)
    return f"{match.group('path')}{match.group('sep')}<n>"


def _mask(output: dict, drop_build: bool, volatile: tuple[str, ...] = ()) -> list[str]:
    """The output's lines, stream by stream, with library line numbers (and volatile lines) masked, and
    CUDA lines dropped when asked."""
    lines: list[str] = []
    for key, value in sorted(comparable(output, volatile).items()):
        parts = sorted(value.items()) if isinstance(value, dict) and key == "artifacts" else [(key, value)]
        for name, text in parts:
            body = text if isinstance(text, str) else json.dumps(text, sort_keys=True)
            lines.append(f"== {name}")
            lines += [_LINE_NUMBER.sub(_masked, line) for line in body.split("\n")]
    if drop_build:
        lines = [line for line in lines if not _CUDA_LINE.search(line)]
    return lines


def classify(a: dict, b: dict, volatile: tuple[str, ...] = ()) -> str:
    """The kind of a change between two output sections (see the module's docstring)."""
    if _mask(a, drop_build=False) == _mask(b, drop_build=False):
        return "line-numbers"
    if volatile and _mask(a, False, volatile) == _mask(b, False, volatile):
        return "volatile"
    if _mask(a, True, volatile) == _mask(b, True, volatile):
        return "build"
    return "real"
