"""The runner's ends of one run (a ``Link``), read until the run has ended, within hard limits.

A run's supervisor and snippet hand the runner three ends: the supervisor's socket and the
snippet's stdout and stderr pipes; ``wait`` reads them together. The timeout bounds the whole
run, reading included: at the deadline the runner asks the supervisor to kill every process of
the run, and stops reading shortly after whatever still holds a pipe (a process that left for a
session of its own). Each stream keeps at most its cap (see :mod:`capped`).
"""

from __future__ import annotations

import os
import selectors
import signal
import socket
import subprocess
import threading
import time
from dataclasses import dataclass, field
from typing import cast

from .capped import Capped
from .child import channel
from .child.messages import FromSupervisor, ToSupervisor

KILL_GRACE = 10.0  # seconds a supervisor gets to report after a kill
DRAIN_GRACE = 2.0  # seconds to finish reading after the snippet's process ended


@dataclass
class Link:
    """The runner's ends of one run."""

    sock: socket.socket
    stdout: int
    stderr: int
    supervisor: subprocess.Popen | None = None  # fresh runs only; a warm run's supervisor is the warm one's child
    warm: bool = False
    decoder: channel.Decoder = field(default_factory=channel.Decoder)

    def send(self, message: ToSupervisor) -> None:
        try:
            self.sock.sendall(channel.encode(message))
        except OSError:
            pass

    def messages(self) -> list[FromSupervisor] | None:
        """What the supervisor sent since last time; None once it has closed its end."""
        try:
            data = self.sock.recv(65536)
        except BlockingIOError:
            return []
        except OSError:
            data = b""
        if not data:
            return None
        return cast(list[FromSupervisor], self.decoder.feed(data))

    def close(self) -> None:
        for fd in (self.stdout, self.stderr):
            try:
                os.close(fd)
            except OSError:
                pass
        self.sock.close()
        if self.supervisor is not None:
            try:
                self.supervisor.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.supervisor.kill()
                self.supervisor.wait()


@dataclass
class Ended:
    """How the processes of a run ended, and what they printed."""

    status: int | None  # exit status (-signal); None when the run was killed
    timed_out: bool
    cancelled: bool
    stdout: str
    stderr: str
    wall: float
    limit: str | None = None  # the limit the run went past, when its supervisor stopped it for that
    survivors: int = 0  # processes of the run that were still alive after every kill
    cuts: tuple[int, int] = (0, 0)  # "lines omitted" notes the cap wrote into stdout and stderr (0 or 1)


@dataclass
class _Reports:
    """What the supervisor has said so far."""

    status: int | None = None
    ended_at: float | None = None
    supervisor: int | None = None
    limit: str | None = None
    survivors: int = 0
    gone: bool = False

    def take(self, message: FromSupervisor) -> None:
        self.supervisor = message.get("supervisor", self.supervisor)
        self.limit = message.get("limit", self.limit)
        self.survivors = message.get("survivors", self.survivors)
        if "exit" in message:
            self.status, self.ended_at = message["exit"], time.monotonic()


def wait(link: Link, timeout: float, cancel: threading.Event | None) -> Ended:
    """Read both streams until the run has ended and its pipes are closed, within hard limits."""
    selector = selectors.DefaultSelector()
    streams = {link.stdout: Capped(), link.stderr: Capped()}
    open_pipes = set(streams)
    for fd in (link.sock.fileno(), *streams):
        selector.register(fd, selectors.EVENT_READ)
    started = time.monotonic()
    said, killed_at = _Reports(), None
    timed_out = cancelled = False
    while True:
        now = time.monotonic()
        if said.ended_at is None and killed_at is None and (now >= started + timeout or (cancel and cancel.is_set())):
            timed_out, cancelled = not (cancel and cancel.is_set()), bool(cancel and cancel.is_set())
            link.send({"kill": True})
            killed_at = now
        if said.ended_at is not None and (not open_pipes or now > said.ended_at + DRAIN_GRACE):
            break
        if said.ended_at is None and (said.gone or (killed_at is not None and now > killed_at + KILL_GRACE)):
            _force_kill(link, said.supervisor)
            said.ended_at = now
        for key, _ in selector.select(timeout=0.05):
            if key.fd == link.sock.fileno():
                messages = link.messages()
                if messages is None:
                    said.gone = True
                    selector.unregister(key.fd)
                for message in messages or []:
                    said.take(message)
            elif data := os.read(key.fd, 65536):
                streams[key.fd].feed(data)
            else:
                selector.unregister(key.fd)
                open_pipes.discard(key.fd)
    selector.close()
    killed = timed_out or cancelled or said.limit is not None
    out, err = streams[link.stdout].text(), streams[link.stderr].text()
    wall = (said.ended_at or time.monotonic()) - started
    cuts = (int(streams[link.stdout].dropped_bytes > 0), int(streams[link.stderr].dropped_bytes > 0))
    return Ended(
        None if killed else said.status, timed_out, cancelled, out, err, wall, said.limit, said.survivors, cuts
    )


def _force_kill(link: Link, supervisor: int | None) -> None:
    """The supervisor did not answer: kill it (its run's processes go with its group)."""
    if link.supervisor is not None:
        link.supervisor.kill()
    elif supervisor is not None:
        try:
            os.killpg(supervisor, signal.SIGKILL)
        except ProcessLookupError:
            pass
