"""Stopping the runner: Ctrl-C, SIGTERM and SIGKILL leave no process, no folder and no partial record."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import LOCK_THEN_SLEEP, locks_held, locks_taken
from phase25.core.paths import REPO_ROOT

SLOW = """
import os, subprocess, sys, time
# A child in a session of its own, holding a lock while it lives (see conftest.LOCK_THEN_SLEEP).
child = subprocess.Popen([sys.executable, "-c", {lock_then_sleep!r}, {locks!r}], start_new_session=True)
while not [name for name in os.listdir({locks!r}) if not name.endswith(".part")]:
    time.sleep(0.01)
print("slow started", flush=True)
time.sleep(300)
"""


def alive(pid: int) -> bool:
    status = Path(f"/proc/{pid}/status")
    return status.exists() and "State:\tZ" not in status.read_text()


def start_runner(toy, tmp_path: Path, *, warm: bool) -> tuple[subprocess.Popen, Path, Path]:
    locks = tmp_path / "locks"
    locks.mkdir()
    toy.add("page/a_slow", SLOW.format(locks=str(locks), lock_then_sleep=LOCK_THEN_SLEEP), extra="timeout = 600")
    for name in ("b", "c", "d"):
        toy.add(f"page/{name}_queued", "print('queued')\n")
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    env = {**os.environ, "TMPDIR": str(scratch), "PYTHONPATH": str(REPO_ROOT / "scripts")}
    command = [sys.executable, "-m", "phase25", "--root", str(toy.root), "run", "-j1", *([] if warm else ["--fresh"])]
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not locks_taken(locks):  # the slow run has started its child
        assert time.monotonic() < deadline and process.poll() is None, process.communicate()
        time.sleep(0.05)
    return process, locks, scratch


def left_behind(scratch: Path, locks: Path, toy) -> list[str]:
    problems = []
    if locks_held(locks):
        problems.append("the snippet's escaped child still runs")
    problems += [f"left behind: {p}" for p in scratch.iterdir()]
    written = sorted(p.name for p in (toy.root / "records").rglob("*.json")) if (toy.root / "records").exists() else []
    if any("slow" in name for name in written):
        problems.append("a record of the interrupted run was written")
    return problems


@pytest.mark.parametrize("warm", [False, True], ids=["fresh", "warm"])
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
@pytest.mark.slow  # a real run of toy snippets in subprocesses: `make test` runs it, `make check` does not
def test_an_interrupt_stops_everything_at_once_with_one_line(toy, tmp_path, signum, warm):
    process, locks, scratch = start_runner(toy, tmp_path, warm=warm)
    sent = time.monotonic()
    process.send_signal(signum)
    _, err = process.communicate(timeout=30)
    assert time.monotonic() - sent < 5, "stopping waited for the running snippet"
    assert process.returncode == 130
    last = err.strip().splitlines()[-1]
    assert last.startswith("interrupted: 1 running run(s) stopped and 3 not started"), err
    assert "Traceback" not in err
    assert not (toy.root / "records").exists() or not list((toy.root / "records").rglob("*queued*")), "queued runs ran"
    time.sleep(0.3)
    assert left_behind(scratch, locks, toy) == []


@pytest.mark.parametrize("warm", [False, True], ids=["fresh", "warm"])
@pytest.mark.slow  # a real run of toy snippets in subprocesses: `make test` runs it, `make check` does not
def test_sigkill_of_the_runner_leaves_nothing_behind(toy, tmp_path, warm):
    process, locks, scratch = start_runner(toy, tmp_path, warm=warm)
    process.kill()
    process.communicate(timeout=30)
    deadline = time.monotonic() + 10  # the supervisors and the watchdog clean up after the runner
    while left_behind(scratch, locks, toy) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert left_behind(scratch, locks, toy) == []


def processes_in(folder: Path) -> list[int]:
    """Processes whose TMPDIR is ``folder``: everything a runner started under it."""
    found = []
    for environ in Path("/proc").glob("[0-9]*/environ"):
        try:
            if f"TMPDIR={folder}\0".encode() in environ.read_bytes():
                found.append(int(environ.parent.name))
        except OSError:
            continue
    return [pid for pid in found if alive(pid)]


@pytest.mark.slow
def test_the_sessions_background_runs_end_with_the_session_however_it_ends(tmp_path):
    """tests/reexecute.py runs the real snippets beside the test session; a session killed outright
    (SIGKILL, no cleanup of its own) takes them along: no process and no folder stay."""
    scratch, tmp = tmp_path / "reexecuted", tmp_path / "tmp"
    scratch.mkdir()
    tmp.mkdir()
    session = (
        "import os, subprocess, sys, time; "
        f"p = subprocess.Popen([sys.executable, {str(REPO_ROOT / 'tests/reexecute.py')!r}, {str(scratch)!r}, "
        "str(os.getpid())]); print(p.pid, flush=True); time.sleep(300)"
    )
    env = {**os.environ, "TMPDIR": str(tmp), "PYTHONPATH": str(REPO_ROOT / "scripts")}
    launcher = subprocess.Popen([sys.executable, "-c", session], env=env, stdout=subprocess.PIPE, text=True)
    child = int(launcher.stdout.readline())
    deadline = time.monotonic() + 120
    while not any(p.name.startswith("phase25-") for p in tmp.iterdir()):  # the runs have started
        assert time.monotonic() < deadline and alive(child)
        time.sleep(0.1)
    time.sleep(2)
    launcher.kill()
    launcher.communicate()
    deadline = time.monotonic() + 90
    while (processes_in(tmp) or scratch.exists()) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert processes_in(tmp) == [] and not scratch.exists() and list(tmp.iterdir()) == []
