"""The stop words of lunr, the engine of Material's search, read from the theme's own scripts.

lunr's ``stopWordFilter`` drops them from the index (``where``, ``all``, ``any``, ``to`` in English, ``sin``,
``le`` in Spanish), and four of them are names of torch's operators: mkdocs.yml's search ``pipeline`` leaves
the filter out so that the index keeps them (search_rank.py). The words are still the ones no reader searches
the prose for on their own, so where an operator is named by one, its entry is what such a query means.

The lists are read from the installed theme, where the worker finds them (the English list inside the search
worker, every other language's beside it in ``lunr/min/lunr.<lang>.min.js``), not copied: they follow the theme.
"""

from __future__ import annotations

import importlib.util
import re
from functools import cache
from pathlib import Path

# lunr's own code for the one list its core carries, inside Material's search worker: a code of lunr's, which
# happens to be a language of the site too (tests/test_languages.py lets this module, and only it, name it)
WORKER = "en"
# lunr.generateStopWordFilter(["a","able",...]) in the worker, ("a al algo ...".split(" ")) in a language's file
_LIST = re.compile(r'generateStopWordFilter\((?:\[(?P<array>[^\]]*)\]|"(?P<words>[^"]*)"\.split\(" "\))\)')


def scripts() -> Path | None:
    """The folder of the installed theme's scripts, if the theme is installed."""
    spec = importlib.util.find_spec("material")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))) / "templates" / "assets" / "javascripts"


def words_in(script: str) -> frozenset[str]:
    """The words of the first stop-word list a lunr script declares (none if it declares none)."""
    found = _LIST.search(script)
    if found is None:
        return frozenset()
    if found.group("words") is not None:
        return frozenset(found.group("words").split(" ")) - {""}
    return frozenset(re.findall(r'"([^"]*)"', found.group("array")))


@cache
def for_language(lang: str) -> frozenset[str]:
    """lunr's stop words of one language of the search (``en``, ``es``...), empty where the theme has none."""
    folder = scripts()
    if folder is None:
        return frozenset()
    files = sorted((folder / "workers").glob("search.*.min.js")) if lang == WORKER else []
    files = files or [folder / "lunr" / "min" / f"lunr.{lang}.min.js"]
    return frozenset().union(*(words_in(f.read_text(encoding="utf-8")) for f in files if f.is_file()))


def of(langs: list[str]) -> frozenset[str]:
    """The stop words of every language an index is made for (its config's ``lang``)."""
    return frozenset().union(*(for_language(lang) for lang in langs))


def built_in() -> frozenset[str]:
    """The list lunr's core carries (English), whatever languages an index is made for."""
    return for_language(WORKER)
