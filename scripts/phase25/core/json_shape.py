"""Checking that a JSON value read back has the shape its reader expects, in one line naming where and the key.

The seams that travel as JSON (a run's description and result, :mod:`run.handoff`; a drift report,
:mod:`drift_shape`) declare their shape as TypedDicts; a TypedDict is no check at run time, so each reader checks
what it parsed with these before it trusts the type. Standard library only: a run's own processes use it too.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Union

Kind = Union[type, tuple[type, ...]]  # noqa: UP007 - a value at run time, on every Python torch supports
NULL = type(None)


class ShapeError(ValueError):
    """A JSON value without its shape; the message is one line that names where it was read and the key."""


def _kinds(kind: Kind) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


def is_kind(value: object, kind: Kind) -> bool:
    """``isinstance``, except that a JSON true is no int and an int is no bool."""
    return any(isinstance(value, bool) == (k is bool) and isinstance(value, k) for k in _kinds(kind))


def kind_name(kind: Kind) -> str:
    return " or ".join("null" if k is NULL else k.__name__ for k in _kinds(kind))


def parsed(text: str, where: str) -> object:
    try:
        found: object = json.loads(text)
    except ValueError as exc:
        raise ShapeError(f"{where} is not JSON: {exc}") from None
    return found


def json_object(
    value: object, where: str, required: Mapping[str, Kind], optional: Mapping[str, Kind] | None = None
) -> dict[str, object]:
    """``value`` as a JSON object holding every ``required`` key and no other than ``optional``'s, each of its kind."""
    if not isinstance(value, dict):
        raise ShapeError(f"{where} is not a JSON object")
    known = {**required, **(optional or {})}
    for key in required:
        if key not in value:
            raise ShapeError(f"{where}: key {key!r} is missing")
    found: dict[str, object] = {}
    for key, item in value.items():
        if key not in known:
            raise ShapeError(f"{where}: unknown key {key!r} (expected {', '.join(known)})")
        if not is_kind(item, known[key]):
            raise ShapeError(f"{where}: key {key!r} holds {type(item).__name__}, not {kind_name(known[key])}")
        found[key] = item
    return found


def each(value: object, kind: Kind, where: str) -> list[object]:
    """The items of a list (the values of an object) in ``value``, every one of ``kind``."""
    items = list(value.values()) if isinstance(value, dict) else value if isinstance(value, list) else []
    for index, item in enumerate(items):
        if not is_kind(item, kind):
            raise ShapeError(f"{where}[{index}] holds {type(item).__name__}, not {kind_name(kind)}")
    return items
