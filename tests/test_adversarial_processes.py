"""Adversarial tests: every process the project starts outside the runner is bounded.

Threat: a snippet in a reproduction kit (or a tool's command) that never ends, or that starts
children and leaves them behind. Whatever starts it (the kit a reader runs, a tool, a test's
helper) must kill it with everything it started when its time is up, and say so in one line,
never with a traceback and a process still running.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from phase25.core import bounded
from phase25.core.errors import SourceError

CORE = Path(bounded.__file__).resolve().parent

# A process that starts a grandchild in a session of its own is out of reach of a group kill: these do not.
SPAWN_AND_HANG = """
import subprocess, sys, time
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
open(sys.argv[1], "w").write(str(child.pid))
time.sleep(120)
"""


def alive(pid: int) -> bool:
    """Whether ``pid`` is a process that has not ended (a zombie has ended)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, IndexError):
        return False
    return state != "Z"


def gone(pid: int, within: float = 5.0) -> bool:
    deadline = time.monotonic() + within
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not alive(pid)


def test_a_command_past_its_time_dies_with_its_children_and_is_one_line(tmp_path):
    pid_file = tmp_path / "child.pid"
    started = time.monotonic()
    with pytest.raises(bounded.Overtime) as caught:
        bounded.run([sys.executable, "-c", SPAWN_AND_HANG, str(pid_file)], timeout=2, capture_output=True)
    assert time.monotonic() - started < 30
    assert isinstance(caught.value, SourceError) and "\n" not in str(caught.value)
    assert "ran past its 2 s limit" in str(caught.value)
    assert gone(int(pid_file.read_text())), "the grandchild outlived its command's timeout"


def test_a_command_that_ends_leaves_no_children_behind(tmp_path):
    pid_file = tmp_path / "child.pid"
    body = "import subprocess, sys\nc = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(120)'])\n"
    body += "open(sys.argv[1], 'w').write(str(c.pid))\n"
    result = bounded.run([sys.executable, "-c", body, str(pid_file)], timeout=30)
    assert result.returncode == 0
    assert gone(int(pid_file.read_text())), "a child of an ended command kept running"


def test_no_tool_starts_a_process_without_the_bounded_helper():
    """Every place in the package that starts a process outside the runner goes through core/bounded.py."""
    package = CORE.parent
    offenders = []
    for path in sorted(package.rglob("*.py")):
        if path.relative_to(package).parts[0] == "run" or path.name == "bounded.py":
            continue  # the runner is bounded by its own supervisor and PID namespace
        text = path.read_text(encoding="utf-8")
        for word in ("subprocess.run(", "subprocess.Popen(", "subprocess.call(", "subprocess.check_", "os.system("):
            if word in text:
                offenders.append(f"{path.relative_to(package)}: {word}")
    assert not offenders


def _kit(toy, body: str, extra: str) -> Path:
    """A reader's kit for one toy snippet: its record made by the runner, then its source replaced by ``body``."""
    path = toy.add("page/a", "print('ready')\n", extra=extra)
    [record] = toy.run()[0].executed
    assert record.status == "ok", record.output()
    path.write_text(path.read_text().split("# ///\n")[0] + "# ///\n" + body, encoding="utf-8")
    for room in ("core", "kit"):
        target = toy.root / "scripts" / "phase25" / room
        shutil.copytree(CORE.parent / room, target, ignore=shutil.ignore_patterns("__pycache__"))
    (toy.root / "scripts" / "phase25" / "__init__.py").write_text("")
    return toy.root


def _reproduce(kit: Path, snippet_id: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "PHASE25_"))}
    env["PYTHONPATH"] = str(kit / "scripts")
    return bounded.run(
        [sys.executable, "-m", "phase25.kit.reproduce", snippet_id],
        cwd=kit,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_kit_snippet_past_its_timeout_is_killed_with_its_children_in_one_line(toy, tmp_path):
    pid_file = tmp_path / "grandchild.pid"
    body = SPAWN_AND_HANG.replace("sys.argv[1]", repr(str(pid_file)))
    kit = _kit(toy, body, "timeout = 3")
    result = _reproduce(kit, "page/a")
    assert result.returncode == 3, result.stdout + result.stderr
    assert "Traceback" not in result.stderr and result.stderr.strip().count("\n") == 0, result.stderr
    assert "page/a" in result.stderr and "ran past its 3 s limit" in result.stderr
    assert gone(int(pid_file.read_text())), "the snippet's child outlived the reproduce kit's timeout"


def test_a_kit_rank_run_takes_a_free_port_not_a_fixed_one(toy):
    body = (
        "import os, socket\n"
        "if os.environ['RANK'] == '0':\n"
        "    s = socket.socket(); s.bind(('127.0.0.1', int(os.environ['MASTER_PORT'])))\n"
        "print('ready')\n"
    )
    kit = _kit(toy, body, "timeout = 120\nranks = 2")  # two ranks start slowly on a busy machine
    with socket.socket() as squatter:  # another program (or another reader's kit) holds the old fixed port
        try:
            squatter.bind(("127.0.0.1", 29517))
        except OSError:
            pass  # already held by someone: the point stands
        result = _reproduce(kit, "page/a")
    assert result.returncode == 0, result.stdout + result.stderr
