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
from dataclasses import dataclass, field
from typing import Any

from . import limits
from .devices import DEVICES
from .errors import SourceError
from .names import problem_with

KEYS = (
    "devices",
    "env",
    "timeout",
    "expect_error",
    "artifacts",
    "deps",
    "cells",
    "publish",
    "volatile",
    "max_processes",
    "max_memory_mb",
    "ranks",
)
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# Variables each run gets from the runner, pointing into its own folder: a header cannot set them.
RUNNER_OWNED = ("PYTHONPATH", "TMPDIR", "TORCHINDUCTOR_CACHE_DIR", "TRITON_CACHE_DIR")
_OPEN = re.compile(r"^# /// snippet[ \t]*$")
_CLOSE = re.compile(r"^# ///[ \t]*$")
_TOML_AT = re.compile(r"\s*\(at (?:line (\d+), column \d+|end of document)\)")


@dataclass(frozen=True)
class ExpectedError:
    """A snippet that demonstrates a failure must raise this, with this text."""

    type: str
    match: str


@dataclass(frozen=True)
class Header:
    devices: tuple[str, ...] = ("cpu",)
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
    ranks: int = 1  # processes of one distributed run, started as torchrun would (see run/ranks.py)


@dataclass(frozen=True)
class Block:
    """Where the header sits in the file: its TOML body and the file line of each body line."""

    start: int  # 0-based index of the "# /// snippet" line
    end: int  # 0-based index of the closing "# ///" line
    body: list[str]


def find_block(source: str, where: str) -> Block:
    """The header block; it must open the file (a shebang or coding line may precede it)."""
    lines = source.split("\n")
    start = next((i for i, line in enumerate(lines) if _OPEN.match(line)), None)
    if start is None or any(line.strip() and not line.startswith(("#!", "# -*-")) for line in lines[:start]):
        raise SourceError(where, "no '# /// snippet' header block at the top of the file", 1)
    end = next((i for i in range(start + 1, len(lines)) if _CLOSE.match(lines[i])), None)
    if end is None:
        raise SourceError(where, "the '# /// snippet' block is never closed with '# ///'", start + 1)
    body = []
    for index in range(start + 1, end):
        line = lines[index]
        if line != "#" and not line.startswith("# "):
            raise SourceError(where, "a header line must start with '# '", index + 1)
        body.append(line[2:])
    return Block(start, end, body)


def code_of(source: str, where: str = "snippet") -> str:
    """The code a reader sees: the file without its header block."""
    block = find_block(source, where)
    lines = source.split("\n")
    return "\n".join(lines[: block.start] + lines[block.end + 1 :]).lstrip("\n")


def first_code_line(source: str, where: str = "snippet") -> int:
    """The file's line number of the first line of :func:`code_of`: tracebacks count from the file's top."""
    block = find_block(source, where)
    lines = source.split("\n")
    rest = lines[block.end + 1 :]
    blank = next((i for i, line in enumerate(rest) if line.strip()), len(rest))
    return block.end + 2 + blank if block.start == 0 else 1


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
            found = _TOML_AT.search(str(exc))
            if found and found.group(1):
                line = self.block.start + 1 + int(found.group(1))
            else:  # "at end of document": the last line of the block's body
                line = self.block.end
            raise SourceError(self.where, f"the header is not valid TOML: {_TOML_AT.sub('', str(exc))}", line) from None

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

    def header(self) -> Header:
        data = self.load()
        for key in data:
            if key not in KEYS:
                raise self.fail(key, f"unknown key {key!r} in the header (known: {', '.join(KEYS)})")
        devices = data.get("devices", ["cpu"])
        if (
            not isinstance(devices, list)
            or not devices
            or len(set(map(str, devices))) != len(devices)
            or any(d not in DEVICES for d in devices)
        ):
            raise self.fail("devices", f"devices must be a non-empty list drawn from {list(DEVICES)}, got {devices!r}")
        env = self.environment(data)
        timeout = data.get("timeout", 120)
        if not isinstance(timeout, int | float) or isinstance(timeout, bool) or not 0 < timeout <= 3600:
            raise self.fail("timeout", "timeout must be a number of seconds in (0, 3600]")
        deps = self.paths(data, "deps")
        if not isinstance(data.get("cells", False), bool):
            raise self.fail("cells", "cells must be true or false")
        volatile = self.strings(data, "volatile")
        for pattern in volatile:
            try:
                re.compile(pattern)
            except re.error as exc:
                message = f"volatile pattern {pattern!r} is not a regular expression: {exc}"
                raise self.fail("volatile", message) from None
        return Header(
            devices=tuple(devices),
            env=env,
            timeout=float(timeout),
            expect_error=self.expected(data),
            artifacts=self.paths(data, "artifacts"),
            deps=tuple(sorted(deps)),
            cells=data.get("cells", False),
            publish=self.paths(data, "publish"),
            volatile=volatile,
            max_processes=self.whole(data, "max_processes", 1, 4096, limits.MAX_PROCESSES),
            max_memory_mb=self.whole(data, "max_memory_mb", 16, 65536, limits.MAX_MEMORY_MB),
            ranks=self.whole(data, "ranks", 1, limits.MAX_RANKS, 1),
        )


def parse(source: str, where: str = "snippet") -> Header:
    """Read the header block of a snippet's source."""
    return _Reader(find_block(source, where), where).header()
