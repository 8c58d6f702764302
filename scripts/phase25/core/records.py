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

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import limits, names, record_shape
from .atomic import write_atomic
from .errors import SourceError
from .paths import Layout
from .record_shape import ShapeError

SCHEMA = 3
STATUSES = record_shape.STATUSES
# The line a capped stream holds where its middle was left out (see run/capped.py); pages show it as a note.
OMITTED = re.compile(r"^⟪phase25: (?P<lines>\d+) lines omitted \((?P<bytes>\d+) bytes\)⟫$", re.MULTILINE)


def omitted_marker(lines: int, size: int) -> str:
    return f"⟪phase25: {lines} lines omitted ({size} bytes)⟫"


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
    # One entry per rank of a multi-rank snippet: its own stdout and stderr, and its collective calls.
    ranks: list[dict[str, Any]] = field(default_factory=list)
    # The warnings the run emitted (deprecations among them): category, message, the module that raised it.
    warnings: list[dict[str, str]] = field(default_factory=list)

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
            "warnings": self.warnings,
            **({"ranks": self.ranks} if self.ranks else {}),
        }

    def content(self) -> dict[str, Any]:
        """Everything the record holds but its digest, as the digest covers it."""
        return {
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

    def to_json(self) -> str:
        """The record file: its content, its digest, and the lines of a JSON-lines file as a list of lines
        (one per line of the record, so that a review's diff shows which line changed)."""
        data = {**self.content(), "digest": digest(self.content())}
        data["output"] = {**data["output"], "artifacts": {n: as_lines(n, t) for n, t in self.artifacts.items()}}
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def digest(content: dict[str, Any]) -> str:
    """SHA-256 of a record's content in a canonical form: any edit of the output or the provenance changes it."""
    canonical = json.dumps(content, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def as_lines(name: str, text: str) -> str | list[str]:
    return text.split("\n") if name.endswith(".jsonl") else text


def _joined(data: dict[str, Any]) -> None:
    """A JSON-lines artifact stored as a list of lines becomes its text again, before anything is checked."""
    output = data.get("output")
    artifacts = output.get("artifacts") if isinstance(output, dict) else None
    if isinstance(artifacts, dict):
        for name, value in list(artifacts.items()):
            if isinstance(name, str) and name.endswith(".jsonl") and isinstance(value, list):
                if not all(isinstance(line, str) for line in value):
                    raise ShapeError(f"field output.artifacts: file {name[:80]} must be a list of lines")
                artifacts[name] = "\n".join(value)


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not a number a record may hold")


def parse(text: str, where: str) -> Record:
    """A record from its JSON text; anything but the exact expected shape is a RecordError."""
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise RecordError(where, f"not valid JSON ({exc.msg}, line {exc.lineno} column {exc.colno})") from None
    except ValueError as exc:
        raise RecordError(where, f"not valid JSON ({exc})") from None
    except RecursionError:
        raise RecordError(where, "not a record: nested too deeply") from None
    if not isinstance(data, dict) or data.get("schema") != SCHEMA:
        found = data.get("schema") if isinstance(data, dict) else None
        raise RecordError(where, f"schema {str(found)[:20]}, expected {SCHEMA} (re-record it)")
    try:
        _joined(data)
        record_shape.check(data)
    except ShapeError as exc:
        raise RecordError(where, str(exc)) from None
    out = data["output"]
    record = Record(
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
        ranks=out.get("ranks", []),
        warnings=out["warnings"],
    )
    if digest(record.content()) != data["digest"]:
        raise RecordError(
            where,
            "its digest does not match its content (an edit by hand, or a bad merge?): "
            "re-record it with `make records`, or capture it again on the GPU machine",
        )
    return record


def record_path(layout: Layout, snippet_id: str, device: str) -> Path:
    return layout.records / f"{snippet_id}.{device}.json"


def display(layout: Layout, path: Path) -> str:
    """A path as messages show it: relative to the project when it is inside it."""
    return path.relative_to(layout.root).as_posix() if path.is_relative_to(layout.root) else str(path)


def load(layout: Layout, snippet_id: str, device: str) -> Record | None:
    """The committed record, None when there is none; a corrupt file raises RecordError."""
    path = record_path(layout, snippet_id, device)
    where = display(layout, path)
    if (link := names.linked(path, layout.records)) is not None:
        shown = "is a link" if link == path else f"is reached through a link ({display(layout, link)})"
        raise RecordError(where, f"{shown}: a record is a file the runner wrote")
    try:
        size = path.stat().st_size
        if size > limits.MAX_RECORD_BYTES:
            raise RecordError(where, f"{size} bytes, more than a record may hold ({limits.MAX_RECORD_BYTES})")
        if not path.is_file():
            raise RecordError(where, "is not a regular file")
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise RecordError(where, f"cannot be read: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError(where, f"not UTF-8 text (cut inside a character? byte {exc.start} of {len(raw)})") from None
    record = parse(text, where)
    if record.snippet != snippet_id or record.device != device:
        raise RecordError(where, f"holds {record.snippet} ({record.device}), not {snippet_id} ({device})")
    return record


def problem(record: Record) -> str | None:
    """Why the reader would refuse this record, by the reader's own check (:func:`parse`); None when it would not."""
    try:
        parse(record.to_json(), "")
    except RecordError as exc:
        return exc.message
    return None


def save(layout: Layout, record: Record) -> Path:
    """Write a record atomically, only if the reader would accept it: a record is checked by one function when it
    is written and when it is read. A refused or failed write names the record and why, and leaves the old one."""
    path = record_path(layout, record.snippet, record.device)
    text = record.to_json()
    if len(text.encode("utf-8")) > limits.MAX_RECORD_BYTES:
        raise RecordError(display(layout, path), f"would hold more than a record may ({limits.MAX_RECORD_BYTES} bytes)")
    parse(text, display(layout, path))
    write_atomic(path, text, shown_as=display(layout, path))
    return path
