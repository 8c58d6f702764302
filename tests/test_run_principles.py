"""The runner's principles, tried the way a snippet or a machine would break them.

- Nothing a run started outlives it, however it hides (new sessions, double forks, a tree of forks),
  and a run is held to a limit of processes and of resident memory.
- A write that fails is an error naming the path, never a hang; the old file stays whole.
- The checkout guard sees every file of the checkout, and a change that keeps size and time.
- Two runners started together execute a stale run once; the second uses the first one's record.
- No path of the runner's scratch reaches a record, whichever of its folders a snippet prints or saves.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import REPO, lock_folder, locks_held, locks_taken
from phase25 import cli
from phase25.core import bounded, records

# -- nothing outlives the run; limits ---------------------------------------------------------------------------------


def add_a_double_fork(toy, tmp_path: Path) -> Path:
    """A snippet that leaves a grandchild behind in a session of its own (holding a lock); the locks' folder."""
    locks, take_lock = lock_folder(tmp_path)
    toy.add(
        "page/hides",
        f"""
        import os, time
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                {take_lock}
                time.sleep(300)
            os._exit(0)
        time.sleep(0.5)
        print("left a grandchild behind")
    """,
    )
    return locks


def test_a_double_forked_process_in_a_session_of_its_own_dies_with_its_run(toy, tmp_path):
    locks = add_a_double_fork(toy, tmp_path)
    [record] = toy.run()[0].executed
    assert record.status == "ok" and record.stdout == "left a grandchild behind\n"
    time.sleep(0.2)
    assert locks_taken(locks) == 1 and locks_held(locks) == 0


HOPPER = """
import os, time
beat, stop = {beat!r}, {stop!r}
if os.fork() == 0:
    os.setsid()  # out of the run's process group too
    hops = 0
    while not os.path.exists(stop):  # a process that hops PIDs: it forks, and the parent exits at once
        if os.fork():
            os._exit(0)
        hops += 1
        if hops % 200 == 0:
            open(beat, "w").write(str(hops))
    os._exit(0)
while not os.path.exists(beat):
    time.sleep(0.01)
print("a process hops PIDs")
{tail}
"""


def hopping_after(beat: Path, seconds: float = 1.0) -> bool:
    """Whether the hopper still writes its heartbeat ``seconds`` after the run ended."""
    before = beat.read_text()
    time.sleep(seconds)
    return beat.read_text() != before


@pytest.mark.parametrize("warm", [False, True], ids=["fresh", "warm"])
@pytest.mark.parametrize("ending", ["exits", "times out"])
def test_a_process_that_hops_pids_dies_with_its_run(toy, tmp_path, warm, ending):
    """A loop of fork() whose parent exits at once has a new PID before any kill read from /proc lands: the
    run's PID namespace ends it with the run, whether the snippet exits or is killed at its deadline."""
    beat, stop = tmp_path / "beat", tmp_path / "stop"
    tail = "time.sleep(300)" if ending == "times out" else ""
    toy.add("page/hopper", HOPPER.format(beat=str(beat), stop=str(stop), tail=tail), extra="timeout = 3")
    try:
        [record] = toy.run(warm=warm)[0].executed
        assert record.stdout == "a process hops PIDs\n"
        assert record.status == ("timeout" if ending == "times out" else "ok")
        assert not hopping_after(beat), "the hopper outlived its run"
    finally:
        stop.touch()  # a hopper that survived stops by itself: a failing test leaves nothing behind


@pytest.mark.skipif(os.getuid() != 0 or not shutil.which("setpriv"), reason="becoming an unprivileged user needs root")
def test_a_user_without_privileges_gets_the_namespace_through_a_user_namespace(tmp_path):
    """Without CAP_SYS_ADMIN, ``pidns.enter`` asks for a user namespace that maps the user to itself: the next
    child is the namespace's init, and files keep their owner."""
    probe = (
        "import os, sys; from phase25.run.child import pidns; print(pidns.enter()); sys.stdout.flush()\n"
        "pid = os.fork()\n"
        "if pid == 0:\n    pidns.own_proc(); print(os.getpid(), os.getuid(), os.readlink('/proc/self')); os._exit(0)\n"
        "os.waitpid(pid, 0)\n"
    )
    nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    done = bounded.run(
        [*nobody, sys.executable, "-c", probe],
        check=False,
        env={**os.environ, "PYTHONPATH": str(REPO / "scripts")},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.stdout.split("\n")[:2] == ["None", "1 65534 1"], done.stderr


def test_without_a_namespace_the_runner_says_so_once_and_still_kills_what_it_finds(toy, tmp_path, monkeypatch, capsys):
    """A machine that refuses PID namespaces (here: told so by PHASE25_PIDNS=0) falls back to the /proc scan,
    and the runner says, once, what that leaves open."""
    from phase25.run.child import pidns

    monkeypatch.setenv("PHASE25_PIDNS", "0")
    monkeypatch.setattr(pidns, "_WARNED", [])
    pidns.probe.cache_clear()
    locks = add_a_double_fork(toy, tmp_path)
    toy.add("page/second", "print('two')\n")
    outcome = toy.run()[0]
    assert [r.status for r in outcome.executed] == ["ok", "ok"]
    time.sleep(0.2)
    assert locks_taken(locks) == 1 and locks_held(locks) == 0
    warned = capsys.readouterr().err
    pidns.probe.cache_clear()
    assert warned.count("runs get no PID namespace on this machine (PHASE25_PIDNS=0 in the environment)") == 1


def test_a_run_past_its_process_limit_is_stopped_and_nothing_of_it_survives(toy, tmp_path):
    locks, take_lock = lock_folder(tmp_path)
    toy.add(
        "page/tree",
        f"""
        import os, time
        for depth in range(6):  # a tree of forks: 63 processes within milliseconds
            if os.fork() == 0:
                {take_lock}
                continue
        time.sleep(300)
    """,
        extra="max_processes = 10\ntimeout = 60",
    )
    started = time.monotonic()
    [record] = toy.run()[0].executed
    assert time.monotonic() - started < 20
    assert record.status == "failed" and "more than 10 processes at once" in record.error
    assert "every process of the run was killed" in record.error
    time.sleep(0.2)
    assert locks_taken(locks) >= 10 and locks_held(locks) == 0


def test_a_run_past_its_memory_limit_is_stopped(toy):
    toy.add(
        "page/greedy",
        """
        import time
        hog = bytearray(400 * 1024 * 1024)  # zero-filled: every page is touched
        print("allocated", flush=True)
        time.sleep(300)
    """,
        extra="max_memory_mb = 128\ntimeout = 60",
    )
    [record] = toy.run()[0].executed
    assert record.status == "failed" and "more than 128 MB of resident memory" in record.error


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("max_processes = 0", "max_processes must be a whole number from 1 to 256"),
        ("max_memory_mb = 1e9", "max_memory_mb must be a whole number"),
        ('env = { PYTHONPATH = "/elsewhere" }', "PYTHONPATH is the runner's to set"),
        ('env = { PHASE25_RUN = "{}" }', "PHASE25_RUN is the runner's to set"),
        ('env = { "A=B" = "x" }', "is not a variable a process can get"),
    ],
)
def test_a_header_cannot_lift_the_runners_limits_or_take_its_variables(line, message):
    from phase25.core import header
    from phase25.core.errors import SourceError

    with pytest.raises(SourceError, match=message):
        header.parse(f"# /// snippet\n# {line}\n# ///\nprint(1)\n", "snippets/page/a.py")


# -- a write that fails is an error, never a hang ---------------------------------------------------------------------


def _in_a_thread(target, timeout: int = 120) -> list:
    """Run ``target`` (in the main thread: the command line sets signal handlers), failing instead of hanging
    the suite when it has not returned in time."""
    import signal

    def hung(signum, frame):
        raise TimeoutError(f"hung for {timeout} s")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(timeout)
    try:
        return [target()]
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.mark.slow  # a real run of toy snippets in subprocesses: `make test` runs it, `make check` does not
def test_a_record_that_cannot_be_written_is_one_message_not_a_hang(toy, monkeypatch, capsys):
    toy.add("page/a", "print('first')\n")
    toy.add("page/b", "print('b')\n")
    assert cli.main(["--root", str(toy.root), "run", "-j2"]) == 0
    path = records.record_path(toy.layout, "page/a", "cpu")
    before = path.read_text()
    toy.add("page/a", "print('second')\n")

    def full(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    [code] = _in_a_thread(lambda: cli.main(["--root", str(toy.root), "run", "-j2"]))
    err = capsys.readouterr().err
    assert code == 2 and "error: records/page/a.cpu.json: cannot be written: No space left on device" in err
    assert "Traceback" not in err and path.read_text() == before
    assert [p.name for p in path.parent.iterdir() if p.name.endswith(".tmp")] == []


def test_a_run_folder_that_cannot_be_made_is_one_message(toy, monkeypatch, capsys):
    import tempfile

    toy.add("page/a", "print(1)\n")

    def full(*args, **kwargs):
        raise OSError(28, "No space left on device", "/tmp/phase25-full")

    monkeypatch.setattr(tempfile, "mkdtemp", full)
    [code] = _in_a_thread(lambda: cli.main(["--root", str(toy.root), "run"]))
    err = capsys.readouterr().err
    assert code == 2 and "error: /tmp/phase25-full: No space left on device" in err and "Traceback" not in err


def _read_only(folder: Path, mount: Path) -> bool:
    mount.mkdir(parents=True)
    made = bounded.run(["mount", "--bind", str(folder), str(mount)], capture_output=True, timeout=30)
    if made.returncode != 0:
        return False
    again = bounded.run(["mount", "-o", "remount,bind,ro", str(mount)], capture_output=True, timeout=30)
    return again.returncode == 0


@pytest.mark.slow  # a real run of toy snippets in subprocesses: `make test` runs it, `make check` does not
def test_a_read_only_records_folder_is_one_message_and_the_old_record_stays(toy, tmp_path):
    toy.add("page/a", "print('first')\n")
    toy.run()
    toy.add("page/a", "print('second')\n")
    view = tmp_path / "view"
    if not _read_only(toy.root / "records", view):
        pytest.skip("this machine cannot make a read-only bind mount")
    try:
        env = {**os.environ, "PYTHONPATH": str(REPO / "scripts")}
        result = bounded.run(
            [sys.executable, "-m", "phase25", "--root", str(toy.root), "--records", str(view), "run"],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
            check=False,
        )
    finally:
        bounded.run(["umount", str(view)], timeout=30)
    assert result.returncode == 2 and "cannot be written: Read-only file system" in result.stderr, result.stderr
    assert "Traceback" not in result.stderr
    assert records.load(toy.layout, "page/a", "cpu").stdout == "first\n"


# -- the checkout guard sees every file, and content -------------------------------------------------------------------


def test_the_guard_sees_a_file_anywhere_in_the_checkout_and_a_change_that_keeps_size_and_time(toy):
    (toy.root / "README.md").write_text("the readme\n")
    (toy.root / "notes").mkdir()
    (toy.root / "notes" / "plan.txt").write_text("AAAA")
    toy.add("page/a", "print(1)\n")
    toy.run()
    toy.add(
        "page/sly",
        f"""
        import os
        path = {str(toy.root / "notes" / "plan.txt")!r}
        stat = os.stat(path)
        open(path, "w").write("BBBB")  # same size
        os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # same time
        open({str(toy.root / "README.md")!r}, "a").write("one more line\\n")
    """,
    )
    outcome, _ = toy.run()
    [intrusion] = outcome.intrusions
    assert "notes/plan.txt" in intrusion and "README.md" in intrusion


# -- two runners at once ----------------------------------------------------------------------------------------------


@pytest.mark.slow  # a real run of toy snippets in subprocesses: `make test` runs it, `make check` does not
def test_two_runners_started_together_execute_a_stale_run_once(toy, tmp_path):
    counter = tmp_path / "executions.txt"
    toy.add(
        "page/slow",
        f"""
        import time
        open({str(counter)!r}, "a").write("ran\\n")
        time.sleep(1.5)
        print("made once")
    """,
    )
    env = {**os.environ, "PYTHONPATH": str(REPO / "scripts")}
    command = [sys.executable, "-m", "phase25", "--root", str(toy.root), "run", "--fresh"]
    both = [
        bounded.start(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)
    ]
    results = bounded.wait_all(both, 120, "two runners")
    assert [p.returncode for p in both] == [0, 0], results
    assert counter.read_text() == "ran\n"
    assert sum("another runner has just made its record; using it" in err for _, err in results) == 1
    assert records.load(toy.layout, "page/slow", "cpu").stdout == "made once\n"


# -- nothing of the scratch reaches a record --------------------------------------------------------------------------

SCRATCH_NAME = re.compile(r"phase25-[a-z0-9_]{8}")  # the runner's scratch folder, as tempfile.mkdtemp names it


def test_no_folder_of_the_runners_scratch_reaches_a_record(toy):
    """Each folder a run is given (its work folder, its temporary folder, the compilers' caches, the run's own
    folder and whatever else it holds), printed and saved as an artifact, is a token in the record."""
    toy.add(
        "page/where",
        """
        import os, pathlib, tempfile
        places = [os.getcwd(), tempfile.gettempdir(), os.environ["TORCHINDUCTOR_CACHE_DIR"],
                  os.environ["TRITON_CACHE_DIR"], str(pathlib.Path.cwd().parent), str(pathlib.Path.cwd().parent / "x")]
        print(*places, sep="\\n")
        pathlib.Path("where.txt").write_text("\\n".join(places))
        """,
        extra='artifacts = ["where.txt"]',
    )
    [record] = toy.run()[0].executed
    printed = record.stdout.splitlines()
    assert printed == record.artifacts["where.txt"].splitlines()
    assert printed == ["<run-dir>", "/tmp", "<inductor-cache>", "<run>/triton-cache", "<run>", "<run>/x"], printed


def test_no_committed_record_holds_a_folder_of_the_runners_scratch():
    found = {
        str(path.relative_to(REPO)): SCRATCH_NAME.findall(path.read_text(encoding="utf-8"))
        for path in sorted((REPO / "records").rglob("*.json"))
    }
    assert {path: names for path, names in found.items() if names} == {}


# -- the host's CUDA toolkit stays out of the output ------------------------------------------------------------------


@pytest.mark.parametrize("warm", [False, True], ids=["fresh", "warm"])
def test_a_cuda_toolkit_on_the_host_leaves_no_line_in_the_output_and_torch_keeps_its_other_lines(toy, warm):
    """torch's CUDA build logs the toolkit it finds (CUDA_HOME, nvcc, /usr/local/cuda) when no GPU is present: one
    machine has one, CI has none, and a record must read the same on both. Only that message goes."""
    toy.add(
        "page/toolkit",
        """
        import logging
        import torch.utils.cpp_extension as extension
        logger = logging.getLogger("torch.utils.cpp_extension")
        print("toolkit found:", extension._find_cuda_home() is not None)
        logger.warning("No CUDA runtime is found, using CUDA_HOME='%s'", "/elsewhere")
        logger.warning("another line torch logs")
        logging.getLogger("torch.other").warning("No CUDA runtime is found (another logger)")
        """,
        extra='env = { CUDA_HOME = "/opt/some-toolkit" }',
    )
    [record] = toy.run(warm=warm)[0].executed
    assert record.status == "ok" and record.stdout == "toolkit found: True\n", record.stderr
    assert "CUDA_HOME" not in record.stderr and "/opt/some-toolkit" not in record.stderr
    assert "another line torch logs" in record.stderr and "(another logger)" in record.stderr


def test_no_committed_record_names_a_site_packages_folder_of_some_machine():
    """A path into an environment is written as <site-packages>: one reached through a link (a worktree's .venv
    that links to another) is a machine's path all the same, and no other machine prints it."""
    leaks = [
        path.relative_to(REPO).as_posix()
        for path in sorted((REPO / "records").glob("*/*.json"))
        if re.search(r"/[^\s'\"<>]*site-packages/", path.read_text(encoding="utf-8"))
    ]
    assert leaks == []
