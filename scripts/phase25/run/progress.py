"""What the runner tells a person while it works: a line per finished run, a live line on a terminal."""

from __future__ import annotations

import sys
import threading
from typing import TextIO

from ..core.records import Record
from .plan import Job


class Progress:
    """One line per finished run; on a terminal, a live line of what is running."""

    def __init__(self, total: int, stream: TextIO = sys.stderr) -> None:
        self.total = total
        self.done = 0
        self.running: set[str] = set()
        self.stream = stream
        self.live = stream.isatty()
        self.lock = threading.Lock()

    def say(self, line: str) -> None:
        with self.lock:
            self._write(line + "\n")

    def start(self, job: Job) -> None:
        with self.lock:
            self.running.add(job.key)
            self._write("")

    def finish(self, job: Job, record: Record) -> None:
        with self.lock:
            self.running.discard(job.key)
            self.done += 1
            mark = "ok" if record.status == "ok" else record.status.upper()
            text = f"[{self.done}/{self.total}] {mark:<7} {job.key}  {record.run['wall_s']:.1f}s\n"
            if record.status != "ok":
                tail = record.stderr.rstrip().splitlines()[-15:]
                text += f"    {record.error}\n" + "".join(f"    | {line}\n" for line in tail)
            self._write(text)

    def _write(self, text: str) -> None:
        if self.live:
            self.stream.write("\r\033[K")
        self.stream.write(text)
        if self.live and self.running:
            self.stream.write(f"  running: {', '.join(sorted(self.running))}")
        self.stream.flush()
