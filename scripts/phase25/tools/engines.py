"""Two build engines, one site: build it with MkDocs and with ProperDocs, and compare the sites page by page.

MkDocs 1.x has had no release since 1.6.1 and Material for MkDocs ends its life on 2027-05-05; ProperDocs
is a maintained continuation of MkDocs 1.x that reads the same ``mkdocs.yml`` and runs the same plugins
and hooks. Every file of both sites is compared after removing what is expected to differ; each
expected difference has its cause stated here, and anything else is an unexplained difference.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

# What may differ between the two engines' sites, and why.
EXPECTED = (
    (
        re.compile(r'<meta name="generator" content="[^"]*">'),
        "the generator tag: each engine names itself (mkdocs-1.6.1 or mkdocs-ProperDocs 1.6.7)",
    ),
)


@dataclass(frozen=True)
class Difference:
    path: str
    what: str


def normalized(text: str) -> tuple[str, list[str]]:
    """The text with the expected differences removed, and the causes of those that occurred."""
    causes = []
    for pattern, cause in EXPECTED:
        text, count = pattern.subn("", text)
        if count:
            causes.append(cause)
    return text, causes


def compare(a: Path, b: Path) -> tuple[list[Difference], set[str]]:
    """(unexplained differences, causes of the expected ones seen) between two built sites."""
    names_a = {p.relative_to(a).as_posix() for p in a.rglob("*") if p.is_file()}
    names_b = {p.relative_to(b).as_posix() for p in b.rglob("*") if p.is_file()}
    found = [Difference(n, "only in the first site") for n in sorted(names_a - names_b)]
    found += [Difference(n, "only in the second site") for n in sorted(names_b - names_a)]
    causes: set[str] = set()
    for name in sorted(names_a & names_b):
        left, right = (a / name).read_bytes(), (b / name).read_bytes()
        if left == right:
            continue
        if name.endswith((".html", ".xml", ".json", ".js", ".css", ".txt")):
            (left_text, why_a), (right_text, why_b) = normalized(left.decode()), normalized(right.decode())
            if left_text == right_text:
                causes.update(why_a + why_b)
                continue
        found.append(Difference(name, "differs beyond the expected differences"))
    return found, causes


def report(found: list[Difference], causes: set[str]) -> str:
    lines = [f"expected difference: {cause}" for cause in sorted(causes)]
    lines += [f"UNEXPLAINED: {d.path}: {d.what}" for d in found]
    lines.append(f"{len(found)} unexplained difference(s)")
    return "\n".join(lines)
