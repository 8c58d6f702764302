"""Decide which (snippet, device) runs are needed, run them in parallel, save records."""

from __future__ import annotations

import hashlib
import sys
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import TextIO

from . import execute, records
from .paths import Layout


@dataclass(frozen=True)
class Job:
    snippet: records.Snippet
    device: str

    @property
    def key(self) -> str:
        return f"{self.snippet.id} ({self.device})"


@dataclass
class Outcome:
    """What a call of :func:`run` did; the benchmark and the build log read it."""

    executed: list[records.Record] = field(default_factory=list)
    skipped: list[Job] = field(default_factory=list)
    wall_s: float = 0.0

    @property
    def failures(self) -> list[records.Record]:
        return [r for r in self.executed if r.status != "ok"]


def parse_shard(text: str) -> tuple[int, int]:
    """``"2/4"`` → (2, 4); shards are numbered from 1."""
    try:
        index, total = (int(part) for part in text.split("/"))
    except ValueError:
        raise ValueError(f"--shard takes i/n, e.g. 1/4, not {text!r}") from None
    if not 1 <= index <= total:
        raise ValueError(f"--shard {text}: need 1 <= i <= n")
    return index, total


def in_shard(job: Job, shard: tuple[int, int] | None) -> bool:
    """Stable assignment by hash: adding a snippet never moves the others."""
    if shard is None:
        return True
    index, total = shard
    digest = hashlib.sha256(job.key.encode()).digest()
    return int.from_bytes(digest[:8], "big") % total == index - 1


def plan(
    layout: Layout,
    devices: Iterable[str],
    *,
    select: Iterable[str] = (),
    force: bool = False,
    shard: tuple[int, int] | None = None,
    torch_version: str | None = None,
) -> tuple[list[Job], list[Job]]:
    """Split the selected jobs into (to run, already current)."""
    wanted = set(select)
    todo: list[Job] = []
    current: list[Job] = []
    snippets = records.discover(layout)
    unknown = wanted - {s.id for s in snippets}
    if unknown:
        raise KeyError(f"no such snippet: {', '.join(sorted(unknown))}")
    for snippet in snippets:
        if wanted and snippet.id not in wanted:
            continue
        for device in devices:
            if device not in snippet.header.devices:
                continue
            job = Job(snippet, device)
            if not in_shard(job, shard):
                continue
            fresh = records.freshness(layout, snippet, device, torch_version)
            (current if fresh.state == "current" and not force else todo).append(job)
    return todo, current


class Progress:
    """One line per finished run; on a terminal, a live line of what is running."""

    def __init__(self, total: int, stream: TextIO = sys.stderr) -> None:
        self.total = total
        self.done = 0
        self.running: set[str] = set()
        self.stream = stream
        self.live = stream.isatty()
        self.lock = threading.Lock()

    def start(self, job: Job) -> None:
        with self.lock:
            self.running.add(job.key)
            self._draw()

    def finish(self, job: Job, record: records.Record) -> None:
        with self.lock:
            self.running.discard(job.key)
            self.done += 1
            mark = "ok" if record.status == "ok" else record.status.upper()
            line = f"[{self.done}/{self.total}] {mark:<7} {job.key}  {record.run['wall_s']:.1f}s"
            if self.live:
                self.stream.write("\r\033[K")
            self.stream.write(line + "\n")
            if record.status != "ok":
                self.stream.write(_failure_context(record))
            self._draw()
            self.stream.flush()

    def _draw(self) -> None:
        if self.live and self.running:
            self.stream.write(f"\r\033[K  running: {', '.join(sorted(self.running))}")
            self.stream.flush()


def _failure_context(record: records.Record, lines: int = 15) -> str:
    tail = "\n".join(record.stderr.rstrip().splitlines()[-lines:])
    body = "\n".join(f"    | {line}" for line in tail.splitlines())
    return f"    {record.error}\n{body}\n" if body else f"    {record.error}\n"


def longest_first(jobs: list[Job], layout: Layout) -> list[Job]:
    """Order jobs by their last recorded wall time, unknown ones first.

    Starting the long runs (compiles, multi-process demos) first keeps the
    workers busy to the end instead of leaving one long run alone at the tail.
    """

    def estimate(job: Job) -> float:
        try:
            record = records.load(layout, job.snippet.id, job.device)
        except records.RecordError:
            record = None
        return float(record.run.get("wall_s", 0.0)) if record else float("inf")

    return sorted(jobs, key=lambda job: (-estimate(job), job.key))


def run(
    layout: Layout,
    jobs: list[Job],
    *,
    workers: int = 1,
    progress: Progress | None = None,
    save: bool = True,
    on_record: Callable[[records.Record], None] | None = None,
    estimates_from: Layout | None = None,
) -> Outcome:
    """Execute jobs, ``workers`` at a time; each record is saved as soon as it exists."""
    outcome = Outcome()
    commit = execute.git_commit(layout.root)
    progress = progress or Progress(len(jobs))
    jobs = longest_first(jobs, estimates_from or layout)
    started = time.monotonic()

    def work(job: Job) -> records.Record:
        progress.start(job)
        record = execute.run_one(job.snippet, job.device, layout, commit)
        if save:
            records.save(layout, record)
        progress.finish(job, record)
        return record

    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        futures = [pool.submit(work, job) for job in jobs]
        for future in as_completed(futures):
            record = future.result()
            outcome.executed.append(record)
            if on_record:
                on_record(record)
    outcome.executed.sort(key=lambda r: (r.snippet, r.device))
    outcome.wall_s = time.monotonic() - started
    return outcome


def installed_torch() -> str | None:
    """torch's version on this machine, without importing it into the runner."""
    try:
        from importlib.metadata import version

        return version("torch").split("+")[0]
    except Exception:  # noqa: BLE001 - no torch: compare on source and env only
        return None


def cuda_available() -> bool:
    import subprocess

    probe = "import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)"
    try:
        result = subprocess.run([sys.executable, "-c", probe], capture_output=True, timeout=120, check=False)
        return result.returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False
