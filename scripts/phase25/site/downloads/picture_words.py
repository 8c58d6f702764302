"""A picture a snippet draws (an SVG it publishes) in the language of the page that shows it.

The snippet draws its labels in English, once; the site says them in each language from its strings
(``picture: <label>`` keys, where a number at the end of a label is ``{n}``), as it does every other word it
writes. A label is words when it has a letter and is not a name from the code (``lm_head``, ``blocks.0``) nor a
number; a picture whose words a language has no entry for is named, so no English is left on another language's
page.
"""

from __future__ import annotations

import html
import re

from ..lang import strings

LABEL = re.compile(r"(<text\b[^>]*>)([^<]*)(</text>)")
NAME = re.compile(r"[A-Za-z_][\w]*(?:[._]\w+)+|[A-Za-z_]\w*_\w*")  # lm_head, ln_f, blocks.0, torch.nn
NUMBERED = re.compile(r"(?P<words>.*?\D)(?P<n>\d+)")


def words(label: str) -> bool:
    """Whether a label is something a reader reads as words (to be said in the page's language)."""
    label = label.strip()
    return bool(re.search(r"[A-Za-z]", label)) and not NAME.fullmatch(label)


def _said(label: str, lang: str) -> str | None:
    table = strings.STRINGS[lang]
    if f"picture: {label}" in table:
        return strings.text(lang, f"picture: {label}")
    found = NUMBERED.fullmatch(label)
    if found and f"picture: {found['words']}{{n}}" in table:
        return strings.text(lang, f"picture: {found['words']}{{n}}", n=found["n"])
    return None


def translated(svg: str, lang: str) -> tuple[str, list[str]]:
    """``svg`` with each label said in ``lang``; the labels ``lang`` has no words for (left as drawn)."""
    missing: list[str] = []

    def one(found: re.Match[str]) -> str:
        label = html.unescape(found[2]).strip()
        if not words(label):
            return found[0]
        said = _said(label, lang)
        if said is None:
            missing.append(label)
            return found[0]
        return found[1] + html.escape(said, quote=False) + found[3]

    return LABEL.sub(one, svg), missing


def picture_name(name: str, lang: str) -> str:
    """``ddp_timeline.svg`` in the default language, ``ddp_timeline.es.svg`` in Spanish."""
    if lang == strings.DEFAULT:
        return name
    stem, _, suffix = name.rpartition(".")
    return f"{stem}.{lang}.{suffix}"
