"""Each operator's entry first for its own name: ``where``, ``torch.where`` and ``aten::where`` open
``aten::where``, ``sin`` opens ``sin`` (not ``sinh``), ``exp`` opens ``exp`` (not the page on torch.export).

Material's worker makes every word of a query a prefix, so a short name also matches each longer word that
begins with it, and no one boost suits every name: ``le`` lost to the section "Keeping less", ``to`` to every
heading that says ``torch``. So the boost of each operator's entry is computed from the index itself. This
module scores the index as the worker does (:class:`Scores`): lunr with ``b = 0`` (a term's weight is its
rarity, idf, times its field's boost, times the entry's boost), then Material's bonus, times
``1 + (a + s)^2``, where ``a`` is 1 for a page's top and ``s`` the share of the query's words the entry holds
(a stop word it lacks left out). Each entry then gets the boost that puts it above every other entry, for
its name alone and, for an ``aten`` operator, also written ``aten::name`` and ``torch.name``.

Two limits keep what the prose teaches first:

- A prose heading that says the name as a word stays above the entry (``mode`` finds "Function vs dispatch
  mode" first, the operator second), unless the name is a stop word (stop_words.py): nobody searches the
  prose for ``where`` alone.
- A longer name stays below each shorter name and each heading's word (two letters or more) it begins:
  ``linear_backward`` below the running example's ``linear``, for ``linear``. So the shortest names go first.
- The boost is never lower than search_index.py gives (the shortest of the names a query begins, first).
"""

from __future__ import annotations

import bisect
import html
import math
import re
from collections import Counter, defaultdict
from typing import Any

from . import search_terms, stop_words

K1 = 1.2  # lunr's; its b is 0 in Material's worker: a field's length does not count
FIELDS = {"title": {"boost": 1000}, "text": {"boost": 1}, "tags": {"boost": 1_000_000}}  # Material's, if unsaid
WIDE = 40  # a query word that matches more entries than this is scored once (Scores.best)
MARGIN = 1.05  # above a rival by this factor, below a heading that says the name by its inverse
_EDGE = re.compile(r"^\W+|\W+$")  # lunr's trimmer: what is not a word character, at either end


def terms(text: str, separator: str, dropped: frozenset[str]) -> list[str]:
    """The terms the worker indexes for a field: its tokens, trimmed, without the words the pipeline drops."""
    trimmed = (_EDGE.sub("", t) for t in search_terms.tokens(text, separator))
    return [t for t in trimmed if t and t not in dropped]


def dropped(config: dict[str, Any]) -> frozenset[str]:
    """The words an index's pipeline drops: lunr's stop words of its languages, if it runs the filter."""
    return stop_words.of(config.get("lang", [])) if "stopWordFilter" in config.get("pipeline", []) else frozenset()


class Scores:
    """What Material's worker scores each entry of an index for a query, boosts given apart so they can change."""

    def __init__(self, docs: list[dict[str, Any]], config: dict[str, Any]) -> None:
        self.separator, self.boosts = config["separator"], [float(doc.get("boost", 1)) for doc in docs]
        self.stop = stop_words.built_in()  # Material leaves out only lunr's built-in (English) list from the share
        self.top = ["#" not in doc["location"] for doc in docs]
        given = config.get("fields", FIELDS).items()
        fields: dict[str, float] = {name: spec.get("boost", 1) for name, spec in given}
        counts: list[dict[str, Counter[str]]] = []
        held: Counter[str] = Counter()
        for doc in docs:
            found = {f: Counter(terms(self.text(doc, f), self.separator, dropped(config))) for f in fields}
            held.update(t for counter in found.values() for t in counter)
            counts.append(found)
        self.postings: dict[str, dict[int, float]] = defaultdict(dict)
        for i, found in enumerate(counts):
            for field, counter in found.items():
                for term, tf in counter.items():
                    weight = idf(held[term], len(docs)) * (K1 + 1) * tf / (K1 + tf) * fields[field]
                    self.postings[term][i] = self.postings[term].get(i, 0.0) + weight
        self.sorted = sorted(self.postings)
        self.titles = [set(found["title"]) if "title" in found else set() for found in counts]
        self._matched: dict[str, dict[int, float]] = {}
        self.forms: dict[int, list[str]] = {}  # how a reader writes each operator entry's name
        self.moving: set[int] = set()  # the entries whose boost changes: scored anew for each query
        self._ranked: dict[tuple[str, ...], list[tuple[float, int]]] = {}

    @staticmethod
    def text(doc: dict[str, Any], field: str) -> str:
        value = doc.get(field, "")
        return " ".join(value) if isinstance(value, list) else str(value)

    def expand(self, word: str) -> list[str]:
        """The index's terms a query word matches: those it begins (the worker adds ``*`` to each word)."""
        start = bisect.bisect_left(self.sorted, word)
        end = bisect.bisect_left(self.sorted, word + "\U0010ffff")
        return self.sorted[start:end]

    def matched(self, word: str) -> dict[int, float]:
        """Entry -> its weight for one query word, before its boost (kept: the boosts change, the words not)."""
        if word not in self._matched:
            found: dict[int, float] = defaultdict(float)
            for term in self.expand(word):
                for i, weight in self.postings[term].items():
                    found[i] += weight
            self._matched[word] = dict(found)
        return self._matched[word]

    def words(self, text: str) -> list[str]:
        """A query's words, as the worker splits it (each then matches the terms it begins)."""
        return search_terms.tokens(text, self.separator)

    def score(self, words: list[str], i: int) -> float:
        """The score the worker gives entry ``i`` for a query's ``words``: lunr's, times Material's bonus."""
        return self.scored([(self.matched(word), word in self.stop) for word in words], i)

    def scored(self, found: list[tuple[dict[int, float], bool]], i: int) -> float:
        """:meth:`score`, the words' matches given (and whether each is a stop word)."""
        total, held, missed = 0.0, 0, 0
        for weights, stop in found:
            if (weight := weights.get(i)) is None:
                missed += not stop
            else:
                total, held = total + weight, held + 1
        return total * self.boosts[i] * (1 + (self.top[i] + held / (held + missed)) ** 2) if held else 0.0

    def query(self, words: list[str]) -> dict[int, float]:
        """Entry -> the score the worker gives it for a query's ``words`` (entries that match none left out)."""
        matches = [(self.matched(word), word in self.stop) for word in words]
        return {i: self.scored(matches, i) for i in set().union(*(found for found, _ in matches))}

    def best(self, words: list[str], skip: set[int]) -> float:
        """The highest score an entry outside ``skip`` gets for a query's ``words``. An entry that only a
        word matching many entries matches (``torch`` of ``torch.where``) scores the same for every query
        that word is in with as many other words: those entries are scored once, then read in order."""
        wide = [word for word in words if len(self.matched(word)) > WIDE]
        narrow = [word for word in words if word not in wide]
        held = set().union(*(self.matched(word) for word in wide))
        near = set().union(held & self.moving, *(self.matched(word) for word in narrow))
        matches = [(self.matched(word), word in self.stop) for word in words]
        found = max((self.scored(matches, i) for i in near if i not in skip), default=0.0)
        asked = [word for word in narrow if word not in self.stop]
        key = (*wide, "\0" * len(asked))  # a word that matches nothing, for each of them
        if key not in self._ranked:
            alone = wide + ["\0"] * len(asked)
            ranked = ((self.score(alone, i), i) for i in held - self.moving)
            self._ranked[key] = sorted(ranked, reverse=True)
        return max(found, next((score for score, i in self._ranked[key] if i not in near | skip), 0.0))


def idf(held: int, total: int) -> float:
    """lunr's rarity of a term that ``held`` fields of the ``total`` entries hold."""
    return math.log(1 + abs((total - held + 0.5) / (held + 0.5)))


def name(doc: dict[str, Any]) -> str:
    """The name a reader types for an operator's entry: its title without a namespace."""
    return html.unescape(doc["title"]).rpartition("::")[2].lower()


def forms(doc: dict[str, Any]) -> list[str]:
    """The ways a reader writes an operator: its name, and for ``aten``'s (the title without a namespace)
    ``aten::name`` and ``torch.name``."""
    word = name(doc)
    return [word] if "::" in html.unescape(doc["title"]) else [word, f"aten::{word}", f"torch.{word}"]


def limit(scores: Scores, i: int, query: str, above: set[int]) -> float:
    """The highest boost of entry ``i`` that keeps it below the entries ``above`` for ``query``."""
    words = scores.words(query)
    unit = scores.score(words, i) / scores.boosts[i]
    lowest = min((score for j in above if (score := scores.score(words, j))), default=math.inf)
    return lowest / MARGIN / unit if unit else math.inf


def boost(scores: Scores, i: int, same: set[int], kept: set[int]) -> float:
    """The boost that puts entry ``i`` (an operator's) above every entry but ``same`` (its namesakes) and
    ``kept`` (the headings that say its name, which stay above it), for each way its name is written."""
    need = 0.0
    for form in scores.forms[i]:
        words = scores.words(form)
        unit = scores.score(words, i) / scores.boosts[i]
        if unit:  # else the pipeline drops its name: no boost finds it
            need = max(need, scores.best(words, same | kept) * MARGIN / unit)
    return min([need] + [limit(scores, i, form, kept) for form in scores.forms[i]])


class Ranking:
    """Who must stay above whom: the headings that say each word, the operators of each name."""

    def __init__(self, docs: list[dict[str, Any]], ours: list[dict[str, Any]], config: dict[str, Any]) -> None:
        self.scores = Scores(docs, config)
        index = {id(doc): i for i, doc in enumerate(docs)}
        self.ops = [index[id(doc)] for doc in ours]
        self.names = {i: name(docs[i]) for i in self.ops}
        self.scores.forms = {i: forms(docs[i]) for i in self.ops}
        self.scores.moving = set(self.ops)
        self.stop = stop_words.of(config.get("lang", []))
        self.named: dict[str, set[int]] = defaultdict(set)
        for i in self.ops:
            self.named[self.names[i]].add(i)
        self.saying: dict[str, set[int]] = defaultdict(set)
        for j in sorted(set(range(len(docs))) - set(self.ops)):
            for word in self.scores.titles[j]:
                self.saying[word].add(j)

    def above(self, word: str) -> set[int]:
        """The entries that stay above an operator for ``word``: the headings that say it (a stop word said
        by a heading says nothing), and the operators of that name."""
        return (set() if word in self.stop else self.saying.get(word, set())) | self.named.get(word, set())

    def boost(self, i: int) -> float:
        """Entry ``i``'s boost: first for its name, below what stays above it for its own name and for each
        shorter name or heading's word its name begins with (``linear`` for ``linear_backward``)."""
        word = self.names[i]
        kept = self.above(word) - self.named[word]
        raised = boost(self.scores, i, self.named[word], kept)
        for n in range(1, len(word)):
            prefix = word[:n]  # a heading's one letter (the c of C++) is no query
            if prefix in self.named or (n > 1 and prefix in self.saying):
                raised = min(raised, limit(self.scores, i, prefix, self.above(prefix)))
        return max(self.scores.boosts[i], raised)


def first_for_their_names(docs: list[dict[str, Any]], ours: list[dict[str, Any]], config: dict[str, Any]) -> None:
    """Raise the boost of each operator entry of ``ours`` (entries of ``docs``) until its name typed ranks it
    first, within the limits of the module's docstring. The shortest names first: a longer one is then kept
    below the final boost of each shorter name it begins."""
    ranking = Ranking(docs, ours, config)
    for i in sorted(ranking.ops, key=lambda i: len(ranking.names[i])):
        ranking.scores.boosts[i] = docs[i]["boost"] = round(ranking.boost(i), 6)
