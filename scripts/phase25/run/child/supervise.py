"""The supervisor of one run: starts the snippet, reports how it ended, and leaves nothing behind.

Each run has its own supervisor process, between the runner and the snippet. The
snippet runs in a *PID namespace* of its own, under a small init (see :mod:`pidns`):
when that init dies, the kernel kills every process of the namespace at once, so
nothing the snippet starts can outlive the run, however fast it forks or whatever
session it leaves for. Where the machine refuses a namespace (the runner probes it
and says so once), the supervisor falls back to what it is besides: a *child
subreaper* (Linux ``PR_SET_CHILD_SUBREAPER``) that finds every process of its run in
/proc and kills it, which a process that hops PIDs faster than /proc is read can outrun.

It talks to the runner over a socket, one JSON object per line:
runner -> supervisor ``{"spec": ...}`` (fresh runs) and ``{"kill": true}``;
supervisor -> runner ``{"started": pid}`` and ``{"exit": status}``.
When the socket closes without a goodbye, the runner is gone (killed, even with
SIGKILL): the supervisor kills the run's processes, removes its folder and exits.

Standard library only: it also runs on the GPU machine.
"""

from __future__ import annotations

import ctypes
import os
import select
import shutil
import signal
import socket
import sys
from collections.abc import Callable
from typing import NoReturn, cast

from . import channel, pidns, proc
from .messages import FromSupervisor, Spec, ToSupervisor

PR_SET_CHILD_SUBREAPER = 36


def become_subreaper() -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER) failed")


def descendants(root: int) -> list[int]:
    """Every live process below ``root``, from /proc."""
    return list(proc.below(root))


def reap() -> dict[int, int]:
    """Collect finished children: pid -> exit status as subprocess reports it (-signal when killed)."""
    ended: dict[int, int] = {}
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return ended
        if pid == 0:
            return ended
        ended[pid] = os.waitstatus_to_exitcode(status)


def kill_all(ended: dict[int, int], init: int | None = None) -> int:
    """SIGKILL every descendant until none is left (a process may fork while we kill); how many survived.

    With a namespace's ``init``, killing it kills the whole namespace at once (the kernel's doing, so no fork
    can race it); the scan after it finds what the namespace did not hold."""
    if init is not None:
        try:
            os.kill(init, signal.SIGKILL)
        except ProcessLookupError:
            pass
    for _ in range(500):
        alive = descendants(os.getpid())
        if not alive:
            return 0
        for pid in alive:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        select.select([], [], [], 0.01)
        ended.update(reap())
    return len(descendants(os.getpid()))


class Channel:
    """The supervisor's end of the runner's socket (framed by :mod:`channel`)."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.decoder = channel.Decoder()
        self.closed = False

    def send(self, message: FromSupervisor) -> None:
        try:
            self.sock.sendall(channel.encode(message))
        except OSError:
            self.closed = True

    def receive(self, timeout: float) -> list[ToSupervisor]:
        """Messages that arrived within ``timeout``; sets ``closed`` at end of file."""
        if self.closed or not select.select([self.sock], [], [], timeout)[0]:
            return []
        try:
            data = self.sock.recv(65536)
        except OSError:
            data = b""
        if not data:
            self.closed = True
            return []
        return cast(list[ToSupervisor], self.decoder.feed(data))


def abandon(spec: Spec, ended: dict[int, int], init: int | None) -> NoReturn:
    """The runner is gone: kill the run, remove its folder and, if it is the last, the session's."""
    kill_all(ended, init)
    shutil.rmtree(spec["run_dir"], ignore_errors=True)
    try:
        os.rmdir(spec["session_root"])
    except OSError:
        pass
    os._exit(0)


def supervise(channel: Channel, spec: Spec, start: Callable[[], int]) -> NoReturn:
    """Run the snippet started by ``start()`` to its end or to the runner's kill, then report."""
    become_subreaper()
    refused = pidns.enter() if spec.get("contain") else "not asked"
    if refused is None:
        namespace = pidns.start_init(start, drop=channel.sock)
        for fd in streams_of(spec):  # the snippet's streams are its own now
            _close(fd)
        pid, init, root = namespace.pid, namespace.pid, namespace.pid
    else:
        namespace, pid, init, root = None, start(), None, os.getpid()
    channel.send({"started": pid, "supervisor": os.getpid()})
    ended: dict[int, int] = {}
    limits = spec.get("limits")
    polls = 0
    while pid not in ended:
        for message in channel.receive(0.05):
            if message.get("kill"):
                kill_all(ended, init)
        if channel.closed:
            abandon(spec, ended, init)
        ended.update(reap())
        polls += 1
        if limits and polls % 4 == 0 and pid not in ended:
            why = proc.over_limit(root, limits["processes"], limits["memory_mb"])
            if why is not None:
                channel.send({"limit": why})
                kill_all(ended, init)
    survivors = kill_all(ended, init)  # what the snippet started must not outlive it
    if survivors:
        channel.send({"survivors": survivors})
    status, broken = namespace.status(ended.get(pid, -9)) if namespace else (ended.get(pid, -9), None)
    if broken:
        channel.send({"limit": f"its PID namespace could not be set up ({broken})"})
    channel.send({"exit": status})
    while not channel.closed:  # stay until the runner has read everything
        channel.receive(1.0)
        reap()
    os._exit(0)


def streams_of(spec: Spec) -> tuple[int, ...]:
    """The descriptors a supervisor holds for the snippet's stdout and stderr (none before they are passed)."""
    fds = spec.get("fds")
    return (fds["stdout"], fds["stderr"]) if fds else ()


def _close(fd: int) -> None:
    try:
        os.close(fd)
    except OSError:
        pass


def start_fresh(spec: Spec) -> int:
    """A new interpreter for the snippet, in a process group of its own."""
    pid = os.fork()
    if pid == 0:
        try:
            os.setpgid(0, 0)
            attach(spec)
            os.execve(spec["python"], [spec["python"], "-m", "phase25.run.child.bootstrap"], spec["env"])
        finally:
            os._exit(127)
    return pid


def attach(spec: Spec) -> None:
    """Give the snippet's process its streams and working folder."""
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.dup2(spec["fds"]["stdout"], 1)
    os.dup2(spec["fds"]["stderr"], 2)
    for fd in (devnull, *streams_of(spec)):
        if fd > 2:
            os.close(fd)
    os.chdir(spec["cwd"])


def watch(root: str) -> NoReturn:
    """The session's watchdog: when the runner's end of stdin closes, remove its scratch folder."""
    while sys.stdin.buffer.read(4096):
        pass
    shutil.rmtree(root, ignore_errors=True)
    os._exit(0)


def main() -> NoReturn:
    """Entry point of a fresh run's supervisor (the socket's fd) or of the watchdog (--watch ROOT)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # only the runner decides when a run stops
    if sys.argv[1] == "--watch":
        watch(sys.argv[2])
    channel = Channel(socket.socket(fileno=int(sys.argv[1])))
    os.set_inheritable(channel.sock.fileno(), False)  # the snippet must not hold the runner's socket
    messages: list[ToSupervisor] = []
    while not messages and not channel.closed:
        messages = channel.receive(5.0)
    if channel.closed:
        os._exit(1)
    spec = messages[0]["spec"]

    def start() -> int:
        pid = start_fresh(spec)
        for fd in streams_of(spec):
            os.close(fd)
        return pid

    supervise(channel, spec, start)


if __name__ == "__main__":
    main()
