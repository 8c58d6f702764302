"""The site's languages, declared once: each is an entry of the i18n plugin in mkdocs.yml (its code, its name,
which one is the default) and a strings module of its own, ``strings_<code>.py``, which holds every word the
site's code writes in it and the way it writes a decimal number. Everything else reads the languages from here.

Adding a language is a folder of pages (``docs/<code>/``, each page stamped as a translation of the default
language's), its strings module, and its entry in mkdocs.yml.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from ...core.errors import SourceError
from ...core.paths import REPO_ROOT


@dataclass(frozen=True)
class Language:
    code: str  # "es": the folder of its pages, its URL prefix and its strings module
    name: str  # "Español", as the language switcher shows it
    default: bool
    decimal: str  # the decimal separator of its numbers
    strings: dict[str, str]


class _Tolerant(yaml.SafeLoader):
    """mkdocs.yml's own tags (``!ENV``, Python names) read as plain values: only the languages matter here."""


_Tolerant.add_multi_constructor("", lambda loader, suffix, node: None)


@cache
def declared(config: Path = REPO_ROOT / "mkdocs.yml") -> tuple[Language, ...]:
    """The languages of the i18n plugin's entry in ``config``, the default first; each with its strings."""
    where = config.name
    try:
        data = yaml.load(config.read_text(encoding="utf-8"), Loader=_Tolerant)
    except (OSError, yaml.YAMLError) as exc:
        raise SourceError(where, f"cannot be read for its languages: {exc}") from None
    plugin = next((p["i18n"] for p in data.get("plugins", []) if isinstance(p, dict) and "i18n" in p), None)
    entries: list[dict[str, Any]] = (plugin or {}).get("languages") or []
    if not entries or sum(bool(e.get("default")) for e in entries) != 1:
        raise SourceError(where, "the i18n plugin must list the site's languages, exactly one of them the default")
    found = [_language(entry, where) for entry in entries]
    return tuple(sorted(found, key=lambda language: not language.default))


def _language(entry: dict[str, Any], where: str) -> Language:
    code = str(entry.get("locale", ""))
    if not code.isalpha() or not code.islower():
        raise SourceError(where, f"{code!r} is not a language code the site can name its folders after")
    try:
        module = importlib.import_module(f"{__package__}.strings_{code}")
    except ModuleNotFoundError:
        raise SourceError(where, f"language {code!r} has no strings module (site/lang/strings_{code}.py)") from None
    return Language(code, str(entry.get("name", code)), bool(entry.get("default")), module.DECIMAL, module.STRINGS)


def prefix(lang: str) -> str:
    """Where a language's pages lie below the site's root: "" for the default language, ``"<code>/"`` for the
    others (its folder in the built site and the start of its addresses)."""
    return "" if lang == declared()[0].code else f"{lang}/"


def selector() -> list[dict[str, str]]:
    """The language selector's entries (Material's ``extra.alternate``): each language's home page, relative to
    the site's root, so that each page links it relative to itself and the selector holds wherever the site is
    served (static-i18n would write absolute paths from site_url; it still points every other page at its own
    translation)."""
    return [
        {"name": language.name, "link": prefix(language.code) or "./", "lang": language.code} for language in declared()
    ]
