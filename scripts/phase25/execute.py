"""Run one (snippet, device) in a fresh process and turn what happened into a record."""

from __future__ import annotations

import fnmatch
import json
import os
import signal
import subprocess
import sys
import sysconfig
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from . import normalize, records
from .paths import Layout

BOOTSTRAP = Path(__file__).resolve().parent / "bootstrap.py"
MAX_ARTIFACT_BYTES = 512 * 1024
MAX_PUBLISHED_BYTES = 4 * 1024 * 1024  # all published files of one run together


def git_commit(root: Path) -> str | None:
    """Short commit of the tree the snippet came from, or None outside git."""
    try:
        out = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--short=12", "HEAD"],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout.strip() or None


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    """Kill the snippet and everything it started (compile workers, torchrun ranks)."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait()


def _collect_artifacts(
    run_dir: Path, patterns: tuple[str, ...], ctx: normalize.Context
) -> tuple[dict[str, str], list[str]]:
    found: dict[str, str] = {}
    problems: list[str] = []
    files = sorted(p for p in run_dir.rglob("*") if p.is_file())
    for pattern in patterns:
        matched = [p for p in files if fnmatch.fnmatch(p.relative_to(run_dir).as_posix(), pattern)]
        if not matched:
            problems.append(f"declared artifact {pattern!r} was not written")
        for path in matched:
            name = path.relative_to(run_dir).as_posix()
            if path.stat().st_size > MAX_ARTIFACT_BYTES:
                problems.append(f"artifact {name} is larger than {MAX_ARTIFACT_BYTES} bytes")
                continue
            try:
                found[name] = normalize.normalize(path.read_text(encoding="utf-8"), ctx)
            except UnicodeDecodeError:
                problems.append(f"artifact {name} is not UTF-8 text")
    return found, problems


def _judge(snippet: records.Snippet, exit_code: int, error: dict | None) -> tuple[str, str | None]:
    """Status and diagnosis; an expected error is asserted, not merely allowed."""
    expected = snippet.header.expect_error
    if expected is None:
        if exit_code == 0:
            return "ok", None
        if error:
            return "failed", f"raised {error['type']}: {error['message']}"
        return "failed", f"exited with status {exit_code}"
    if error is None:
        return (
            "failed",
            f"expected {expected.type} matching {expected.match!r}, but the snippet finished without raising",
        )
    if expected.type not in (error["type"], error["qualname"]):
        return "failed", f"expected {expected.type}, got {error['type']}: {error['message']}"
    if expected.match not in error["message"]:
        return (
            "failed",
            f"{error['type']} raised, but its message does not contain {expected.match!r}: {error['message']}",
        )
    return "ok", None


def run_one(snippet: records.Snippet, device: str, layout: Layout, commit: str | None = None) -> records.Record:
    """Execute in a new process group with its own working and Inductor cache folders."""
    with tempfile.TemporaryDirectory(prefix="phase25-run-") as tmp:
        tmp_path = Path(tmp)
        run_dir = tmp_path / "work"
        cache_dir = tmp_path / "inductor-cache"
        run_dir.mkdir()
        result_file = tmp_path / "result.json"
        env = {
            **os.environ,
            **records.run_env(snippet, device),
            "PHASE25_DEVICE": device,
            "PHASE25_CELLS": "1" if snippet.header.cells else "0",
            "PHASE25_RESULT": str(result_file),
            "TORCHINDUCTOR_CACHE_DIR": str(cache_dir),
            "TRITON_CACHE_DIR": str(tmp_path / "triton-cache"),
            # Shared helpers (the MiniGPT loader) import from scripts/, as in the README.
            "PYTHONPATH": os.pathsep.join(p for p in (str(layout.root / "scripts"), os.environ.get("PYTHONPATH")) if p),
        }
        started = time.monotonic()
        process = subprocess.Popen(
            [sys.executable, str(BOOTSTRAP), str(snippet.path)],
            cwd=run_dir,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        timed_out = False
        try:
            out, err = process.communicate(timeout=snippet.header.timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            _kill_group(process)
            out, err = process.communicate()
        else:
            # The snippet returned, but a child it left behind must not outlive it.
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        wall = time.monotonic() - started

        ctx = normalize.Context(
            run_dir=str(run_dir),
            cache_dir=str(cache_dir),
            repo_root=str(layout.root),
            site_packages=tuple({sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}),
            pid=process.pid,
        )
        result = {}
        if result_file.exists():
            try:
                result = json.loads(result_file.read_text(encoding="utf-8"))
            except json.JSONDecodeError:
                result = {}
        error = result.get("error")
        if error:  # the message may name run folders and paths like any output
            error = {**error, "message": normalize.normalize(error["message"], ctx)}
        if timed_out:
            status, diagnosis = "timeout", f"killed after {snippet.header.timeout:g} s (the whole process group)"
        else:
            status, diagnosis = _judge(snippet, process.returncode, error)
        artifacts, problems = _collect_artifacts(run_dir, snippet.header.artifacts, ctx) if not timed_out else ({}, [])
        published, more = _collect_artifacts(run_dir, snippet.header.publish, ctx) if not timed_out else ({}, [])
        problems += more
        if sum(len(text) for text in published.values()) > MAX_PUBLISHED_BYTES:
            problems.append(f"published files exceed {MAX_PUBLISHED_BYTES} bytes")
        if problems and status == "ok":
            status, diagnosis = "failed", "; ".join(problems)

        provenance = result.get("provenance") or {"python": sys.version.split()[0]}
        return records.Record(
            snippet=snippet.id,
            device=device,
            source_sha256=records.source_sha256(snippet, layout),
            env_key=records.env_key(snippet, device),
            status=status,
            exit_code=None if timed_out else process.returncode,
            stdout=normalize.normalize(out.decode("utf-8", errors="replace"), ctx),
            stderr=normalize.normalize(err.decode("utf-8", errors="replace"), ctx),
            artifacts=artifacts,
            error=diagnosis,
            expected_error=(
                {"type": error["type"], "message": normalize.normalize(error["message"], ctx)}
                if error and snippet.header.expect_error and status == "ok"
                else None
            ),
            provenance=provenance,
            published=published,
            run={
                "date": datetime.now(UTC).strftime("%Y-%m-%d"),
                "wall_s": round(wall, 2),
                "git_commit": commit,
            },
        )
