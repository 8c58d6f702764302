"""A warm interpreter: ``import torch`` paid once, each run forked from it.

A fresh interpreter per run costs 1.5 to 2 seconds of ``import torch`` before
the snippet's first line. A warm interpreter is started once per distinct run
environment (the environment is read at import time, so it cannot be shared
across environments), imports torch, and forks a supervisor for each run that
the runner asks for; the supervisor forks the snippet's process. Each run still
gets a process of its own, in the same state as every other: nothing a run
does reaches the warm interpreter or the next run.

Forking is only safe from a single-threaded process. The warm interpreter
counts its threads after the import and says so in its greeting; the runner
then falls back to fresh interpreters for that environment and says why.

Two flavours exist: ``torch`` imports torch, ``compiler`` also imports Dynamo and
Inductor (another two seconds) for the snippets that compile. Every run's
output is the same either way; the test suite checks it against fresh runs.

Protocol, over a SOCK_SEQPACKET socket whose fd is the first argument (the
flavour is the second): a greeting
``{"threads": n}``, then one request per message, ``{"spec": ...}`` with three
file descriptors attached (the run's socket, stdout and stderr). End of file
means the runner is gone; the warm interpreter exits.
"""

from __future__ import annotations

import json
import os
import select
import socket
import sys
from typing import NoReturn, cast

from . import bootstrap, supervise
from .messages import Spec, ToSupervisor, WarmHello

FLAVOURS = {"torch": ("torch",), "compiler": ("torch", "torch._dynamo", "torch._inductor.compile_fx")}


def probe_vector_isa() -> None:
    """Let Inductor pick the CPU's vector instruction set once, before any fork.

    Under the CPU pins Inductor trusts the CPU's flags (``TORCHINDUCTOR_VEC_ISA_OK``);
    without them its first CPU compile in a process dry-compiles a test program
    per instruction set (ten g++ calls, about 17 CPU-seconds). Either way the
    answer is kept in memory, so every run forked from here inherits it.
    """
    from torch._inductor import cpu_vec_isa

    cpu_vec_isa.pick_vec_isa()


def threads() -> int:
    return len(os.listdir("/proc/self/task"))


def serve(control: socket.socket) -> NoReturn:
    while True:
        ready = select.select([control], [], [], 1.0)[0]
        supervise.reap()
        if not ready:
            continue
        message, fds, _, _ = socket.recv_fds(control, 1 << 20, 3)
        if not message:
            _leave(control)
        spec = cast(ToSupervisor, json.loads(message))["spec"]
        if os.fork() == 0:
            control.close()
            os.setsid()
            _run(spec, fds)
        for fd in fds:
            os.close(fd)


def _run(spec: Spec, fds: list[int]) -> NoReturn:
    """In the forked supervisor: fork the snippet's process and watch it."""
    run_socket, stdout, stderr = fds
    spec["fds"] = {"stdout": stdout, "stderr": stderr}
    channel = supervise.Channel(socket.socket(fileno=run_socket))

    def start() -> int:
        pid = os.fork()
        if pid == 0:
            try:
                channel.sock.close()  # the snippet must not hold the runner's socket
                os.setpgid(0, 0)
                supervise.attach(spec)
                bootstrap.run_forked(spec)
            finally:
                os._exit(127)
        os.close(stdout)
        os.close(stderr)
        return pid

    supervise.supervise(channel, spec, start)


def _leave(control: socket.socket) -> NoReturn:
    session_root = os.environ.get("PHASE25_SESSION_ROOT")
    control.close()
    if session_root:
        try:
            os.rmdir(session_root)
        except OSError:
            pass
    os._exit(0)


def main() -> NoReturn:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # only the runner decides when runs stop
    control = socket.socket(fileno=int(sys.argv[1]))
    bootstrap.hide_host_toolkit()  # before torch is imported: its runs inherit the filter, as fresh runs install it
    for name in FLAVOURS[sys.argv[2]]:
        __import__(name)
    if sys.argv[2] == "compiler":
        probe_vector_isa()
    from .bootstrap import can_relog

    hello: WarmHello = {"threads": threads(), "flavour": sys.argv[2], "relog": can_relog()}
    control.send(json.dumps(hello).encode())
    serve(control)


if __name__ == "__main__":
    main()
