"""Parse the ``# /// snippet`` metadata block at the top of a snippet.

The block borrows the shape of PEP 723 inline script metadata: comment lines
holding TOML, between ``# /// snippet`` and ``# ///``. Keeping it in the file
means the snippet and what it needs to run are one unit, hashed together.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field

DEVICES = ("cpu", "cuda")
_BLOCK = re.compile(r"^# /// snippet[ \t]*$(?P<body>.*?)^# ///[ \t]*$\n?", re.MULTILINE | re.DOTALL)
_KEYS = {"devices", "env", "timeout", "expect_error", "artifacts", "deps", "cells", "publish"}


class HeaderError(ValueError):
    """The metadata block is missing or malformed; the message names the problem."""


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


def split(source: str) -> tuple[str, str]:
    """Return (metadata block, code without it); the block must open the file."""
    match = _BLOCK.search(source)
    before = source[: match.start()] if match else ""
    if not match or any(line.strip() and not line.startswith(("#!", "# -*-")) for line in before.splitlines()):
        raise HeaderError("no '# /// snippet' block at the top of the file")
    code = before + source[match.end() :]
    return match.group(0), code.lstrip("\n")


def parse(source: str) -> Header:
    """Read the metadata block; every mistake is an error, never a silent default."""
    block, _ = split(source)
    lines = block.splitlines()[1:-1]
    body = []
    for number, line in enumerate(lines, start=2):
        if line != "#" and not line.startswith("# "):
            raise HeaderError(f"line {number} of the snippet block does not start with '# '")
        body.append(line[2:])
    try:
        data = tomllib.loads("\n".join(body))
    except tomllib.TOMLDecodeError as exc:
        raise HeaderError(f"snippet block is not valid TOML: {exc}") from None
    unknown = set(data) - _KEYS
    if unknown:
        raise HeaderError(f"unknown key(s) in snippet block: {', '.join(sorted(unknown))}")

    devices = tuple(data.get("devices", ["cpu"]))
    if not devices or any(d not in DEVICES for d in devices) or len(set(devices)) != len(devices):
        raise HeaderError(f"devices must be a non-empty list drawn from {DEVICES}, got {list(devices)}")
    env = data.get("env", {})
    if not isinstance(env, dict) or not all(isinstance(v, str) for v in env.values()):
        raise HeaderError('env must be a table of strings, e.g. env = { TORCH_LOGS = "graph_code" }')
    timeout = data.get("timeout", 120)
    if not isinstance(timeout, (int, float)) or isinstance(timeout, bool) or not 0 < timeout <= 3600:
        raise HeaderError("timeout must be a number of seconds in (0, 3600]")
    expect = data.get("expect_error")
    expected = None
    if expect is not None:
        if not isinstance(expect, dict) or set(expect) != {"type", "match"}:
            raise HeaderError('expect_error must be { type = "RuntimeError", match = "text" }')
        if not expect["type"] or not expect["match"]:
            raise HeaderError("expect_error needs a non-empty type and match")
        expected = ExpectedError(type=str(expect["type"]), match=str(expect["match"]))
    artifacts = data.get("artifacts", [])
    deps = data.get("deps", [])
    publish = data.get("publish", [])
    for name, value in (("artifacts", artifacts), ("deps", deps), ("publish", publish)):
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            raise HeaderError(f"{name} must be a list of non-empty strings")
    if any(".." in d.split("/") or d.startswith("/") for d in deps):
        raise HeaderError("deps are paths relative to the repository root, without '..'")
    cells = data.get("cells", False)
    if not isinstance(cells, bool):
        raise HeaderError("cells must be true or false")
    return Header(
        cells=cells,
        devices=devices,
        env={str(k): v for k, v in env.items()},
        timeout=float(timeout),
        expect_error=expected,
        artifacts=tuple(artifacts),
        publish=tuple(publish),
        deps=tuple(sorted(deps)),
    )
