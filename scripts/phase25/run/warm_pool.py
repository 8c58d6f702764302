"""The runner's side of the warm interpreters: one per run environment, started on first use, kept for the session.

A warm interpreter (see ``warm``) imports torch once and forks each run of its environment. The pool
starts it the first time a run of that environment asks, waits for its greeting, and keeps it until
the session ends. One that did not start, or that holds more than one thread after its imports, is
unsafe to fork from: the pool remembers why, and the runs of that environment start fresh.
"""

from __future__ import annotations

import json
import socket
import subprocess
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

from ..core.environment import SCRATCH_FOLDERS, confined
from .child.messages import Spec, WarmHello

GREETING_TIMEOUT = 300.0


@dataclass
class Warm:
    """One warm interpreter and the lock that serializes requests to it."""

    process: subprocess.Popen
    control: socket.socket
    relog: bool  # can re-read torch's logging variables after the fork
    lock: threading.Lock = field(default_factory=threading.Lock)

    def fork_run(self, spec: Spec, fds: list[int]) -> None:
        """Ask for a run: the warm interpreter forks its supervisor, handing it the run's socket and pipes."""
        with self.lock:
            socket.send_fds(self.control, [json.dumps({"spec": spec}).encode()], fds)

    def close(self) -> None:
        self.control.close()  # end of file: the warm interpreter exits
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class WarmPool:
    """The warm interpreters of one session, each started under its scratch folder ``root``."""

    def __init__(self, root: Path, python: str, scripts: str) -> None:
        self.root, self.python, self.scripts = root, python, scripts
        self._warm: dict[tuple, Warm | None] = {}
        self._unsafe: dict[tuple, str] = {}  # environments whose warm interpreter cannot fork, and why
        self._lock = threading.Lock()

    def get(self, env: dict[str, str], flavour: str) -> Warm | None:
        """The warm interpreter of this environment and flavour, started now if needed; None if unsafe."""
        key = _key(env, flavour)
        with self._lock:
            if key not in self._warm:
                self._warm[key] = self._start(env, flavour)
            return self._warm[key]

    def why_unsafe(self, env: dict[str, str], flavour: str) -> str:
        """Why :meth:`get` gave None for this environment."""
        return self._unsafe[_key(env, flavour)]

    def close(self) -> None:
        for warm in self._warm.values():
            if warm is not None:
                warm.close()

    def _start(self, env: dict[str, str], flavour: str) -> Warm | None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        # `import torch` writes to TMPDIR, and what an import reads of HOME or of the working folder (a cache or a
        # debug folder) every fork keeps: the warm interpreter gets folders of its own, as each run does
        scratch = Path(tempfile.mkdtemp(prefix="warm-", dir=self.root))
        for sub in SCRATCH_FOLDERS:
            (scratch / sub).mkdir()
        process = subprocess.Popen(
            [self.python, "-m", "phase25.run.child.warm", str(theirs.fileno()), flavour],
            pass_fds=(theirs.fileno(),),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env={**confined(env, scratch), "PYTHONPATH": self.scripts, "PHASE25_SESSION_ROOT": str(self.root)},
            cwd=scratch / "work",
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


def _key(env: dict[str, str], flavour: str) -> tuple:
    return (flavour, *sorted(env.items()))
