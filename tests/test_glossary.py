"""The glossary holds: no translated page and no string the site's code writes uses a form its language's glossary
(site/lang/glossary_<code>.toml) rules out, fenced code and inline code excepted; each use is named by file and
line. A malformed glossary is refused with its file and line."""

from __future__ import annotations

import re

import pytest
from conftest import REPO
from phase25.core.errors import SourceError
from phase25.site.lang import glossary, strings

LANG = REPO / "scripts" / "phase25" / "site" / "lang"
TRANSLATED = [code for code in strings.LANGUAGES if code != strings.DEFAULT and glossary.path(code).is_file()]


def _said(where: str, found: list[tuple[int, str, glossary.Entry]]) -> list[str]:
    return [f"{where}:{line}: «{form}» ({entry.term}: say «{entry.say}»)" for line, form, entry in found]


def _string_lines(code: str) -> dict[str, tuple[str, int]]:
    """Where each string of a language is written: its module and the line of its key."""
    where: dict[str, tuple[str, int]] = {}
    for module in sorted(LANG.glob(f"*strings_{code}.py")):
        for number, line in enumerate(module.read_text(encoding="utf-8").splitlines(), start=1):
            if key := re.match(r'\s*"([^"]+)":', line):
                where.setdefault(key.group(1), (str(module.relative_to(REPO)), number))
    return where


def test_every_translated_language_has_a_glossary_that_reads():
    assert TRANSLATED == [code for code in strings.LANGUAGES if code != strings.DEFAULT]
    for code in TRANSLATED:
        entries = glossary.load(glossary.path(code))
        assert len(entries) > 80 and sum(len(e.never) for e in entries) > 40


@pytest.mark.parametrize("code", TRANSLATED)
def test_no_translated_page_uses_a_form_the_glossary_rules_out(code):
    entries, found = glossary.load(glossary.path(code)), []
    for page in sorted((REPO / "docs" / code).rglob("*.md")):
        lines = glossary.prose_lines(page.read_text(encoding="utf-8"))
        found += _said(str(page.relative_to(REPO)), glossary.misuses(entries, lines))
    assert found == []


@pytest.mark.parametrize("code", TRANSLATED)
def test_no_string_the_site_writes_uses_a_form_the_glossary_rules_out(code):
    entries, where, found = glossary.load(glossary.path(code)), _string_lines(code), []
    for key, value in strings.STRINGS[code].items():
        for _, form, entry in glossary.misuses(entries, glossary.prose_lines(value)):
            module, line = where.get(key, ("strings", 0))
            found.append(f"{module}:{line}: {key}: «{form}» ({entry.term}: say «{entry.say}»)")
    assert found == []


def test_a_ruled_out_form_is_found_in_prose_by_line_but_not_in_code():
    entries = (glossary.Entry("dispatch table", "tabla de dispatch", "never", ("tabla de despacho",), "", 1),)
    page = "Intro.\n\nLa Tabla de Despacho de `tabla de despacho`.\n```\ntabla de despacho\n```\n"
    page += "las tablas de despacho\n"  # a whole phrase only: «tablas» is another word
    assert [(line, form) for line, form, _ in glossary.misuses(entries, glossary.prose_lines(page))] == [
        (3, "tabla de despacho")
    ]


@pytest.mark.parametrize(
    ("toml", "said", "line"),
    [
        ('[[entry]]\nterm = "x"\nsay = "y"\n', "no gloss", 1),
        ('[[entry]]\nterm = "x"\nsay = "y"\ngloss = "never"\nnever = "z"\n', "'never' must be a non-empty list", 1),
        ('[[entry]]\nterm = "x"\nsay = "y"\ngloss = "never"\nnote = "n"\n\n[[entry]]\nterm = 3\n', "'term'", 7),
        ('[[entry]]\nterm = "x"\nsay = "y"\ngloss = "never"\nnever = [""]\n', "non-empty strings", 1),
        ('[[entry]]\nterm = "x"\nsay = "y"\ngloss = "never"\nsaid = "z"\n', "unknown field 'said'", 1),
        ('[[entry]]\nterm = "x\nsay = "y"\n', "Illegal character", 2),
        ('title = "x"\n', "a list of [[entry]] tables", None),
    ],
    ids=["no gloss", "never not a list", "second entry", "empty form", "unknown field", "bad toml", "no entries"],
)
def test_a_malformed_glossary_is_refused_with_its_file_and_line(tmp_path, toml, said, line):
    source = tmp_path / "glossary_xx.toml"
    source.write_text(toml, encoding="utf-8")
    with pytest.raises(SourceError, match=re.escape(said)) as caught:
        glossary.load(source)
    assert (caught.value.path, caught.value.line) == ("glossary_xx.toml", line)
