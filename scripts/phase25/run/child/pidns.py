"""A PID namespace for one run: every process of the run dies with its init, at once.

Killing a list of processes read from /proc can be raced: a process that forks and exits
in a loop has a new PID before the kill lands. The kernel offers a group that cannot be
raced: when the first process of a PID namespace (its *init*) dies, the kernel kills every
other process of the namespace, and no process can fork into it any more. So the
supervisor makes the snippet's parent such an init: a small loop that starts the snippet,
reaps what is orphaned in the namespace, reports the snippet's exit status through a pipe
and exits, which ends everything the snippet left behind.

The snippet's own process is not the init (an init ignores the signals it has no handler
for, and inherits every orphan): it keeps the semantics of any process. Inside, PIDs are
the namespace's (``os.getpid()`` is small), so the init also gives the namespace a /proc
of its own (in a mount namespace): whatever reads ``/proc/<os.getpid()>`` (torch's profiler
does) finds its own process, as it would outside.

Whether the machine allows all this is probed once per runner (:func:`probe`); where it
does not, runs fall back to the supervisor's /proc scan and the runner says so once.

Standard library only: it also runs on the GPU machine.
"""

from __future__ import annotations

import ctypes
import functools
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import NoReturn

CLONE_NEWNS = 0x00020000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REC, MS_PRIVATE = 2, 4, 8, 1 << 14, 1 << 18
PR_SET_PDEATHSIG = 1
SWITCH = "PHASE25_PIDNS"  # "0": never ask for a namespace (a machine where they misbehave); the fallback is then used

_libc = ctypes.CDLL(None, use_errno=True)


def enter() -> str | None:
    """Make this process's next child the init of a new PID namespace: None, or why the machine refuses.

    Root (or CAP_SYS_ADMIN) gets one directly; anyone else through a user namespace that maps them to
    themselves, where the machine allows unprivileged ones."""
    if _libc.unshare(CLONE_NEWPID) == 0:
        return None
    refused = ctypes.get_errno()
    uid, gid = os.getuid(), os.getgid()
    if _libc.unshare(CLONE_NEWUSER | CLONE_NEWPID) != 0:
        also = os.strerror(ctypes.get_errno())
        return f"unshare(CLONE_NEWPID): {os.strerror(refused)}; with a user namespace: {also}"
    try:
        for name, text in (("setgroups", "deny"), ("uid_map", f"{uid} {uid} 1"), ("gid_map", f"{gid} {gid} 1")):
            with open(f"/proc/self/{name}", "w") as handle:
                handle.write(text)
    except OSError as error:
        return f"a user namespace could not map this user to itself ({error.strerror})"
    return None


@dataclass
class Namespace:
    """The init of a run's namespace, seen from the supervisor (outside it)."""

    pid: int  # the init's PID on the machine: killing it kills the namespace
    report: int  # the read end of the pipe the init writes the snippet's exit status to

    def status(self, init_status: int) -> tuple[int, str | None]:
        """The snippet's exit status as subprocess reports it (the init's own when it was killed first), and
        why the namespace could not be set up, if it could not."""
        try:
            said = os.read(self.report, 512)
        except OSError:
            said = b""
        finally:
            os.close(self.report)
        if said.startswith(b"!"):
            return init_status, said[1:].decode(errors="replace")
        return (int(said) if said.strip().lstrip(b"-").isdigit() else init_status), None


@functools.cache
def probe() -> str | None:
    """None when this machine gives a run its namespace and its own /proc; else why not (asked once)."""
    if os.environ.get(SWITCH) == "0":
        return f"{SWITCH}=0 in the environment"
    try:
        done = subprocess.run(
            [sys.executable, "-c", "from phase25.run.child.pidns import _try; _try()"],
            check=False,
            env={**os.environ, "PYTHONPATH": os.path.dirname(os.path.dirname(os.path.dirname(__file__)))},
            capture_output=True,
            text=True,
            timeout=30,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"the probe did not run ({error})"
    return None if done.returncode == 0 else (done.stdout.strip() or f"the probe ended with status {done.returncode}")


def contained() -> bool:
    """Whether runs get their namespace here; the first time it is refused, says so once on stderr."""
    why = probe()
    if why is not None and not _WARNED:
        _WARNED.append(why)
        print(
            f"warning: runs get no PID namespace on this machine ({why}); a process that forks away from its run "
            "faster than /proc is read may outlive it",
            file=sys.stderr,
        )
    return why is None


_WARNED: list[str] = []


def _try() -> NoReturn:
    """The probe's own process: a namespace, its init, its /proc; exit 0 when all of it held."""
    refused = enter()
    if refused is not None:
        print(refused)
        os._exit(1)
    pid = os.fork()
    if pid == 0:
        try:
            own_proc()
            os._exit(0 if os.getpid() == 1 and os.readlink("/proc/self") == "1" else 1)
        except OSError as error:
            print(f"{error.filename}: {error.strerror}")
            os._exit(1)
    _, status = os.waitpid(pid, 0)
    os._exit(os.waitstatus_to_exitcode(status))


def own_proc() -> None:
    """In the namespace's init: a mount namespace whose /proc shows this PID namespace's processes."""
    for name, call in (
        ("unshare(CLONE_NEWNS)", lambda: _libc.unshare(CLONE_NEWNS)),
        ("making / private", lambda: _libc.mount(b"none", b"/", None, MS_REC | MS_PRIVATE, None)),
        ("mounting /proc", lambda: _libc.mount(b"proc", b"/proc", b"proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, None)),
    ):
        if call() != 0:
            error = ctypes.get_errno()
            raise OSError(error, os.strerror(error), name)


def start_init(start: Callable[[], int], drop: socket.socket) -> Namespace:
    """Fork the namespace's init (after :func:`enter`), which starts the snippet with ``start()``.

    ``drop`` is a socket the init must not hold (the runner's: the run ends when it closes); closed as an object,
    so that the snippet's process, forked from the init, sees it closed too."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(read)
            drop.close()
            _libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)  # a supervisor killed outright takes the namespace along
            try:
                own_proc()
            except OSError as error:  # the probe said it would hold: say why it did not, as the run's failure
                os.write(write, f"!{error.filename}: {error.strerror}".encode())
                raise
            _serve(start(), write)
        finally:
            os._exit(127)
    os.close(write)
    return Namespace(pid, read)


def _serve(snippet: int, report: int) -> NoReturn:
    """The init's loop: reap every process of the namespace until the snippet's own has ended."""
    while True:
        try:
            done, status = os.waitpid(-1, 0)
        except ChildProcessError:
            os._exit(0)
        if done == snippet:
            os.write(report, str(os.waitstatus_to_exitcode(status)).encode())
            os._exit(0)  # the kernel now kills what is left of the namespace
