"""What a record file may hold, field by field: a type and a range for each, nothing else.

A record is untrusted input: it comes from a commit, a merge, an archive from
another machine. :func:`check` refuses anything but the exact shape below with
one message naming the field, so a record is either used whole or named as
corrupt, never half-used and never a traceback: no ``NaN`` or infinite number,
no negative or absurd wall time, no text past its cap, no file name that leaves
its folder, no control byte in what a page would show.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

from . import limits
from .devices import DEVICES, EMULATION_FIELDS, emulated
from .names import problem_with

STATUSES = ("ok", "failed", "timeout")
MODES = ("fresh", "warm")
# What a page shows must be text: tabs and newlines, never another control byte (a terminal's ESC).
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


class ShapeError(ValueError):
    """A field of a record that is not what it must be."""


Check = Callable[[object], str | None]  # None when the value is fine, else what is wrong with it


def _size(value: str) -> int:
    return len(value.encode("utf-8", errors="replace"))


def text(cap: int, *, shown: bool = True) -> Check:
    """A string of at most ``cap`` bytes; ``shown`` text must hold no control byte."""

    def check(value: object) -> str | None:
        if not isinstance(value, str):
            return "must be text"
        if _size(value) > cap:
            return f"is longer than {cap} bytes"
        if shown and (found := _CONTROL.search(value)):
            return f"holds the control byte {found.group()!r}"
        return None

    return check


def optional(inner: Check) -> Check:
    return lambda value: None if value is None else inner(value)


def one_of(*allowed: object) -> Check:
    return lambda value: None if value in allowed else f"must be one of {list(allowed)}"


def matching(pattern: str) -> Check:
    compiled = re.compile(pattern)
    return lambda value: None if isinstance(value, str) and compiled.fullmatch(value) else f"must match {pattern}"


def integer(low: int, high: int) -> Check:
    def check(value: object) -> str | None:
        if type(value) is not int or not low <= value <= high:
            return f"must be a whole number from {low} to {high}"
        return None

    return check


def number(low: float, high: float) -> Check:
    def check(value: object) -> str | None:
        if isinstance(value, bool) or not isinstance(value, int | float):
            return "must be a number"
        if not math.isfinite(value) or not low <= value <= high:
            return f"must be a finite number from {low:g} to {high:g}"
        return None

    return check


def files(each: int, total: int, *, shown: bool) -> Check:
    """A table of file name -> text: names that stay in their folder, each and all within their caps."""

    def check(value: object) -> str | None:
        if not isinstance(value, dict):
            return "must map file names to text"
        if len(value) > limits.MAX_FILES:
            return f"names more than {limits.MAX_FILES} files"
        for name, content in value.items():
            if (why := problem_with(name)) is not None:
                return f"holds the name {str(name)[:80]!r}, which {why}"
            if (why := text(each, shown=shown)(content)) is not None:
                return f"file {name} {why}"
        if sum(_size(c) for c in value.values()) > total:
            return f"holds more than {total} bytes in all"
        return None

    return check


def _scalar(value: object) -> str | None:
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return number(-1e18, 1e18)(value)
    if isinstance(value, list):
        if len(value) > 256 or not all(isinstance(v, str) and text(200)(v) is None for v in value):
            return "must be a list of at most 256 short strings"
        return None
    return text(limits.MAX_TEXT)(value)


def flat_table(value: object) -> str | None:
    """Provenance: names to numbers, short text, booleans or lists of short strings; no nesting."""
    if not isinstance(value, dict) or len(value) > 64:
        return "must be a table of at most 64 entries"
    for key, item in value.items():
        if not isinstance(key, str) or not re.fullmatch(r"[a-z][a-z0-9_]{0,63}", key):
            return f"has the key {str(key)[:40]!r}, which is not a lower-case name"
        if (why := _scalar(item)) is not None:
            return f"entry {key} {why}"
    return None


def expected_error(value: object) -> str | None:
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) != {"type", "message"}:
        return "must be null or {type, message}"
    return text(limits.MAX_TEXT)(value["type"]) or text(limits.MAX_TEXT)(value["message"])


TOP: dict[str, Check] = {
    "snippet": matching(r"[a-z0-9][a-z0-9-]*/[A-Za-z][A-Za-z0-9_]*"),
    "device": one_of(*DEVICES),
    "source_sha256": matching(r"[0-9a-f]{64}"),
    "env_key": matching(r"[0-9a-f]{16}"),
    "digest": matching(r"[0-9a-f]{64}"),
}


def ranks(value: object) -> str | None:
    """Each rank of a multi-rank run: its streams and its counted collective calls."""
    if not isinstance(value, list) or not 2 <= len(value) <= limits.MAX_RANKS:
        return f"must list from 2 to {limits.MAX_RANKS} ranks"
    for index, rank in enumerate(value):
        if not isinstance(rank, dict) or set(rank) != {"stdout", "stderr", "collectives"}:
            return f"entry {index} must be {{stdout, stderr, collectives}}"
        why = text(limits.STREAM_MAX)(rank["stdout"]) or text(limits.STREAM_MAX)(rank["stderr"])
        counts = rank["collectives"]
        if not isinstance(counts, dict) or not all(
            isinstance(k, str) and re.fullmatch(r"[a-z_]{1,40}", k) and integer(0, 10**9)(v) is None
            for k, v in counts.items()
        ):
            why = why or "collectives must map names to counts"
        if why:
            return f"rank {index}: {why}"
    return None


def warnings(value: object) -> str | None:
    """The warnings a run emitted: category, message and module, each short text; at most a few hundred."""
    if not isinstance(value, list) or len(value) > limits.MAX_WARNINGS:
        return f"must list at most {limits.MAX_WARNINGS} warnings"
    for index, item in enumerate(value):
        if not isinstance(item, dict) or set(item) != {"category", "message", "module"}:
            return f"entry {index} must be {{category, message, module}}"
        why = next((w for w in (text(limits.MAX_TEXT)(item[k]) for k in ("category", "message", "module")) if w), None)
        if why:
            return f"entry {index} {why}"
    return None


OUTPUT: dict[str, Check] = {
    "status": one_of(*STATUSES),
    "exit_code": optional(integer(-128, 255)),
    "error": optional(text(limits.MAX_TEXT)),
    "expected_error": expected_error,
    "stdout": text(limits.STREAM_MAX),
    "stderr": text(limits.STREAM_MAX),
    "artifacts": files(2 * limits.MAX_ARTIFACT_BYTES, limits.MAX_FILES * limits.MAX_ARTIFACT_BYTES, shown=True),
    "warnings": warnings,
}


OUTPUT_OPTIONAL: dict[str, Check] = {"ranks": ranks}
RUN: dict[str, Check] = {
    "date": matching(r"\d{4}-\d{2}-\d{2}"),
    "wall_s": number(0.0, limits.MAX_WALL_S),
    "git_commit": optional(matching(r"[0-9a-f]{7,40}")),
}
RUN_OPTIONAL: dict[str, Check] = {"mode": one_of(*MODES)}
PUBLISHED = files(limits.MAX_PUBLISHED_BYTES, limits.MAX_PUBLISHED_BYTES, shown=False)  # served as they are


def _fields(data: object, required: dict[str, Check], optional_: dict[str, Check], prefix: str) -> None:
    if not isinstance(data, dict):
        raise ShapeError(f"field {prefix.rstrip('.') or 'record'} must be a table")
    for name in data:
        if name not in required and name not in optional_:
            raise ShapeError(f"field {prefix}{str(name)[:40]} is not a field of a record")
    for name in required:
        if name not in data:
            raise ShapeError(f"field {prefix}{name} is missing")
    for name, valid in {**required, **optional_}.items():
        if name in data and (why := valid(data[name])) is not None:
            raise ShapeError(f"field {prefix}{name} {why}")


def _claims_its_device(device: str, provenance: dict[str, Any]) -> None:
    """An emulated output names its emulation, and no other output does: a record cannot pass emulated code
    generation off as a CPU run or a GPU capture, nor an emulated device's output as made without the emulation."""
    if emulated(device):
        missing = [name for name in EMULATION_FIELDS if not provenance.get(name)]
        if missing:
            raise ShapeError(
                f"field provenance does not name the emulation that made this {device} output "
                f"(no {', '.join(missing)}): the snippet must switch the emulation on"
            )
    elif found := [name for name in EMULATION_FIELDS if name in provenance]:
        raise ShapeError(
            f"field provenance names an emulation ({', '.join(found)}), but a {device} output is made without one: "
            "emulated code generation is an output of an emulated device, declared in the snippet's devices"
        )


def check(data: dict[str, Any]) -> None:
    """Raise ShapeError naming the first field that is not what a record's must be."""
    _fields(
        data,
        {
            **TOP,
            "schema": one_of(data.get("schema")),
            "output": lambda v: None,
            "provenance": flat_table,
            "run": lambda v: None,
        },
        {"published": PUBLISHED},
        "",
    )
    if isinstance(data["output"], dict) and data["output"].get("status") == "ok":
        # Only an ok run's output is shown as an output; a failed one is a problem on every page that shows it.
        _claims_its_device(data["device"], data["provenance"])
    _fields(data["output"], OUTPUT, OUTPUT_OPTIONAL, "output.")
    _fields(data["run"], RUN, RUN_OPTIONAL, "run.")
