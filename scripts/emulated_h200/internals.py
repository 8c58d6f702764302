"""Every torch and Triton internal the emulation touches, in one table, each failing by its name when it moves.

Three kinds of touch point:

- :class:`Attribute`: a module, or an attribute reached from one (a class, a method, a private variable);
- :class:`Member`: an attribute or key of what an :class:`Attribute` makes (its instances, or what it returns);
- :class:`Marker`: a piece of text read from what torch or Triton writes (output code, PTX, ``cuobjdump``'s lines).

The rest of the package reaches them only through :func:`get`, :func:`member` and :func:`find`, so a torch or
Triton upgrade that moves one raises ``Outdated("<entry name>: ...")``, never an ``AttributeError`` or a
``ValueError`` from deep inside. ``tests/test_emulated_h200_internals.py`` removes each entry in turn.
"""

from __future__ import annotations

import importlib
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import Outdated
from .table import ENTRIES

USED: Counter[str] = Counter()  # which entry was reached, how often (the tests check every entry is)


@dataclass(frozen=True)
class Attribute:
    """``module`` imported, then ``path`` followed attribute by attribute (empty: the module itself)."""

    name: str
    module: str
    path: str
    why: str

    @property
    def where(self) -> str:
        return ".".join(part for part in (self.module, self.path) if part)


@dataclass(frozen=True)
class Member:
    """``path`` (``a.b``: attribute, or key of a mapping) of what the entry ``made_by`` makes: its instances when
    it is a class, what it returns when it is called otherwise."""

    name: str
    made_by: str
    path: str
    why: str

    @property
    def where(self) -> str:
        return f"{self.path} of what {self.made_by} makes"


@dataclass(frozen=True)
class Marker:
    """A regular expression that must match in ``source`` (the text torch or Triton wrote)."""

    name: str
    source: str
    pattern: re.Pattern[str]
    why: str

    @property
    def where(self) -> str:
        return f"{self.pattern.pattern!r} in {self.source}"


Entry = Attribute | Member | Marker


def _entry(row: tuple[str, ...]) -> Entry:
    kind, name, *rest = row
    if kind == "attribute":
        return Attribute(name, *rest)
    if kind == "member":
        return Member(name, *rest)
    source, pattern, flags, why = rest
    return Marker(name, source, re.compile(pattern, sum((getattr(re, f) for f in flags.split()), 0)), why)


TABLE: dict[str, Entry] = {row[1]: _entry(row) for row in ENTRIES}


def _versions() -> str:
    import torch
    import triton

    return f"torch {torch.__version__}, triton {triton.__version__}"


def outdated(name: str, what: str) -> Outdated:
    """The error for entry ``name``: what moved, under which versions."""
    return Outdated(name, f"{what} ({_versions()}): the emulation must be updated")


def get(name: str) -> Any:
    """The object an :class:`Attribute` entry names, imported and looked up now."""
    entry = TABLE[name]
    assert isinstance(entry, Attribute), name
    USED[name] += 1
    try:
        found: Any = importlib.import_module(entry.module)
    except ImportError as error:
        raise outdated(name, f"the module {entry.module} cannot be imported ({error})") from None
    for part in entry.path.split(".") if entry.path else ():
        if not hasattr(found, part):
            raise outdated(name, f"{entry.where} no longer exists")
        found = getattr(found, part)
    return found


def holder(name: str) -> tuple[Any, str]:
    """What holds an :class:`Attribute` entry's last attribute, and its name: what a patch replaces."""
    entry = TABLE[name]
    assert isinstance(entry, Attribute) and entry.path, name
    get(name)  # it is still there, or Outdated
    owner_path, _, attribute = entry.path.rpartition(".")
    owner: Any = importlib.import_module(entry.module)
    for part in owner_path.split(".") if owner_path else ():
        owner = getattr(owner, part)
    return owner, attribute


def member(name: str, made: Any) -> Any:
    """A :class:`Member` entry read from ``made`` (an instance, or a call's result, of its ``made_by``)."""
    entry = TABLE[name]
    assert isinstance(entry, Member), name
    USED[name] += 1
    found = made
    for part in entry.path.split("."):
        if isinstance(found, Mapping):
            if part not in found:
                raise outdated(name, f"{entry.made_by} no longer makes {entry.path!r}")
            found = found[part]
        elif hasattr(found, part):
            found = getattr(found, part)
        else:
            raise outdated(name, f"{entry.made_by} no longer makes {entry.path!r}")
    return found


def find(name: str, text: str) -> re.Match[str]:
    """The first match of a :class:`Marker` entry in ``text``, or Outdated: the text no longer has it."""
    return find_all(name, text)[0]


def find_all(name: str, text: str) -> list[re.Match[str]]:
    """Every match of a :class:`Marker` entry in ``text`` (at least one, or Outdated)."""
    entry = TABLE[name]
    assert isinstance(entry, Marker), name
    USED[name] += 1
    found = list(entry.pattern.finditer(text))
    if not found:
        raise outdated(name, f"the {entry.source} no longer has {entry.pattern.pattern!r}")
    return found
