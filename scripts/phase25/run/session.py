"""A runner session: its scratch folder, its watchdog, its warm interpreters, and how each run starts.

Everything a session creates lives under one scratch folder. A watchdog
process removes that folder when the runner's process ends, however it ends
(even SIGKILL closes the pipe the watchdog waits on); each run's supervisor
kills that run's processes in the same case (see ``supervise``).

A run starts as a supervisor, either a fresh ``python -m phase25.run.supervise``
that starts a fresh interpreter for the snippet, or one forked from a warm
interpreter of the run's environment (see ``warm``). The runner keeps three
ends: the supervisor's socket and the snippet's stdout and stderr pipes.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

from ..core.environment import SCRATCH_FOLDERS, TORCH_LOGGING
from ..core.paths import Layout
from . import channel
from .messages import FromSupervisor, Spec, ToSupervisor, WarmHello

SCRIPTS = str(Path(__file__).resolve().parents[2])  # the folder that holds phase25 (and minigpt)
GREETING_TIMEOUT = 300.0


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
class Warm:
    """One warm interpreter and the lock that serializes requests to it."""

    process: subprocess.Popen
    control: socket.socket
    relog: bool  # can re-read torch's logging variables after the fork
    lock: threading.Lock = field(default_factory=threading.Lock)


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
        self._warm: dict[tuple, Warm | None] = {}
        self._unsafe: dict[tuple, str] = {}  # environments whose warm interpreter cannot fork, and why
        self._warm_lock = threading.Lock()
        self._notes_lock = threading.Lock()
        self._count = 0
        self._count_lock = threading.Lock()

    def __enter__(self) -> Session:
        self.root = Path(tempfile.mkdtemp(prefix="phase25-"))
        self.watchdog = subprocess.Popen(
            [sys.executable, "-m", "phase25.run.supervise", "--watch", str(self.root)],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env={**os.environ, "PYTHONPATH": SCRIPTS},
            start_new_session=True,
        )
        return self

    def __exit__(self, *exc: object) -> None:
        for warm in self._warm.values():
            if warm is not None:
                warm.control.close()  # end of file: the warm interpreter exits
                try:
                    warm.process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    warm.process.kill()
                    warm.process.wait()
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
            warm = self._warm_for(warm_env, flavour) if warm_env is not None and self.use_warm else None
            if warm_env is not None and self.use_warm and warm is None:
                self.note(f"{spec['label']} runs in a fresh interpreter: {self._unsafe[_key(warm_env, flavour)]}")
            if warm is not None and not warm.relog and any(k in spec["env"] for k in TORCH_LOGGING):
                self.note(
                    f"{spec['label']} runs in a fresh interpreter: it sets torch's logging variables, "
                    "which this torch cannot read again after a fork"
                )
                warm = None
            if warm is not None:
                with warm.lock:
                    socket.send_fds(
                        warm.control, [json.dumps({"spec": spec}).encode()], [theirs.fileno(), out_w, err_w]
                    )
                link = Link(ours, out_r, err_r, warm=True)
            else:
                supervisor = subprocess.Popen(
                    [sys.executable, "-m", "phase25.run.supervise", str(theirs.fileno())],
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

    def _warm_for(self, env: dict[str, str], flavour: str) -> Warm | None:
        key = _key(env, flavour)
        with self._warm_lock:
            if key not in self._warm:
                self._warm[key] = self._start_warm(env, flavour)
            return self._warm[key]

    def _start_warm(self, env: dict[str, str], flavour: str) -> Warm | None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        scratch = Path(tempfile.mkdtemp(prefix="warm-", dir=self.root))  # `import torch` writes to TMPDIR
        process = subprocess.Popen(
            [self.python, "-m", "phase25.run.warm", str(theirs.fileno()), flavour],
            pass_fds=(theirs.fileno(),),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env={
                **env,
                "PYTHONPATH": SCRIPTS,
                "PHASE25_SESSION_ROOT": str(self.root),
                "TMPDIR": str(scratch),
                "TORCHINDUCTOR_CACHE_DIR": str(scratch / "inductor-cache"),
            },
            start_new_session=True,
        )
        theirs.close()
        ours.settimeout(GREETING_TIMEOUT)
        try:
            greeting = cast(WarmHello | None, json.loads(ours.recv(4096) or b"null"))
        except (OSError, ValueError):
            greeting = None
        ours.settimeout(None)
        if greeting is None or greeting.get("threads") != 1:
            why = "it did not start" if greeting is None else f"{greeting['threads']} threads after its imports"
            self._unsafe[_key(env, flavour)] = f"a warm interpreter of its environment is unsafe to fork ({why})"
            ours.close()
            process.kill()
            process.wait()
            return None
        return Warm(process, ours, bool(greeting.get("relog")))

    def note(self, text: str) -> None:
        """Something the runner tells the user once (a fallback to fresh interpreters, and why)."""
        with self._notes_lock:
            if text not in self.notes:
                self.notes.append(text)


def _key(env: dict[str, str], flavour: str) -> tuple:
    return (flavour, *sorted(env.items()))
