"""Run the planned jobs on worker threads, save each record as it exists, stop everything on Ctrl-C.

Ctrl-C (or SIGTERM) stops everything at once: the running runs are killed with
all their processes, the queued ones never start, no record is written for any
of them, and :class:`Interrupted` carries the one line the caller prints.
"""

from __future__ import annotations

import queue
import threading
import time
from dataclasses import dataclass, field

from ..core import records
from ..core.catalog import Catalog, standing_of
from ..core.errors import Interrupted
from ..core.records import Record
from . import execute, locks
from .guard import CheckoutGuard
from .plan import Job, longest_first, warm_groups
from .progress import Progress
from .session import Session


@dataclass
class Outcome:
    """What a call of :func:`run` did; the build log, the CLI and the benchmark read it."""

    executed: list[Record] = field(default_factory=list)
    reused: list[Record] = field(default_factory=list)  # made by another runner while this one waited
    wall_s: float = 0.0
    notes: list[str] = field(default_factory=list)
    intrusions: list[str] = field(default_factory=list)  # files of the checkout that changed during runs

    @property
    def failures(self) -> list[Record]:
        return [r for r in self.executed if r.status != "ok"]


def run(
    catalog: Catalog,
    jobs: list[Job],
    *,
    workers: int = 1,
    progress: Progress | None = None,
    warm: bool = True,
    python: str | None = None,
    estimates: Catalog | None = None,
    timeout_factor: float = 1.0,
    reuse: bool = True,
) -> Outcome:
    """Execute jobs, ``workers`` at a time; each record is saved as soon as it exists.

    ``reuse``: a job whose record another runner made current while this one waited is not run again
    (off for ``update``, which re-executes on purpose)."""
    started = time.monotonic()
    with Session(catalog.layout, python=python, warm=warm, timeout_factor=timeout_factor) as session:
        pool = _Pool(catalog, session, progress or Progress(len(jobs)), warm_groups(jobs) if warm else set(), reuse)
        outcome = pool.run(longest_first(jobs, estimates or catalog), workers)
    outcome.executed.sort(key=lambda r: (r.snippet, r.device))
    outcome.wall_s = time.monotonic() - started
    return outcome


class _Pool:
    """Worker threads that take jobs from a queue; the main thread collects and handles Ctrl-C."""

    def __init__(self, catalog: Catalog, session: Session, progress: Progress, use_warm: set[str], reuse: bool) -> None:
        self.catalog, self.session, self.progress, self.use_warm = catalog, session, progress, use_warm
        self.reuse = reuse
        self.layout = catalog.layout
        self.pending: queue.Queue[Job] = queue.Queue()
        self.done: queue.Queue[Record | Reused | BaseException] = queue.Queue()
        self.cancel = threading.Event()
        self.commit = execute.git_commit(self.layout.root)
        self.guard = CheckoutGuard(self.layout)
        self.outcome = Outcome()

    def run(self, jobs: list[Job], workers: int) -> Outcome:
        for job in jobs:
            self.pending.put(job)
        threads = [threading.Thread(target=self.work, daemon=True) for _ in range(max(1, min(workers, len(jobs))))]
        for thread in threads:
            thread.start()
        try:
            _gather(self.done, len(jobs), self.outcome, self.catalog, threads=threads)
        except KeyboardInterrupt:
            _stop(self.cancel, self.pending, threads, self.outcome, len(jobs))
        except BaseException:
            self.cancel.set()
            for thread in threads:
                thread.join()
            raise
        finally:
            self.outcome.notes = self.session.notes
        return self.outcome

    def work(self) -> None:
        """Take jobs until none is left; whatever fails is handed to the main thread, never lost."""
        while not self.cancel.is_set():
            try:
                job = self.pending.get_nowait()
            except queue.Empty:
                return
            try:
                self.one(job)
            except BaseException as exc:  # noqa: BLE001 - handed to the main thread, raised there
                self.done.put(exc)
                return

    def one(self, job: Job) -> None:
        """Run a job under its record's lock; a record another runner made meanwhile is used, not remade."""
        path = records.record_path(self.layout, job.snippet.id, job.device)
        with locks.holding(self.layout.root, path, self.cancel) as held:
            if not held:
                return
            if self.reuse and (made := self.made_meanwhile(job)) is not None:
                self.progress.say(f"{job.key}: another runner has just made its record; using it")
                self.done.put(Reused(made))
                return
            self.progress.start(job)
            record = execute.run_one(
                job.snippet,
                job.device,
                self.layout,
                self.session,
                commit=self.commit,
                warm=job.key in self.use_warm,
                cancel=self.cancel,
            )
            if record is not None:
                self.keep(job, record)

    def made_meanwhile(self, job: Job) -> Record | None:
        """The record on disk, if it is current now although it was not when this runner planned."""
        try:
            record = records.load(self.layout, job.snippet.id, job.device)
        except records.RecordError:
            return None
        if record is None or record == self.catalog.standing(job.snippet.id, job.device).record:
            return None
        standing = standing_of(
            job.snippet, job.device, self.catalog.digests[job.snippet.id], record, self.catalog.torch
        )
        return record if standing.usable else None

    def keep(self, job: Job, record: Record) -> None:
        """Save a finished run's record, saying so when it replaces a corrupt one or when the checkout moved."""
        previous = self.catalog.standing(job.snippet.id, job.device)
        if previous.state == "corrupt":
            self.progress.say(f"replacing the corrupt record of {job.key}: {previous.reason}")
        suspects = sorted({job.key, *self.progress.running})
        self.guard.expect(records.record_path(self.layout, record.snippet, record.device))
        records.save(self.layout, record)
        intrusion = self.guard.check(suspects)
        if intrusion:
            self.outcome.intrusions.append(intrusion)
            self.progress.say(f"error: {intrusion}")
        self.progress.finish(job, record)
        self.done.put(record)


@dataclass(frozen=True)
class Reused:
    """A record another runner made while this one waited for its lock."""

    record: Record


def _gather(
    done: queue.Queue,
    total: int,
    outcome: Outcome,
    catalog: Catalog,
    *,
    threads: list[threading.Thread],
) -> None:
    """Collect every job's result; a worker that ended without one is an error, never a wait forever."""
    while len(outcome.executed) + len(outcome.reused) < total:
        try:
            item = done.get(timeout=0.2)
        except queue.Empty:
            if not any(thread.is_alive() for thread in threads) and done.empty():
                raise RuntimeError(
                    "the runner's workers ended before every run did (a bug: please report it)"
                ) from None
            continue
        if isinstance(item, BaseException):
            raise item
        record = item.record if isinstance(item, Reused) else item
        (outcome.reused if isinstance(item, Reused) else outcome.executed).append(record)
        catalog.update(record)


def _stop(
    cancel: threading.Event, pending: queue.Queue, threads: list[threading.Thread], outcome: Outcome, total: int
) -> None:
    """Kill what runs, start nothing more, wait for the workers; then say what was left undone."""
    cancel.set()
    queued = pending.qsize()
    while any(thread.is_alive() for thread in threads):
        try:
            for thread in threads:
                thread.join(timeout=0.2)
        except KeyboardInterrupt:  # a second Ctrl-C: the kills are already on their way
            continue
    stopped = total - len(outcome.executed) - len(outcome.reused) - queued
    raise Interrupted(
        f"interrupted: {max(stopped, 0)} running run(s) stopped and {queued} not started, "
        "no record written for them, nothing left behind"
    )
