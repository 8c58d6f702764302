"""Execution records: one JSON file per (snippet, device), written atomically.

A record splits into what the snippet produced (``output``: compared byte for
byte between runs) and when/where it ran (``run``: date, wall time, commit).
Freshness is decided by two keys: the sha256 of the snippet and its declared
dependencies, and an environment key (device, header env, runner pins,
normalizer version).
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import header as header_mod
from . import normalize
from .paths import Layout

SCHEMA = 1
STATUSES = ("ok", "failed", "timeout")

# What every run gets, whatever the machine: output must depend on the code,
# not on the shell that launched the runner. CPU-only pins live in CPU_ENV.
PINNED_ENV = {
    "PYTHONHASHSEED": "0",
    "PYTHONUNBUFFERED": "1",
    "PYTHONDONTWRITEBYTECODE": "1",
    "PYTHONIOENCODING": "utf-8",
    "TZ": "UTC",
    "LC_ALL": "C.UTF-8",
    "COLUMNS": "100",
}
CPU_ENV = {
    "CUDA_VISIBLE_DEVICES": "",
    # The same kernels on any x86-64 machine with AVX2, whatever its best ISA:
    # ATen's own, Inductor's generated C++, MKL's and oneDNN's.
    "ATEN_CPU_CAPABILITY": "avx2",
    "MKL_CBWR": "AVX2",
    "ONEDNN_MAX_CPU_ISA": "AVX2",
    "OMP_NUM_THREADS": "2",
}
ISA_PINS = ("ATEN_CPU_CAPABILITY", "MKL_CBWR", "ONEDNN_MAX_CPU_ISA")


class RecordError(ValueError):
    """A record file that cannot be trusted: unreadable, wrong schema, wrong shape."""


@dataclass(frozen=True)
class Snippet:
    """A snippet file and what its header declares."""

    id: str  # "00-orientation/linear_grad_fn"
    path: Path
    header: header_mod.Header

    @property
    def source(self) -> str:
        return self.path.read_text(encoding="utf-8")


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
        return json.dumps(data, indent=2, ensure_ascii=False, sort_keys=False) + "\n"

    @classmethod
    def from_json(cls, text: str, where: str = "record") -> Record:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"{where}: not valid JSON ({exc})") from None
        if not isinstance(data, dict) or data.get("schema") != SCHEMA:
            raise RecordError(f"{where}: unknown schema {data.get('schema') if isinstance(data, dict) else None!r}")
        try:
            out = data["output"]
            record = cls(
                snippet=data["snippet"],
                device=data["device"],
                source_sha256=data["source_sha256"],
                env_key=data["env_key"],
                status=out["status"],
                exit_code=out["exit_code"],
                stdout=out["stdout"],
                stderr=out["stderr"],
                artifacts=dict(out.get("artifacts", {})),
                error=out.get("error"),
                expected_error=out.get("expected_error"),
                provenance=dict(data.get("provenance", {})),
                run=dict(data.get("run", {})),
                published=dict(data.get("published", {})),
            )
        except (KeyError, TypeError) as exc:
            raise RecordError(f"{where}: missing field {exc}") from None
        if record.status not in STATUSES or not isinstance(record.stdout, str) or not isinstance(record.stderr, str):
            raise RecordError(f"{where}: malformed output section")
        return record


def diff_outputs(a: dict[str, Any] | None, b: dict[str, Any] | None, before: str, after: str) -> str:
    """A readable diff of two output sections: line by line within each stream and artifact."""
    a, b = a or {}, b or {}
    parts = []
    for key in sorted(set(a) | set(b), key=lambda k: (k == "artifacts", k)):
        if key == "artifacts":
            names = sorted(set(a.get(key) or {}) | set(b.get(key) or {}))
            pairs = [(f"artifacts/{n}", (a.get(key) or {}).get(n, ""), (b.get(key) or {}).get(n, "")) for n in names]
        else:
            pairs = [(key, a.get(key), b.get(key))]
        for name, old, new in pairs:
            if old == new:
                continue
            old_lines = old.splitlines() if isinstance(old, str) else [json.dumps(old, ensure_ascii=False)]
            new_lines = new.splitlines() if isinstance(new, str) else [json.dumps(new, ensure_ascii=False)]
            parts.append("\n".join(difflib.unified_diff(
                old_lines, new_lines, f"{name} ({before})", f"{name} ({after})", lineterm="")))
    return "\n".join(parts)


def discover(layout: Layout) -> list[Snippet]:
    """Every ``snippets/<page>/<name>.py``, sorted; a bad header is an error, not a skip."""
    found = []
    for path in sorted(layout.snippets.glob("*/*.py")):
        if path.name.startswith("_"):
            continue
        snippet_id = path.relative_to(layout.snippets).with_suffix("").as_posix()
        try:
            head = header_mod.parse(path.read_text(encoding="utf-8"))
        except header_mod.HeaderError as exc:
            raise header_mod.HeaderError(f"snippets/{snippet_id}.py: {exc}") from None
        found.append(Snippet(id=snippet_id, path=path, header=head))
    return found


def source_sha256(snippet: Snippet, layout: Layout) -> str:
    """Hash of the snippet and every file it declares in ``deps`` (a folder counts all its files)."""
    digest = hashlib.sha256(snippet.path.read_bytes())
    for dep in snippet.header.deps:
        dep_path = layout.root / dep
        if dep_path.is_dir():  # a package: every file in it, in a stable order
            files = sorted(p for p in dep_path.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
        elif dep_path.is_file():
            files = [dep_path]
        else:
            raise FileNotFoundError(f"snippets/{snippet.id}.py declares missing dependency {dep}")
        for path in files:
            name = path.relative_to(layout.root).as_posix()
            digest.update(b"\0" + name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()



def run_env(snippet: Snippet, device: str) -> dict[str, str]:
    """The environment variables a run gets on top of the inherited ones."""
    env = dict(PINNED_ENV)
    if device == "cpu":
        env.update(CPU_ENV)
    env.update(snippet.header.env)
    return env


def env_key(snippet: Snippet, device: str) -> str:
    material = {
        "device": device,
        "env": run_env(snippet, device),
        "normalizer": normalize.VERSION,
        "expect_error": snippet.header.expect_error and vars(snippet.header.expect_error),
        "artifacts": snippet.header.artifacts,
        "cells": snippet.header.cells,
    }
    if snippet.header.publish:
        material["publish"] = snippet.header.publish
    return hashlib.sha256(json.dumps(material, sort_keys=True).encode()).hexdigest()[:16]


def record_path(layout: Layout, snippet_id: str, device: str) -> Path:
    return layout.records / f"{snippet_id}.{device}.json"


def load(layout: Layout, snippet_id: str, device: str) -> Record | None:
    """The committed record, None when there is none; a corrupt file raises RecordError."""
    path = record_path(layout, snippet_id, device)
    if not path.exists():
        return None
    record = Record.from_json(
        path.read_text(encoding="utf-8"),
        where=str(path.relative_to(layout.root) if path.is_relative_to(layout.root) else path),
    )
    if record.snippet != snippet_id or record.device != device:
        raise RecordError(f"{path}: holds {record.snippet} ({record.device}), not {snippet_id} ({device})")
    return record


def write_atomic(path: Path, text: str) -> None:
    """Write via a temporary file and rename, so a crash never leaves half a record."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o644)  # mkstemp makes it private; records and notebooks are published
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def save(layout: Layout, record: Record) -> Path:
    path = record_path(layout, record.snippet, record.device)
    write_atomic(path, record.to_json())
    return path


@dataclass(frozen=True)
class Freshness:
    """Why a record can or cannot be shown."""

    state: str  # "current" | "missing" | "stale" | "corrupt"
    reason: str = ""
    record: Record | None = None

    @property
    def verdict(self) -> str:
        """What a reader is told: a current record of a failed run says how it failed."""
        if self.state == "current" and self.record is not None and self.record.status != "ok":
            return self.record.status
        return self.state

    def is_problem(self, device: str) -> bool:
        """Anything but a usable record; a CUDA record not captured yet is a gap, not a problem."""
        return self.verdict != "current" and not (device == "cuda" and self.verdict == "missing")


def freshness(layout: Layout, snippet: Snippet, device: str, torch_version: str | None = None) -> Freshness:
    """Compare the committed record with the snippet as it is now.

    ``torch_version``, when given, must match too: a CPU record made with another
    torch is out of date on this machine. CUDA records are judged on source and
    environment alone, since the machine judging them cannot re-run them.
    """
    try:
        record = load(layout, snippet.id, device)
    except RecordError as exc:
        return Freshness("corrupt", str(exc))
    if record is None:
        return Freshness("missing", "no record")
    if record.source_sha256 != source_sha256(snippet, layout):
        return Freshness("stale", "the snippet (or a declared dependency) changed since it was recorded", record)
    if record.env_key != env_key(snippet, device):
        return Freshness("stale", "the snippet's environment or the runner's pins changed", record)
    recorded_torch = record.provenance.get("torch")
    if torch_version and recorded_torch and recorded_torch != torch_version:
        return Freshness("stale", f"recorded with torch {recorded_torch}, this machine has {torch_version}", record)
    return Freshness("current", "", record)
