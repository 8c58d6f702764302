"""What the runner hands a run's own processes, and what they hand back, typed and checked.

The runner describes a run in ``PHASE25_RUN`` (:class:`RunDescription`, written by ``execute._spec``, read by
``bootstrap`` and ``ranks``); the snippet's process writes how it ended in ``result.json``
(:class:`RunResult`, written by ``bootstrap`` and by ``ranks`` for the launcher, read by ``make_record``). A key
written under one name and read under another hangs a run or empties a record, so both sides use these types
and each reader checks what it is given: a missing key, an unknown one or a value of the wrong type is refused
in one line that names the key. Standard library only: this runs in the snippet's process, on the GPU machine.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TypedDict, Union, cast

DESCRIPTION = "PHASE25_RUN"  # the environment variable the description travels in


class _RunDescriptionKeys(TypedDict):
    snippet: str  # the snippet's private copy, run as __main__
    result: str  # where its process writes its RunResult
    device: str
    cells: bool  # a lab, run cell by cell (see core/cells.py)
    scripts: str  # the run's private copy of scripts/, first on sys.path
    tag: str  # marks cells and ranks on the run's streams (cells.seal, ranks.split); the snippet never sees it


class RunDescription(_RunDescriptionKeys, total=False):
    ranks: int  # processes the snippet runs as (header ``ranks = N``); absent for one
    rank: int  # set by the launcher in each rank's own process
    port: int  # where rank 0 listens, for a multi-rank run (its ranks' MASTER_PORT)


class RunError(TypedDict):
    type: str
    qualname: str  # module.qualname, for an expected error named in full
    message: str


class RunWarning(TypedDict):
    category: str
    message: str
    filename: str
    module: str  # the module whose code issued it (see bootstrap._raiser)


class Lost(TypedDict):
    rank: int  # the first rank that ended with a non-zero status
    exit_code: int
    stopped: list[int]  # the ranks the launcher killed because of it


class RankResult(TypedDict):
    exit_code: int
    collectives: dict[str, int]


class _RunResultKeys(TypedDict):
    error: RunError | None  # what the snippet raised, None when it raised nothing
    exit_code: int
    provenance: dict[str, object]  # see provenance.collect
    site_packages: list[str]  # the snippet's interpreter's, which normalizing replaces
    collectives: dict[str, int]  # torch.distributed calls of this rank, by name
    warnings: list[RunWarning]


class RunResult(_RunResultKeys, total=False):
    lost: Lost | None  # written by a multi-rank launcher only, as is ``ranks``
    ranks: list[RankResult]


class Refused(ValueError):
    """A description or result without its shape; the message is one line that names the key."""


def no_result(exit_code: int) -> RunResult:
    """The result of a process that wrote none (killed, or a rank that died first): nothing it said is known."""
    return {
        "error": None,
        "exit_code": exit_code,
        "provenance": {},
        "site_packages": [],
        "collectives": {},
        "warnings": [],
    }


Kind = Union[type, tuple[type, ...]]  # noqa: UP007 - a value at run time, on any Python 3 torch supports
_NULL = type(None)


def _is(value: object, kind: Kind) -> bool:
    """``isinstance``, except that a JSON true is no int and an int is no bool."""
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return any(isinstance(value, bool) == (k is bool) and isinstance(value, k) for k in kinds)


def _name(kind: Kind) -> str:
    return " or ".join("null" if k is _NULL else k.__name__ for k in (kind if isinstance(kind, tuple) else (kind,)))


def _object(
    value: object, where: str, required: dict[str, Kind], optional: dict[str, Kind] | None = None
) -> dict[str, object]:
    """``value`` as a JSON object holding every ``required`` key and no other than ``optional``'s, each of its kind."""
    if not isinstance(value, dict):
        raise Refused(f"{where} is not a JSON object")
    known = {**required, **(optional or {})}
    for key in required:
        if key not in value:
            raise Refused(f"{where}: key {key!r} is missing")
    found: dict[str, object] = {}
    for key, item in value.items():
        if key not in known:
            raise Refused(f"{where}: unknown key {key!r} (expected {', '.join(known)})")
        if not _is(item, known[key]):
            raise Refused(f"{where}: key {key!r} holds {type(item).__name__}, not {_name(known[key])}")
        found[key] = item
    return found


def _all(value: object, kind: type, where: str) -> None:
    """Every item of a list (every value of an object) in ``value`` is of ``kind``."""
    items = list(value.values()) if isinstance(value, dict) else value if isinstance(value, list) else []
    for index, item in enumerate(items):
        if not _is(item, kind):
            raise Refused(f"{where}[{index}] holds {type(item).__name__}, not {kind.__name__}")


def _parsed(text: str, where: str) -> object:
    try:
        return json.loads(text)
    except ValueError as exc:
        raise Refused(f"{where} is not JSON: {exc}") from None


def description(text: str) -> RunDescription:
    """The description in ``PHASE25_RUN``'s text, checked."""
    required: dict[str, Kind] = {
        "snippet": str,
        "result": str,
        "device": str,
        "cells": bool,
        "scripts": str,
        "tag": str,
    }
    found = _object(_parsed(text, DESCRIPTION), DESCRIPTION, required, {"ranks": int, "rank": int, "port": int})
    return cast(RunDescription, found)


_WARNING: dict[str, Kind] = {"category": str, "message": str, "filename": str, "module": str}


def result(path: Path) -> RunResult:
    """The result file at ``path``, checked; OSError when there is none."""
    where = path.name
    required: dict[str, Kind] = {
        "error": (dict, _NULL),
        "exit_code": int,
        "provenance": dict,
        "site_packages": list,
        "collectives": dict,
        "warnings": list,
    }
    text = path.read_text(encoding="utf-8")
    found = _object(_parsed(text, where), where, required, {"lost": (dict, _NULL), "ranks": list})
    if found["error"] is not None:
        _object(found["error"], f"{where}: error", {"type": str, "qualname": str, "message": str})
    _all(found["site_packages"], str, f"{where}: site_packages")
    _all(found["collectives"], int, f"{where}: collectives")
    for index, warning in enumerate(cast(list[object], found["warnings"])):
        _object(warning, f"{where}: warnings[{index}]", _WARNING)
    if found.get("lost") is not None:
        lost = _object(found["lost"], f"{where}: lost", {"rank": int, "exit_code": int, "stopped": list})
        _all(lost["stopped"], int, f"{where}: lost: stopped")
    for index, rank in enumerate(cast(list[object], found.get("ranks", []))):
        counted = _object(rank, f"{where}: ranks[{index}]", {"exit_code": int, "collectives": dict})["collectives"]
        _all(counted, int, f"{where}: ranks[{index}]: collectives")
    return cast(RunResult, found)


def write_result(path: str, found: RunResult) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(found, handle)
