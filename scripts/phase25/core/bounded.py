"""Every process this project starts outside the runner ends by a deadline, with everything it started.

The runner has its own supervisor (run/child/supervise.py, a PID namespace). Everything else that starts a
process (the reproduce kit on a reader's machine, the tools, the tests' helpers) goes through
:func:`run` or :func:`wait_all`: the process leads a session of its own, so when the deadline passes
the whole group is killed at once (its children too, not only the one process) and the caller gets
:class:`Overtime`, one line that names what was stopped, instead of a traceback and a process left
running. Standard library only: the reproduce kit ships this file.
"""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import time
from collections.abc import Sequence
from typing import Any

from .errors import SourceError


class Overtime(SourceError):
    """A process ran past its deadline; it and every process it started were killed."""

    def __init__(self, label: str, timeout: float) -> None:
        super().__init__(label, f"ran past its {timeout:g} s limit: stopped, with every process it started")
        self.timeout = timeout


def label_of(command: Sequence[str]) -> str:
    """A short name for a command in a one-line message."""
    shown = " ".join(shlex.join(str(part) for part in command).split())  # one line, whatever the arguments
    return shown if len(shown) <= 120 else shown[:117] + "..."


def start(command: Sequence[str], **popen: Any) -> subprocess.Popen:
    """Start ``command`` as the leader of a new session: its group is everything it will start."""
    return subprocess.Popen(list(command), start_new_session=True, **popen)


def kill_group(process: subprocess.Popen) -> None:
    """Kill ``process`` and every process of its group, then reap it."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        process.kill()
    process.wait()


def wait_all(
    processes: Sequence[subprocess.Popen], timeout: float, label: str, input: str | bytes | None = None
) -> list[tuple[Any, Any]]:
    """Each process's (stdout, stderr) once all have ended, the time limit shared; past it every group is
    killed (those already ended too, for what they left behind) and :class:`Overtime` is raised."""
    deadline = time.monotonic() + timeout
    ended = []
    try:
        for process in processes:
            ended.append(process.communicate(input, timeout=max(deadline - time.monotonic(), 0.01)))
    except subprocess.TimeoutExpired:
        for process in processes:
            kill_group(process)
            for stream in (process.stdout, process.stderr):
                if stream is not None:
                    stream.close()
        raise Overtime(label, timeout) from None
    except BaseException:  # an interrupt: nothing is left running either
        for process in processes:
            kill_group(process)
        raise
    for process in processes:  # a leader that ended may leave its children: they end with it
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    return ended


def run(
    command: Sequence[str],
    *,
    timeout: float,
    check: bool = False,
    capture_output: bool = False,
    input: str | bytes | None = None,
    **popen: Any,
) -> subprocess.CompletedProcess:
    """``subprocess.run`` with a deadline that kills the whole group and raises :class:`Overtime`."""
    if capture_output:
        popen.update(stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if input is not None:
        popen["stdin"] = subprocess.PIPE
    process = start(command, **popen)
    [(out, err)] = wait_all([process], timeout, label_of(command), input)
    result = subprocess.CompletedProcess(list(command), process.returncode, out, err)
    if check:
        result.check_returncode()
    return result
