"""One execution per stale (snippet, device), however many runners start at once on the same checkout.

Two ``make site`` (or a build and ``make serve``) started together used to execute the same stale
snippet twice and publish two different wall times. A runner now holds an exclusive lock on the
record it is about to make, in ``.cache/phase25/locks/`` of the checkout, while it makes it; a
second runner waits for the lock, then finds the record current and uses it instead of running
again. The locks are advisory (``flock``): the kernel drops them when their process ends, however it
ends, so a killed runner never leaves one held.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ..core.errors import SourceError

POLL_S = 0.1  # how often a waiting runner looks again (and checks for Ctrl-C)


def lock_path(root: Path, record: Path) -> Path:
    key = hashlib.sha256(str(record.resolve()).encode()).hexdigest()[:24]
    return root / ".cache" / "phase25" / "locks" / f"{key}.lock"


@contextmanager
def holding(root: Path, record: Path, cancel: threading.Event) -> Iterator[bool]:
    """Hold the lock of ``record`` (True), or give up when ``cancel`` is set (False)."""
    path = lock_path(root, record)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise SourceError(str(path), f"cannot take the lock of {record.name}: {exc.strerror or exc}") from None
    try:
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if cancel.wait(POLL_S):
                    yield False
                    return
        yield True
    finally:
        os.close(fd)  # closing releases the lock
