"""Writes that never leave half a file: a temporary file in the same folder, then a rename."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from .errors import WriteError


def write_atomic(path: Path, text: str, shown_as: str | None = None) -> None:
    """Write text via a temporary file and rename, so a crash never leaves half a file."""
    write_atomic_bytes(path, text.encode("utf-8"), shown_as)


def write_atomic_bytes(path: Path, data: bytes, shown_as: str | None = None, *, durable: bool = True) -> None:
    """Write via a temporary file in the same folder and rename: the old file stays whole until the new one is.

    ``durable`` also flushes it to the disk before the rename, for what must survive a power cut (a record, a
    checkpoint); a build's output, made again by the next build, is left to the system's own flushing.
    A write that fails raises :class:`WriteError` naming the file (``shown_as``, or its path) and why.
    """
    try:
        _write(path, data, durable)
    except OSError as exc:
        raise WriteError(shown_as or str(path), f"cannot be written: {exc.strerror or exc}") from None


def _write(path: Path, data: bytes, durable: bool = True) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            if durable:
                os.fsync(handle.fileno())
        os.chmod(tmp, 0o644)  # mkstemp makes it private; records and notebooks are published
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
