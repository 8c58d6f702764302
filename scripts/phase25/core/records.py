"""Execution records: one JSON file per (snippet, device), validated on load, written atomically.

A record splits into what the snippet produced (``output``: compared byte for
byte between runs) and when and where it ran (``provenance`` and ``run``). Its
``source_sha256`` and ``env_key`` say which code and which environment made it;
``catalog`` compares them with the snippet as it is now.

A record is data that a page will publish, so a file that is not exactly the
shape below (cut short, a field of the wrong type) is refused with a message
naming it, never half-used.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .atomic import write_atomic
from .errors import SourceError
from .header import DEVICES
from .paths import Layout

SCHEMA = 2
STATUSES = ("ok", "failed", "timeout")


class RecordError(SourceError):
    """A record file that cannot be trusted: unreadable, wrong schema, wrong shape."""


@dataclass
class Record:
    snippet: str
    device: str
    source_sha256: str
    env_key: str
    status: str
    exit_code: int | None
    stdout: str
    stderr: str
    artifacts: dict[str, str] = field(default_factory=dict)
    error: str | None = None
    expected_error: dict[str, str] | None = None
    provenance: dict[str, Any] = field(default_factory=dict)
    run: dict[str, Any] = field(default_factory=dict)
    # Reports published with the site as the run left them (timings, cache keys
    # and all): tied to the run by the record, left out of the byte comparison.
    published: dict[str, str] = field(default_factory=dict)

    def output(self) -> dict[str, Any]:
        """The part two runs of the same code must reproduce byte for byte."""
        return {
            "status": self.status,
            "exit_code": self.exit_code,
            "error": self.error,
            "expected_error": self.expected_error,
            "stdout": self.stdout,
            "stderr": self.stderr,
            "artifacts": self.artifacts,
        }

    def to_json(self) -> str:
        data = {
            "schema": SCHEMA,
            "snippet": self.snippet,
            "device": self.device,
            "source_sha256": self.source_sha256,
            "env_key": self.env_key,
            "output": self.output(),
            "provenance": self.provenance,
            "run": self.run,
            **({"published": self.published} if self.published else {}),
        }
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


# The shape of a record: field -> what its value must be.
def _str(v: object) -> bool:
    return isinstance(v, str)


def _opt_str(v: object) -> bool:
    return v is None or isinstance(v, str)


def _str_map(v: object) -> bool:
    return isinstance(v, dict) and all(isinstance(k, str) and isinstance(x, str) for k, x in v.items())


def _number(v: object) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


_TOP = {
    "snippet": _str,
    "device": lambda v: v in DEVICES,
    "source_sha256": _str,
    "env_key": _str,
    "output": lambda v: isinstance(v, dict),
    "provenance": lambda v: isinstance(v, dict),
    "run": lambda v: isinstance(v, dict),
}
_OUTPUT = {
    "status": lambda v: v in STATUSES,
    "exit_code": lambda v: v is None or type(v) is int,
    "error": _opt_str,
    "stdout": _str,
    "stderr": _str,
    "artifacts": _str_map,
    "expected_error": lambda v: v is None or (_str_map(v) and set(v) == {"type", "message"}),
}
_RUN = {"date": _str, "wall_s": _number, "git_commit": _opt_str}


def _check(data: dict, shape: dict, prefix: str, where: str) -> None:
    for name, valid in shape.items():
        if name not in data:
            raise RecordError(where, f"field {prefix}{name} is missing")
        if not valid(data[name]):
            raise RecordError(where, f"field {prefix}{name} has a wrong value: {json.dumps(data[name])[:80]}")


def parse(text: str, where: str) -> Record:
    """A record from its JSON text; anything but the exact expected shape is a RecordError."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(where, f"not valid JSON ({exc.msg}, line {exc.lineno} column {exc.colno})") from None
    if not isinstance(data, dict) or data.get("schema") != SCHEMA:
        found = data.get("schema") if isinstance(data, dict) else None
        raise RecordError(where, f"schema {found!r}, expected {SCHEMA} (re-record it)")
    _check(data, _TOP, "", where)
    _check(data["output"], _OUTPUT, "output.", where)
    _check(data["run"], _RUN, "run.", where)
    if "published" in data and not _str_map(data["published"]):
        raise RecordError(where, "field published must map file names to text")
    out = data["output"]
    return Record(
        snippet=data["snippet"],
        device=data["device"],
        source_sha256=data["source_sha256"],
        env_key=data["env_key"],
        status=out["status"],
        exit_code=out["exit_code"],
        stdout=out["stdout"],
        stderr=out["stderr"],
        artifacts=out["artifacts"],
        error=out["error"],
        expected_error=out["expected_error"],
        provenance=data["provenance"],
        run=data["run"],
        published=data.get("published", {}),
    )


def record_path(layout: Layout, snippet_id: str, device: str) -> Path:
    return layout.records / f"{snippet_id}.{device}.json"


def display(layout: Layout, path: Path) -> str:
    """A path as messages show it: relative to the project when it is inside it."""
    return path.relative_to(layout.root).as_posix() if path.is_relative_to(layout.root) else str(path)


def load(layout: Layout, snippet_id: str, device: str) -> Record | None:
    """The committed record, None when there is none; a corrupt file raises RecordError."""
    path = record_path(layout, snippet_id, device)
    where = display(layout, path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError(where, f"not UTF-8 text (cut inside a character? byte {exc.start} of {len(raw)})") from None
    record = parse(text, where)
    if record.snippet != snippet_id or record.device != device:
        raise RecordError(where, f"holds {record.snippet} ({record.device}), not {snippet_id} ({device})")
    return record


def save(layout: Layout, record: Record) -> Path:
    path = record_path(layout, record.snippet, record.device)
    write_atomic(path, record.to_json())
    return path
