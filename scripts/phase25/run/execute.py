"""Run one (snippet, device) and turn what happened into a record.

The run gets a folder of its own: a working folder, a private copy of the
snippet and of the files it declares in ``deps`` (writing through ``__file__``
changes the copy, never the checkout; an undeclared file is simply absent), a
temporary folder and Inductor and Triton caches. The timeout bounds the whole
run, reading included: at the deadline the supervisor kills every process of
the run, and the runner stops reading shortly after whatever still holds a pipe.
"""

from __future__ import annotations

import fnmatch
import json
import os
import selectors
import shutil
import signal
import subprocess
import sysconfig
import threading
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from ..core import environment, normalize
from ..core.paths import Layout
from ..core.records import Record
from ..core.snippets import Snippet, dependency_files, source_sha256
from .capture import Capped
from .session import SCRIPTS, Link, Session

COMPILES = ("torch.compile", "torch._dynamo", "torch._inductor", "torch.export")
MAX_ARTIFACT_BYTES = 512 * 1024
MAX_PUBLISHED_BYTES = 4 * 1024 * 1024  # all published files of one run together
KILL_GRACE = 10.0  # seconds a supervisor gets to report after a kill
DRAIN_GRACE = 2.0  # seconds to finish reading after the snippet's process ended


def git_commit(root: Path) -> str | None:
    """Short commit of the tree the snippet came from, or None outside git."""
    try:
        out = subprocess.run(["git", "-C", str(root), "rev-parse", "--short=12", "HEAD"],
                             capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout.strip() or None


@dataclass
class Ended:
    """How the processes of a run ended, and what they printed."""

    status: int | None  # exit status (-signal); None when the run was killed
    timed_out: bool
    cancelled: bool
    stdout: str
    stderr: str
    wall: float


def copy_tree(snippet: Snippet, layout: Layout, tree: Path) -> None:
    """The snippet and its declared dependencies, at their paths relative to the repository."""
    for source in (snippet.path, *dependency_files(snippet, layout)):
        target = tree / source.relative_to(layout.root)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target)


def wait(link: Link, timeout: float, cancel: threading.Event | None) -> Ended:
    """Read both streams until the run has ended and its pipes are closed, within hard limits."""
    selector = selectors.DefaultSelector()
    streams = {link.stdout: Capped(), link.stderr: Capped()}
    open_pipes = set(streams)
    for fd in (link.sock.fileno(), *streams):
        selector.register(fd, selectors.EVENT_READ)
    started = time.monotonic()
    status, killed_at, ended_at, supervisor = None, None, None, None
    timed_out = cancelled = gone = False
    while True:
        now = time.monotonic()
        if ended_at is None and killed_at is None and (now >= started + timeout or (cancel and cancel.is_set())):
            timed_out, cancelled = not (cancel and cancel.is_set()), bool(cancel and cancel.is_set())
            link.send({"kill": True})
            killed_at = now
        if ended_at is not None and (not open_pipes or now > ended_at + DRAIN_GRACE):
            break
        if ended_at is None and (gone or (killed_at is not None and now > killed_at + KILL_GRACE)):
            _force_kill(link, supervisor)
            ended_at = now
        for key, _ in selector.select(timeout=0.05):
            if key.fd == link.sock.fileno():
                messages = link.messages()
                if messages is None:
                    gone = True
                    selector.unregister(key.fd)
                    continue
                for message in messages:
                    supervisor = message.get("supervisor", supervisor)
                    if "exit" in message:
                        status, ended_at = message["exit"], time.monotonic()
            elif data := os.read(key.fd, 65536):
                streams[key.fd].feed(data)
            else:
                selector.unregister(key.fd)
                open_pipes.discard(key.fd)
    selector.close()
    wall = (ended_at or time.monotonic()) - started
    killed = timed_out or cancelled
    return Ended(None if killed else status, timed_out, cancelled,
                 streams[link.stdout].text(), streams[link.stderr].text(), wall)


def _force_kill(link: Link, supervisor: int | None) -> None:
    """The supervisor did not answer: kill it (its run's processes go with its group)."""
    if link.supervisor is not None:
        link.supervisor.kill()
    elif supervisor is not None:
        try:
            os.killpg(supervisor, signal.SIGKILL)
        except ProcessLookupError:
            pass


def _collect(run_dir: Path, patterns: tuple[str, ...], ctx: normalize.Context) -> tuple[dict[str, str], list[str]]:
    found: dict[str, str] = {}
    problems: list[str] = []
    files = sorted(p for p in run_dir.rglob("*") if p.is_file())
    for pattern in patterns:
        matched = [p for p in files if fnmatch.fnmatch(p.relative_to(run_dir).as_posix(), pattern)]
        if not matched:
            problems.append(f"declared file {pattern!r} was not written")
        for path in matched:
            name = path.relative_to(run_dir).as_posix()
            if path.stat().st_size > MAX_ARTIFACT_BYTES:
                problems.append(f"file {name} is larger than {MAX_ARTIFACT_BYTES} bytes")
                continue
            try:
                found[name] = normalize.normalize(path.read_text(encoding="utf-8"), ctx)
            except UnicodeDecodeError:
                problems.append(f"file {name} is not UTF-8 text")
    return found, problems


def judge(snippet: Snippet, exit_code: int, error: dict | None) -> tuple[str, str | None]:
    """Status and diagnosis; an expected error is asserted, not merely allowed."""
    expected = snippet.header.expect_error
    if expected is None:
        if exit_code == 0:
            return "ok", None
        if error:
            return "failed", f"raised {error['type']}: {error['message']}"
        if exit_code < 0:
            return "failed", f"killed by signal {signal.Signals(-exit_code).name}"
        return "failed", f"exited with status {exit_code}"
    if error is None:
        return "failed", (f"expected {expected.type} matching {expected.match!r}, "
                          "but the snippet finished without raising")
    if expected.type not in (error["type"], error["qualname"]):
        return "failed", f"expected {expected.type}, got {error['type']}: {error['message']}"
    if expected.match not in error["message"]:
        return "failed", (f"{error['type']} raised, but its message does not contain {expected.match!r}: "
                          f"{error['message']}")
    return "ok", None


def _spec(snippet: Snippet, device: str, run: Path) -> tuple[dict, dict[str, str]]:
    """What the supervisor needs to start the snippet, and the environment of its warm interpreter."""
    base = {k: v for k, v in os.environ.items() if not k.startswith("PHASE25_")}
    shared = {**base, **environment.run_env(snippet, device)}
    warm_env = environment.warm_env(snippet, device, base)
    description = {"snippet": str(run / "tree" / "snippets" / f"{snippet.id}.py"), "result": str(run / "result.json"),
                   "device": device, "cells": snippet.header.cells, "scripts": str(run / "tree" / "scripts")}
    env = {
        **shared,
        "PHASE25_RUN": json.dumps(description),
        "PYTHONPATH": os.pathsep.join((description["scripts"], SCRIPTS)),
        "TMPDIR": str(run / "tmp"),
        "TORCHINDUCTOR_CACHE_DIR": str(run / "inductor-cache"),
        "TRITON_CACHE_DIR": str(run / "triton-cache"),
    }
    return {"env": env, "cwd": str(run / "work"), "run_dir": str(run), "label": f"{snippet.id} ({device})"}, warm_env


def run_one(snippet: Snippet, device: str, layout: Layout, session: Session, *, commit: str | None = None,
            warm: bool = False, cancel: threading.Event | None = None) -> Record | None:
    """Execute one run; None when ``cancel`` stopped it (no record is made of a run cut short)."""
    run = session.run_dir(f"{snippet.id}-{device}")
    try:
        copy_tree(snippet, layout, run / "tree")
        spec, shared = _spec(snippet, device, run)
        flavour = "compiler" if any(word in snippet.source for word in COMPILES) else "torch"
        link = session.start(spec, shared if warm else None, flavour)
        try:
            ended = wait(link, snippet.header.timeout * session.timeout_factor, cancel)
        finally:
            link.close()
        if ended.cancelled:
            return None
        return _record(snippet, device, layout, run, ended, commit=commit, mode="warm" if link.warm else "fresh",
                       limit=snippet.header.timeout * session.timeout_factor)
    finally:
        shutil.rmtree(run, ignore_errors=True)


def _record(snippet: Snippet, device: str, layout: Layout, run: Path, ended: Ended, *, commit: str | None,
            mode: str, limit: float) -> Record:
    try:
        result = json.loads((run / "result.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        result = {}
    # The snippet's interpreter may be another one than the runner's (--python): use its own paths.
    ours = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    ctx = normalize.Context(
        run_dir=str(run / "work"), cache_dir=str(run / "inductor-cache"), repo_root=str(layout.root),
        tree_root=str(run / "tree"), tmp_dir=str(run / "tmp"),
        site_packages=tuple(sorted(ours | set(result.get("site_packages", [])))),
    )
    error = result.get("error")
    if error:  # the message may name run folders and paths like any output
        error = {**error, "message": normalize.normalize(error["message"], ctx)}
    if ended.timed_out:
        status, diagnosis = "timeout", f"killed after {limit:g} s (every process of the run)"
        artifacts, published, problems = {}, {}, []
    else:
        status, diagnosis = judge(snippet, ended.status if ended.status is not None else -9, error)
        artifacts, problems = _collect(run / "work", snippet.header.artifacts, ctx)
        published, more = _collect(run / "work", snippet.header.publish, ctx)
        problems += more
        if sum(len(text) for text in published.values()) > MAX_PUBLISHED_BYTES:
            problems.append(f"published files exceed {MAX_PUBLISHED_BYTES} bytes")
    if problems and status == "ok":
        status, diagnosis = "failed", "; ".join(problems)
    keep_error = error and snippet.header.expect_error and status == "ok"
    return Record(
        snippet=snippet.id, device=device, source_sha256=source_sha256(snippet, layout),
        env_key=environment.env_key(snippet, device), status=status,
        exit_code=None if ended.timed_out else ended.status,
        stdout=normalize.normalize(ended.stdout, ctx), stderr=normalize.normalize(ended.stderr, ctx),
        artifacts=artifacts, error=diagnosis,
        expected_error={"type": error["type"], "message": error["message"]} if keep_error else None,
        provenance=result.get("provenance") or {}, published=published,
        run={"date": datetime.now(UTC).strftime("%Y-%m-%d"), "wall_s": round(ended.wall, 2), "git_commit": commit,
             "mode": mode},
    )
