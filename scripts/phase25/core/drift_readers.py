"""What a reader notices in an upgrade: one line per change, why it matters, in each language.

A drift report says which outputs changed and how (a kind, by a stated rule); it cannot say why a change
matters to someone reading the page. That is written once per report, beside it, in
``reports/drift/<name>.readers.toml``:

    [[change]]
    snippets = ["theory-01/debug_switches", "00-orientation/shape_mismatch"]
    en = "Shape errors now start with the operator's name, `addmm:` ..."
    es = "Los errores de forma empiezan ahora por el nombre del operador, `addmm:` ..."

Each line is checked against the report, so it cannot drift from it: every snippet it names changed, all of
them in one class (the release's or the build's), and every change of either class has its line.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from .drift_shape import DriftReport
from .errors import SourceError, toml_problem

SUFFIX = ".readers.toml"
NOTICED = ("real", "build")  # the kinds a reader would notice; line numbers and machine-dependent lines are not


@dataclass(frozen=True)
class Change:
    snippets: tuple[str, ...]
    why: dict[str, str]  # language -> the line
    line: int  # of its ``[[change]]`` in the file


def path(root: Path, name: str) -> Path:
    return root / "reports" / "drift" / f"{name}{SUFFIX}"


def load(root: Path, name: str, languages: tuple[str, ...]) -> list[Change] | None:
    """The report's lines for readers, None when it has none; a malformed file is a SourceError with its line."""
    where = path(root, name)
    if not where.is_file():
        return None
    rel = where.relative_to(root).as_posix()
    text = where.read_text(encoding="utf-8")
    try:
        data = cast(dict[str, object], tomllib.loads(text))
    except tomllib.TOMLDecodeError as exc:
        message, line = toml_problem(exc)
        raise SourceError(rel, message, line or text.rstrip("\n").count("\n") + 1) from None  # None: at its end
    starts = [n for n, line in enumerate(text.split("\n"), 1) if re.match(r"\s*\[\[change\]\]", line)]
    items = data.get("change", [])
    if set(data) - {"change"} or not isinstance(items, list):
        raise SourceError(rel, "holds only [[change]] tables (snippets = [...], and one line per language)")
    tables = cast(list[object], items)
    return [_change(item, rel, line, languages) for item, line in zip(tables, starts, strict=False)]


def _change(item: object, rel: str, line: int, languages: tuple[str, ...]) -> Change:
    table = cast(dict[str, object], item) if isinstance(item, dict) else {}
    snippets = cast(list[object], table.get("snippets")) if isinstance(table.get("snippets"), list) else None
    if not snippets or not all(isinstance(s, str) for s in snippets):
        raise SourceError(rel, 'a change needs snippets = ["<page>/<name>", ...]', line)
    said = {lang: table.get(lang) for lang in languages}
    lines = {lang: text.strip() for lang, text in said.items() if isinstance(text, str) and text.strip()}
    missing = [lang for lang in languages if lang not in lines]
    if missing:
        raise SourceError(rel, f"a change needs its line in every language; missing: {', '.join(missing)}", line)
    extra = sorted(set(table) - {"snippets", *languages})
    if extra:
        raise SourceError(rel, f"unknown keys {', '.join(extra)} (snippets and {', '.join(languages)} only)", line)
    return Change(tuple(str(s) for s in snippets), lines, line)


def problems(changes: list[Change], report: DriftReport, where: str) -> list[str]:
    """What the lines say that the report does not, and the noticed changes they leave out."""
    kinds = {e["snippet"]: e["kind"] for e in report["entries"] if e["state"] == "changed"}
    found: list[str] = []
    covered: set[str] = set()
    for change in changes:
        at = f"{where} line {change.line}"
        for snippet in change.snippets:
            if kinds.get(snippet) not in NOTICED:
                found.append(f"{at} names {snippet}, which the report does not show changed in a way a reader sees")
        classes = {kinds.get(s) for s in change.snippets if kinds.get(s) in NOTICED}
        if len(classes) > 1:
            found.append(f"{at} mixes a change of the release with one of the build: give each its own line")
        covered.update(change.snippets)
    for snippet, kind in kinds.items():
        if kind in NOTICED and snippet not in covered:
            found.append(f"{where} has no line for {snippet}, which changed ({kind})")
    return found
