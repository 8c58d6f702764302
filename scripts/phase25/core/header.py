"""A snippet's ``# /// snippet`` header: what a run needs, read from the top of the file.

The header borrows the shape of PEP 723 inline script metadata: comment lines
holding TOML, between ``# /// snippet`` and ``# ///``. Keeping it in the file
means the snippet and what it needs to run are one unit, hashed together.
Every mistake in a header is an error naming the file and the line, never a
silent default.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from . import limits
from .devices import DEFAULT, DEVICES
from .errors import SourceError, toml_problem
from .header_block import Block, find_block
from .names import problem_with

_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# Variables each run gets from the runner, pointing into its own folder: a header cannot set them.
RUNNER_OWNED = ("PYTHONPATH", "TMPDIR", "TORCHINDUCTOR_CACHE_DIR", "TRITON_CACHE_DIR")


@dataclass(frozen=True)
class ExpectedError:
    """A snippet that demonstrates a failure must raise this, with this text."""

    type: str
    match: str


@dataclass(frozen=True)
class Header:
    devices: tuple[str, ...] = DEFAULT
    env: dict[str, str] = field(default_factory=dict)
    timeout: float = 120.0
    expect_error: ExpectedError | None = None
    artifacts: tuple[str, ...] = ()
    deps: tuple[str, ...] = ()
    cells: bool = False  # a lab: "# %% <id>" lines split it into notebook cells, outputs kept per cell
    publish: tuple[str, ...] = ()  # files published with the site as they are (reports), not compared
    # Regular expressions of output lines that depend on the machine by nature (an autotuner's timings and
    # winner): kept and shown, marked on the page, and left out of the byte comparison.
    volatile: tuple[str, ...] = ()
    # Hard limits of the run, enforced by its supervisor (see core/limits.py for the defaults).
    max_processes: int = limits.MAX_PROCESSES
    max_memory_mb: int = limits.MAX_MEMORY_MB
    ranks: int = 1  # processes of one distributed run, started as torchrun would (see run/child/ranks.py)


class _Reader:
    """Validates one header's values; each error points at the line that set the key."""

    def __init__(self, block: Block, where: str) -> None:
        self.block = block
        self.where = where

    def line_of(self, key: str) -> int:
        pattern = re.compile(rf"^\s*{re.escape(key)}\s*=")
        for offset, line in enumerate(self.block.body):
            if pattern.match(line):
                return self.block.start + 2 + offset
        return self.block.start + 1

    def fail(self, key: str, message: str) -> SourceError:
        return SourceError(self.where, message, self.line_of(key))

    def load(self) -> dict[str, Any]:
        try:
            return tomllib.loads("\n".join(self.block.body))
        except tomllib.TOMLDecodeError as exc:
            message, at = toml_problem(exc)
            # the line of the file: the TOML starts on the line after "# /// snippet"; at its end, the block's last
            line = self.block.start + 1 + at if at is not None else self.block.end
            raise SourceError(self.where, f"the header is not valid TOML: {message}", line) from None

    def strings(self, data: dict, key: str) -> tuple[str, ...]:
        value = data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            raise self.fail(key, f"{key} must be a list of non-empty strings")
        return tuple(value)

    def environment(self, data: dict) -> dict[str, str]:
        env = data.get("env", {})
        if not isinstance(env, dict) or not all(isinstance(v, str) for v in env.values()):
            raise self.fail("env", 'env must be a table of strings, e.g. env = { TORCH_LOGS = "graph_code" }')
        for name, value in env.items():
            if not _ENV_NAME.fullmatch(name) or "\0" in value:
                raise self.fail("env", f"env: {name!r} = {value!r} is not a variable a process can get")
            if name in RUNNER_OWNED or name.startswith("PHASE25_"):
                raise self.fail("env", f"env: {name} is the runner's to set (each run gets its own)")
        return {str(k): v for k, v in env.items()}

    def whole(self, data: dict, key: str, low: int, high: int, default: int) -> int:
        value = data.get(key, default)
        if type(value) is not int or not low <= value <= high:
            raise self.fail(key, f"{key} must be a whole number from {low} to {high}")
        return value

    def paths(self, data: dict, key: str) -> tuple[str, ...]:
        """A list of paths, each relative to its root and staying inside it (see :mod:`names`)."""
        value = self.strings(data, key)
        root = "the repository root" if key == "deps" else "the snippet's working folder"
        for path in value:
            why = problem_with(path, pattern=key != "deps")
            if why is not None:
                raise self.fail(key, f"{key} are paths relative to {root}: {path!r} {why}")
        return value

    def expected(self, data: dict) -> ExpectedError | None:
        value = data.get("expect_error")
        if value is None:
            return None
        if not isinstance(value, dict) or set(value) != {"type", "match"}:
            raise self.fail("expect_error", 'expect_error must be { type = "RuntimeError", match = "text" }')
        if not all(isinstance(value[k], str) and value[k] for k in ("type", "match")):
            raise self.fail("expect_error", "expect_error needs a non-empty type and match")
        return ExpectedError(type=value["type"], match=value["match"])

    def devices(self, data: dict) -> tuple[str, ...]:
        devices = data.get("devices", list(DEFAULT))
        if (
            not isinstance(devices, list)
            or not devices
            or len(set(map(str, devices))) != len(devices)
            or any(d not in DEVICES for d in devices)
        ):
            raise self.fail("devices", f"devices must be a non-empty list drawn from {list(DEVICES)}, got {devices!r}")
        return tuple(devices)

    def timeout(self, data: dict) -> float:
        timeout = data.get("timeout", 120)
        if not isinstance(timeout, int | float) or isinstance(timeout, bool) or not 0 < timeout <= 3600:
            raise self.fail("timeout", "timeout must be a number of seconds in (0, 3600]")
        return float(timeout)

    def cells(self, data: dict) -> bool:
        if not isinstance(data.get("cells", False), bool):
            raise self.fail("cells", "cells must be true or false")
        return bool(data.get("cells", False))

    def volatile(self, data: dict) -> tuple[str, ...]:
        volatile = self.strings(data, "volatile")
        for pattern in volatile:
            try:
                re.compile(pattern)
            except re.error as exc:
                message = f"volatile pattern {pattern!r} is not a regular expression: {exc}"
                raise self.fail("volatile", message) from None
        return volatile

    def header(self) -> Header:
        data = self.load()
        for key in data:
            if key not in FIELDS:
                raise self.fail(key, f"unknown key {key!r} in the header (known: {', '.join(FIELDS)})")
        return Header(**{name: spec.read(self, data) for name, spec in FIELDS.items()})


Keyed = Literal["always", "when set", "through the environment", "no"]


@dataclass(frozen=True)
class Field:
    """One header field, declared once: how it is read and checked, what it is for, and how it enters the
    environment key (``always``; ``when set``, so that adding the field leaves every record that does not
    set it current; ``through the environment`` of the run; ``no``, when it cannot change what a run
    prints). ``reproduce`` names the code through which the reproduction kit honours it (kit/reproduce.py
    and the kit's builder; a test finds it there), or is empty where a reader's run needs nothing of it: a
    field that changes how a snippet runs must be honoured there too."""

    read: Callable[[_Reader, dict], Any]
    help: str
    keyed: Keyed
    reproduce: str


FIELDS: dict[str, Field] = {
    "devices": Field(
        _Reader.devices,
        'where it runs; default ["cpu"]; each device has a record of its own',
        "no",
        "header.devices",
    ),
    "env": Field(_Reader.environment, "extra environment variables of the run", "through the environment", "run_env"),
    "timeout": Field(_Reader.timeout, "seconds; every process of the run is killed after it", "no", "header.timeout"),
    "expect_error": Field(
        _Reader.expected, "the error the snippet must raise, asserted: { type = ..., match = ... }", "always", ""
    ),
    "artifacts": Field(
        lambda r, d: r.paths(d, "artifacts"),
        "files it writes in its working folder, kept in the record",
        "always",
        "header.artifacts",
    ),
    "deps": Field(
        lambda r, d: tuple(sorted(r.paths(d, "deps"))),
        "repository files it reads or imports; editing one makes the record stale",
        "no",
        "dependency_files",
    ),
    "cells": Field(
        _Reader.cells, "a lab: '# %% <id>' lines split it into cells, outputs kept per cell", "always", "header.cells"
    ),
    "publish": Field(
        lambda r, d: r.paths(d, "publish"),
        "files published with the site as they are (a report, a picture), not compared",
        "when set",
        "",
    ),
    "volatile": Field(
        _Reader.volatile,
        "output lines that depend on the machine by nature: marked, not compared",
        "no",
        "header.volatile",
    ),
    "max_processes": Field(
        lambda r, d: r.whole(d, "max_processes", 1, limits.MAX_PROCESSES, limits.MAX_PROCESSES),
        "processes alive at once in the run (lowers the default limit)",
        "no",
        "",
    ),
    "max_memory_mb": Field(
        lambda r, d: r.whole(d, "max_memory_mb", 16, limits.MAX_MEMORY_MB, limits.MAX_MEMORY_MB),
        "resident memory of the run, all its processes together (lowers the default limit)",
        "no",
        "",
    ),
    "ranks": Field(
        lambda r, d: r.whole(d, "ranks", 1, limits.MAX_RANKS, 1),
        "processes of one distributed run, started as torchrun would",
        "when set",
        "header.ranks",
    ),
}
KEYS = tuple(FIELDS)


def keyed(header: Header) -> dict[str, Any]:
    """What the header adds to the environment key: each field keyed ``always``, and each keyed ``when set``
    whose value is not its default (a new field of that kind leaves every existing key as it was)."""
    defaults = Header()
    found: dict[str, Any] = {}
    for name, spec in FIELDS.items():
        value = getattr(header, name)
        if spec.keyed == "always" or (spec.keyed == "when set" and value != getattr(defaults, name)):
            found[name] = vars(value) if isinstance(value, ExpectedError) else value
    return found


def parse(source: str, where: str = "snippet") -> Header:
    """Read the header block of a snippet's source."""
    return _Reader(find_block(source, where), where).header()
