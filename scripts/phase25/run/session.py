"""A runner session: its scratch folder, its watchdog, its warm interpreters, and how each run starts.

Everything a session creates lives under one scratch folder. A watchdog
process removes that folder when the runner's process ends, however it ends
(even SIGKILL closes the pipe the watchdog waits on); each run's supervisor
kills that run's processes in the same case (see ``supervise``).

A run starts as a supervisor, either a fresh ``python -m phase25.run.child.supervise``
that starts a fresh interpreter for the snippet, or one forked from a warm
interpreter of the run's environment (see ``warm``; the session's pool of them is
``warm_pool``). The runner keeps three ends, a ``streams.Link``: the supervisor's socket
and the snippet's stdout and stderr pipes.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

from ..core.environment import SCRATCH_FOLDERS, TORCH_LOGGING
from ..core.paths import Layout
from .child.messages import Spec
from .streams import Link
from .warm_pool import WarmPool

SCRIPTS = str(Path(__file__).resolve().parents[2])  # the folder that holds phase25 (and minigpt)


class Session:
    """Use as a context manager; every run of one runner call happens inside one session."""

    def __init__(
        self, layout: Layout, *, python: str | None = None, warm: bool = True, timeout_factor: float = 1.0
    ) -> None:
        self.layout = layout
        self.python = python or sys.executable
        self.timeout_factor = timeout_factor  # > 1 for a slow interpreter (an emulated CPU)
        self.use_warm = warm
        self.notes: list[str] = []  # what the runner should tell the user (fallbacks to fresh runs)
        self._notes_lock = threading.Lock()
        self._count = 0
        self._count_lock = threading.Lock()

    def __enter__(self) -> Session:
        self.root = Path(tempfile.mkdtemp(prefix="phase25-"))
        self.warm_pool = WarmPool(self.root, self.python, SCRIPTS)
        self.watchdog = subprocess.Popen(
            [sys.executable, "-m", "phase25.run.child.supervise", "--watch", str(self.root)],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env={**os.environ, "PYTHONPATH": SCRIPTS},
            start_new_session=True,
        )
        return self

    def __exit__(self, *exc: object) -> None:
        self.warm_pool.close()
        shutil.rmtree(self.root, ignore_errors=True)
        if self.watchdog.stdin is not None:
            self.watchdog.stdin.close()
        self.watchdog.wait()

    def run_dir(self, name: str) -> Path:
        """A new, empty folder for one run, with the layout the run expects."""
        with self._count_lock:
            self._count += 1
            number = self._count
        run = self.root / f"{number:03d}-{re.sub(r'[^A-Za-z0-9_.-]', '_', name)}"
        for sub in ("tree", *SCRATCH_FOLDERS):
            (run / sub).mkdir(parents=True)
        return run

    def start(self, spec: Spec, warm_env: dict[str, str] | None, flavour: str = "torch") -> Link:
        """Start a run described by ``spec`` (env, cwd, folders); forked from a warm interpreter of
        ``flavour`` when ``warm_env`` is given, else in a fresh one."""
        ours, theirs = socket.socketpair()
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        spec = {**spec, "session_root": str(self.root), "python": self.python}
        try:
            warm = self.warm_pool.get(warm_env, flavour) if warm_env is not None and self.use_warm else None
            if warm_env is not None and self.use_warm and warm is None:
                self.note(
                    f"{spec['label']} runs in a fresh interpreter: {self.warm_pool.why_unsafe(warm_env, flavour)}"
                )
            if warm is not None and not warm.relog and any(k in spec["env"] for k in TORCH_LOGGING):
                self.note(
                    f"{spec['label']} runs in a fresh interpreter: it sets torch's logging variables, "
                    "which this torch cannot read again after a fork"
                )
                warm = None
            if warm is not None:
                warm.fork_run(spec, [theirs.fileno(), out_w, err_w])
                link = Link(ours, out_r, err_r, warm=True)
            else:
                supervisor = subprocess.Popen(
                    [sys.executable, "-m", "phase25.run.child.supervise", str(theirs.fileno())],
                    pass_fds=(theirs.fileno(), out_w, err_w),
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    env={**os.environ, "PYTHONPATH": SCRIPTS},
                    start_new_session=True,
                )
                link = Link(ours, out_r, err_r, supervisor=supervisor)
                link.send({"spec": {**spec, "fds": {"stdout": out_w, "stderr": err_w}}})
        finally:
            theirs.close()
            os.close(out_w)
            os.close(err_w)
        ours.setblocking(False)
        return link

    def note(self, text: str) -> None:
        """Something the runner tells the user once (a fallback to fresh interpreters, and why)."""
        with self._notes_lock:
            if text not in self.notes:
                self.notes.append(text)
