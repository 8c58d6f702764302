"""The strings the site's code writes itself, in each language, with numbers and plurals done right.

The vocabulary follows ``GLOSSARY.md`` (snippet = «fragmento», build = «generar
el sitio», never «compilación»). Numbers follow each language's conventions: a
decimal comma and agreeing plurals in Spanish («1 hilo», «2 hilos», «1,2 s»).
Each language's strings live in a module of their own (``strings_en``, ``strings_es``).
"""

from __future__ import annotations

from . import strings_en, strings_es

LANGUAGES = ("en", "es")
DEFAULT = "en"

STRINGS: dict[str, dict[str, str]] = {"en": strings_en.STRINGS, "es": strings_es.STRINGS}


def text(lang: str, key: str, **values: object) -> str:
    """A UI string; a key missing in one language is a bug caught by the tests."""
    return STRINGS[lang][key].format(**values)


def number(lang: str, value: float, digits: int = 1) -> str:
    """A decimal number as each language writes it: ``1.2`` in English, ``1,2`` in Spanish."""
    written = f"{value:.{digits}f}"
    return written.replace(".", ",") if lang == "es" else written


def count(lang: str, n: int, key: str) -> str:
    """``1 thread``, ``2 threads``; ``key`` names the singular, ``key + 's'`` the plural."""
    return f"{n} {text(lang, key if n == 1 else key + 's')}"
