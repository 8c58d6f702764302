"""The shape of a drift report, typed, and the check that a file read back has it.

A report is written by :func:`drift.between` and read by the drift page, the "changed in" marks, the review
checklist and the atlas's history. Each reads it through :func:`drift.load`, which refuses a report without this
shape in one line that names the file and the key: a key written under one name and read under another would
otherwise empty a page or end the build in a traceback. The integrity check (:func:`drift.problems`: each state,
kind and diff follows from the outputs the report embeds) comes on top, in :func:`drift.checked`.
"""

from __future__ import annotations

from typing import Any, TypedDict, cast

from .compare import KINDS
from .json_shape import NULL, Kind, ShapeError, json_object

STATES = ("changed", "unchanged", "only-a", "only-b", "missing")


class Side(TypedDict):
    """One side of the comparison: the torch most of its records were made with (see ``drift._label``)."""

    torch: str | None
    build: str | None
    python: str | None
    date: str | None


class PerSide(TypedDict):
    a: str | None
    b: str | None


class Outputs(TypedDict):
    a: dict[str, Any] | None  # a record's output (``Record.output``), None when that side has none to compare
    b: dict[str, Any] | None


class WarningChanges(TypedDict):
    new: list[dict[str, str]]  # each a warning as a record keeps it: category, module, message
    gone: list[dict[str, str]]


class Derived(TypedDict):
    """What an entry's two outputs say about each other (see :mod:`drift_derive`)."""

    kind: str | None  # one of compare.KINDS for a changed entry
    diff: str
    atlas: dict[str, Any] | None  # see atlas_drift.changes
    warnings: WarningChanges


class DriftEntry(Derived):
    snippet: str
    device: str
    state: str  # one of STATES
    volatile: list[str]  # the snippet's volatile lines, masked by the rule
    source_sha256: PerSide
    failed: PerSide  # why a side's run gave no output to compare
    output: Outputs


class _ReportKeys(TypedDict):
    schema: int
    a: Side
    b: Side
    entries: list[DriftEntry]


class DriftReport(_ReportKeys, total=False):
    devices: list[str]  # the devices compared
    device: str  # instead of ``devices``, in a report that compared one device


Damaged = ShapeError  # a report without its shape: one line that names the file and the key


def _items(value: object) -> list[object]:
    return cast(list[object], value)


_TEXT = (str, NULL)
_SIDE: dict[str, Kind] = dict.fromkeys(Side.__annotations__, _TEXT)


def _warnings(value: object, where: str) -> None:
    found = json_object(value, where, {"new": list, "gone": list})
    for part in ("new", "gone"):
        for index, warning in enumerate(_items(found[part])):
            named = f"{where}: {part}[{index}]"
            if not isinstance(warning, dict) or not all(isinstance(v, str) for v in warning.values()):
                raise Damaged(f"{named} is not a warning (an object of texts)")


def _entry(value: object, where: str) -> None:
    keys: dict[str, Kind] = {
        "snippet": str,
        "device": str,
        "state": str,
        "volatile": list,
        "source_sha256": dict,
        "failed": dict,
        "output": dict,
        "kind": _TEXT,
        "diff": str,
        "atlas": (dict, NULL),
        "warnings": dict,
    }
    found = json_object(value, where, keys)
    if found["state"] not in STATES:
        raise Damaged(f"{where}: state {found['state']!r} is none of {', '.join(STATES)}")
    if found["kind"] is not None and found["kind"] not in KINDS:
        raise Damaged(f"{where}: kind {found['kind']!r} is none of {', '.join(KINDS)}")
    if not all(isinstance(line, str) for line in _items(found["volatile"])):
        raise Damaged(f"{where}: key 'volatile' holds a list of texts")
    json_object(found["source_sha256"], f"{where}: source_sha256", {"a": _TEXT, "b": _TEXT})
    json_object(found["failed"], f"{where}: failed", {"a": _TEXT, "b": _TEXT})
    json_object(found["output"], f"{where}: output", {"a": (dict, NULL), "b": (dict, NULL)})
    _warnings(found["warnings"], f"{where}: warnings")


def shaped(value: object, where: str) -> DriftReport:
    """``value`` (a report's parsed JSON) as a DriftReport; :class:`Damaged`, naming ``where`` and the key, if not."""
    keys: dict[str, Kind] = {"schema": int, "a": dict, "b": dict, "entries": list}
    found = json_object(value, where, keys, {"devices": list, "device": str})
    if "devices" not in found and "device" not in found:
        raise Damaged(f"{where}: key 'devices' is missing")
    if not all(isinstance(device, str) for device in _items(found.get("devices", []))):
        raise Damaged(f"{where}: key 'devices' holds a list of device names")
    for side in ("a", "b"):
        json_object(found[side], f"{where}: {side}", _SIDE)
    for index, entry in enumerate(_items(found["entries"])):
        _entry(entry, f"{where}: entries[{index}]")
    return cast(DriftReport, found)
