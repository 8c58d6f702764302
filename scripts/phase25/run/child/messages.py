"""The messages between the runner, a warm interpreter and a run's supervisor, typed.

They travel as JSON objects (see :mod:`channel`), so each side sees plain dicts; these types say which keys
exist and what they hold, so that the type checker sees the seam most likely to hang a run (a key written
under one name and read under another is a run that never ends). Standard library only: the supervisor also
runs on the GPU machine.
"""

from __future__ import annotations

from typing import TypedDict


class Limits(TypedDict):
    processes: int  # live processes of the run at once
    memory_mb: int  # resident memory of all of them together


class Streams(TypedDict):
    stdout: int  # descriptors the snippet's process takes as its stdout and stderr
    stderr: int


class Spec(TypedDict, total=False):
    """What a supervisor needs to start a run (written by ``execute._spec`` and ``Session.start``)."""

    env: dict[str, str]  # the snippet's whole environment
    cwd: str  # its working folder, inside the run's folder
    run_dir: str  # the run's folder, removed when the runner is gone
    label: str  # "snippet (device)", for messages
    limits: Limits
    contain: bool  # run the snippet in a PID namespace of its own (see pidns)
    session_root: str  # the runner's scratch folder, removed with its last run
    python: str  # the interpreter a fresh run starts
    fds: Streams  # set by whoever passes the descriptors


class ToSupervisor(TypedDict, total=False):
    """Runner -> supervisor: the spec (fresh runs: the first message), then a kill at the deadline."""

    spec: Spec
    kill: bool


class FromSupervisor(TypedDict, total=False):
    """Supervisor -> runner, one key or two per message."""

    started: int  # the PID the run's processes hang from
    supervisor: int  # the supervisor's PID (its process group is the run's last resort)
    limit: str  # why the run was stopped: a limit it went past, or a namespace that could not be set up
    survivors: int  # processes still alive after every kill (only where no namespace holds the run)
    exit: int  # the snippet's exit status, as subprocess reports it (-signal when killed): the last message


class WarmHello(TypedDict):
    """A warm interpreter's first message, once its imports are done."""

    threads: int  # threads alive after the imports: more than one makes forking unsafe
    flavour: str
    relog: bool  # whether torch re-reads its logging variables after a fork
