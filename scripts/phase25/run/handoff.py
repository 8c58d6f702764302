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
from typing import TypedDict, cast

from ..core.json_shape import NULL, Kind, ShapeError, each, json_object, parsed

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


Refused = ShapeError  # a description or result without its shape: one line that names the key


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
    found = json_object(parsed(text, DESCRIPTION), DESCRIPTION, required, {"ranks": int, "rank": int, "port": int})
    return cast(RunDescription, found)


_WARNING: dict[str, Kind] = {"category": str, "message": str, "filename": str, "module": str}


def result(path: Path) -> RunResult:
    """The result file at ``path``, checked; OSError when there is none."""
    where = path.name
    required: dict[str, Kind] = {
        "error": (dict, NULL),
        "exit_code": int,
        "provenance": dict,
        "site_packages": list,
        "collectives": dict,
        "warnings": list,
    }
    text = path.read_text(encoding="utf-8")
    found = json_object(parsed(text, where), where, required, {"lost": (dict, NULL), "ranks": list})
    if found["error"] is not None:
        json_object(found["error"], f"{where}: error", {"type": str, "qualname": str, "message": str})
    each(found["site_packages"], str, f"{where}: site_packages")
    each(found["collectives"], int, f"{where}: collectives")
    for index, warning in enumerate(cast(list[object], found["warnings"])):
        json_object(warning, f"{where}: warnings[{index}]", _WARNING)
    if found.get("lost") is not None:
        lost = json_object(found["lost"], f"{where}: lost", {"rank": int, "exit_code": int, "stopped": list})
        each(lost["stopped"], int, f"{where}: lost: stopped")
    for index, rank in enumerate(cast(list[object], found.get("ranks", []))):
        counted = json_object(rank, f"{where}: ranks[{index}]", {"exit_code": int, "collectives": dict})["collectives"]
        each(counted, int, f"{where}: ranks[{index}]: collectives")
    return cast(RunResult, found)


def write_result(path: str, found: RunResult) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(found, handle)
