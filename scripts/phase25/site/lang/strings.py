"""The strings the site's code writes itself, in each language, with numbers and plurals done right.

The vocabulary of a translated language follows its glossary, ``glossary_<code>.toml`` beside this module
(snippet = «fragmento», build = «generar el sitio», never «compilación»; tests/test_glossary.py fails on a form it
rules out). Numbers follow each language's conventions: a
decimal comma and agreeing plurals in Spanish («1 hilo», «2 hilos», «1,2 s»).
Each language's strings live in a module of their own (``strings_en``, ``strings_es``); which languages the
site has is declared once (:mod:`languages`).
"""

from __future__ import annotations

from .languages import declared

LANGUAGES = tuple(language.code for language in declared())
DEFAULT = LANGUAGES[0]
STRINGS: dict[str, dict[str, str]] = {language.code: language.strings for language in declared()}
_DECIMAL = {language.code: language.decimal for language in declared()}


def text(lang: str, key: str, **values: object) -> str:
    """A UI string; a key missing in one language is a bug caught by the tests."""
    return STRINGS[lang][key].format(**values)


def number(lang: str, value: float, digits: int = 1) -> str:
    """A decimal number as each language writes it: ``1.2`` in English, ``1,2`` in Spanish."""
    return f"{value:.{digits}f}".replace(".", _DECIMAL[lang])


def count(lang: str, n: int, key: str) -> str:
    """``1 thread``, ``2 threads``; ``key`` names the singular, ``key + 's'`` the plural."""
    return f"{n} {text(lang, key if n == 1 else key + 's')}"
