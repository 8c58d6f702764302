"""What the built search index gets once every language is built: weights by kind of page, the glossary's
synonyms (search_terms.py), and one entry per operator of the dispatcher atlas.

The atlas lists its thousands of overloads in the page, and search_input.py keeps that list out of the index:
as one block of text it made one section match every operator, and a reader landed at the top of the list.
Instead each operator name (``aten::native_layer_norm``, its overloads together) gets an entry of its own, a
section of the atlas page titled with the name (the ``aten`` namespace left out: it is a word of the prose),
whose address opens the operator's entry (``#op=<its default overload>``, read by atlas.js). The names are
read from the built atlas page of each language, which lists them from the atlas's record.

How Material ranks (its worker, lunr with ``b = 0``): a title match weighs a thousand text matches, times the
term's rarity (idf), times the entry's boost, and an article (a page's top) five times a section. So:

- **Pages that teach first.** The orientation previews what a theory page teaches, a lab practises it, a
  reference page looks it up: their entries get a lower boost (``WEIGHTS``), so that the theory section that
  teaches a word ranks above the page that only mentions it, even where that page's top mentions it.
- **The operator typed, first.** A query is a prefix (``addmm`` also finds ``addmm_``), and an operator named
  often in the prose is a common term, so its entry would rank below its rarer namesakes. Each operator
  entry's boost divides out its name's idf and decreases with the name's length: for every query, the
  shortest name that begins with it comes first (``addmm`` before ``addmm_``), and the entries stay below a
  prose heading that names the word, and above prose that only mentions it.
- **Every name, first.** That boost is where search_rank.py starts: it raises each entry until its name typed
  (``where``, ``sin``, ``torch.where``, ``aten::where``) ranks it first, above the longer words the name begins
  (``sinh``, "less", ``torch``), still below a heading that says the name unless the name is a stop word.
"""

from __future__ import annotations

import html
import json
import math
import re
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import quote

from ..lang import languages, strings
from . import search_rank, search_terms

# The boost of the pages that do not teach, by where they lie below a language's root: "" is the home page (the
# orientation), a folder ("labs/") every page in it. Every other page weighs 1.
WEIGHTS = {"": 0.5, "labs/": 0.3, "reference/": 0.3}
_OP = re.compile(r'<button type="button" class="atlas-op"[^>]*>([^<]+)</button>')
_ATLAS = '<ul class="atlas-list">'
HASH = "op"  # the atlas opens the entry ``#op=<name>`` names (atlas.js)


def index_file(site: Path, lang: str) -> Path:
    """Where a language's search index lies (one per language: quirks.i18n.split_search_index)."""
    return site / languages.prefix(lang) / "search" / "search_index.json"


def page_file(site: Path, lang: str, location: str) -> Path:
    """The built page of an index entry's location (relative to its language's root, no ``#``)."""
    folder = site / languages.prefix(lang)
    return folder / location / "index.html" if location.endswith("/") or not location else folder / location


def operators(page: str) -> dict[str, str]:
    """Operator name (``ns::name``) -> the overload its entry opens (the default one, else its first), in the
    order the atlas lists them, from the list's buttons. An overload is ``ns::name.overload``."""
    found: dict[str, str] = {}
    start = page.find(_ATLAS)
    for match in _OP.finditer(page, start if start >= 0 else len(page)):
        overload = html.unescape(match.group(1))
        namespace, _, rest = overload.partition("::")
        name = f"{namespace}::{rest.split('.', 1)[0]}"
        if name not in found or "." not in rest:
            found[name] = overload
    return found


def title(name: str) -> str:
    """An operator entry's title: its name, without ``aten::`` (the namespace of most, and a word of the prose)."""
    return html.escape(name.removeprefix("aten::"), quote=False)


def operator_docs(location: str, page: str) -> list[dict[str, Any]]:
    """The atlas page's entries of its operators, each opening the operator's entry on the page."""
    return [
        {"location": f"{location}#{HASH}={quote(overload, safe=':')}", "title": title(name), "text": ""}
        for name, overload in operators(page).items()
    ]


def idf(docs: list[dict[str, Any]], separator: str) -> dict[str, float]:
    """Each term's rarity as lunr computes it: ``log(1 + |(N - n + 0.5) / (n + 0.5)|)``, where ``n`` counts
    the fields of all entries that hold the term."""
    held: Counter[str] = Counter()
    for doc in docs:
        for field in ("title", "text"):
            held.update(set(search_terms.tokens(doc.get(field, ""), separator)))
        held.update(set(search_terms.tokens(" ".join(doc.get("tags", [])), separator)))
    total = len(docs)
    return {term: math.log(1 + abs((total - n + 0.5) / (n + 0.5))) for term, n in held.items()}


def rank_operators(docs: list[dict[str, Any]], ours: list[dict[str, Any]], separator: str) -> None:
    """Boost each operator entry (see the module's docstring): the shorter its title, the higher, its name's
    idf divided out."""
    rarity = idf(docs, separator)
    for doc in ours:
        name = doc["title"].rpartition("::")[2]
        rare = sum(rarity.get(term, 1.0) for term in search_terms.tokens(name, separator)) or 1.0
        doc["boost"] = round(1 / (1 + len(html.unescape(doc["title"])) / 32) / rare, 6)


def weight(location: str) -> float | None:
    """The boost ``WEIGHTS`` gives the page of an entry's location, if any."""
    page = location.split("#", 1)[0]
    held = [where for where in WEIGHTS if where == page or (where.endswith("/") and page.startswith(where))]
    return WEIGHTS[max(held, key=len)] if held else None


def weigh_pages(docs: list[dict[str, Any]]) -> None:
    """Entries of pages that do not teach (the orientation, labs, references) get their ``WEIGHTS`` boost."""
    for doc in docs:
        if (boost := weight(doc["location"])) is not None:
            doc["boost"] = boost


def with_operators(site: Path, lang: str, docs: list[dict[str, Any]], separator: str) -> list[dict[str, Any]]:
    """``docs`` with each atlas page's operator entries after its own, ranked."""
    last = {doc["location"].split("#")[0]: i for i, doc in enumerate(docs)}
    result, ours = [], []
    for i, doc in enumerate(docs):
        result.append(doc)
        location = doc["location"].split("#")[0]
        path = page_file(site, lang, location)
        if last[location] == i and path.is_file() and _ATLAS in (page := path.read_text(encoding="utf-8")):
            added = operator_docs(location, page)
            ours += added
            result += added
    rank_operators(result, ours, separator)
    return result


def complete(site: Path, synonyms: Path = search_terms.SYNONYMS) -> None:
    """Each language's index: pages weighed, synonyms added, the atlas's operators added. Run after the index is
    split per language; a mistake in the synonyms table is a SourceError naming its file and line."""
    table = search_terms.load(synonyms)
    for lang in strings.LANGUAGES:
        path = index_file(site, lang)
        index = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {"docs": []}
        if not index["docs"]:  # static-i18n's pass of another language: this one's pages are not indexed yet
            continue
        separator = index["config"]["separator"]
        # Entries a former run added are made again, not kept: the build may run this twice on the same index.
        docs = [doc for doc in index["docs"] if f"#{HASH}=" not in doc["location"]]
        weigh_pages(docs)
        search_terms.add_words(docs, table, lang, separator, search_terms.shown(synonyms))
        docs = with_operators(site, lang, docs, separator)
        ours = [doc for doc in docs if f"#{HASH}=" in doc["location"]]
        search_rank.first_for_their_names(docs, ours, index["config"])  # then each name typed finds its entry
        path.write_text(json.dumps({**index, "docs": docs}, ensure_ascii=False), encoding="utf-8")
