"""Shared fixtures: toy projects for the runner, and the real site built once.

Toy projects hold snippets that need only the standard library (or a bare
``import torch``), so the runner's behaviour (caching, staleness, timeouts,
errors, interrupts) is tested in well under a second per case; the real torch
snippets are re-executed in test_records.py and test_records_theory_03.py.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from browsing import CHROMIUM, ELSEWHERE, FLAGS, serving, site_prefix
from page_visits import every_page, visit_all
from phase25.core.catalog import Catalog
from phase25.core.paths import DEFAULT_LAYOUT, REPO_ROOT, Layout
from phase25.run import plan, pool, progress
from reexecute import cpu_seconds

REPO = REPO_ROOT

# A process of a test's snippet shows it is alive by holding a lock: it locks a file of its own in a folder and
# keeps it until it dies (the kernel releases it then). A test asks which are still held: no PID is needed, and
# a run's PID namespace has PIDs the test cannot see. The file gets its name once locked: no race.
TAKE_LOCK = (
    "import fcntl as _f, os as _o, uuid as _u; _held = open(_o.path.join({folder!r}, _u.uuid4().hex + '.part'), 'w'); "
    "_f.flock(_held, _f.LOCK_EX); _o.rename(_held.name, _held.name[:-5])"
)
# The same in a child process started with the folder as its argument, which then sleeps.
LOCK_THEN_SLEEP = TAKE_LOCK.replace("{folder!r}", "__import__('sys').argv[1]") + "; __import__('time').sleep(300)"


def lock_folder(tmp_path: Path) -> tuple[Path, str]:
    """A folder for the locks of a test's processes, and the line that takes one there."""
    folder = tmp_path / "locks"
    folder.mkdir()
    return folder, TAKE_LOCK.format(folder=str(folder))


def locks_taken(folder: Path) -> int:
    return sum(1 for path in folder.iterdir() if not path.name.endswith(".part")) if folder.exists() else 0


def locks_held(folder: Path) -> int:
    """How many of the lock files in ``folder`` a live process still holds."""
    import fcntl

    held = 0
    for path in folder.iterdir() if folder.exists() else ():
        if path.name.endswith(".part"):
            continue
        with path.open("a") as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                held += 1
    return held


class ToyProject:
    """A throwaway repository with a ``snippets/`` and a ``records/`` folder."""

    def __init__(self, root: Path) -> None:
        self.root = root
        (root / "snippets").mkdir(parents=True)
        self.layout = Layout.of(root)

    def add(self, snippet_id: str, body: str, *, devices: str = '["cpu"]', extra: str = "") -> Path:
        path = self.root / "snippets" / f"{snippet_id}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        head = f"# /// snippet\n# devices = {devices}\n" + "".join(f"# {line}\n" for line in extra.splitlines() if line)
        path.write_text(head + "# ///\n" + textwrap.dedent(body), encoding="utf-8")
        return path

    def catalog(self, records: Path | None = None) -> Catalog:
        layout = Layout(self.root, self.layout.snippets, records) if records else self.layout
        return Catalog(layout)

    def run(
        self,
        *,
        workers: int = 1,
        force: bool = False,
        devices=("cpu",),
        records: Path | None = None,
        warm: bool = False,
        stream: io.StringIO | None = None,
    ):
        catalog = self.catalog(records)
        todo, current = plan.jobs(catalog, devices, force=force)
        reporter = progress.Progress(len(todo), stream or io.StringIO())
        return pool.run(catalog, todo, workers=workers, progress=reporter, warm=warm), current


@pytest.fixture
def toy(tmp_path: Path) -> ToyProject:
    return ToyProject(tmp_path / "project")


PREVIEW = "/pytorch-under-the-hood/"  # the path the site is published under, kept by the local preview


@pytest.fixture(scope="session")
def preview_port() -> int:
    """A free local port: the browser tests serve the site there, and it is built for that address."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="session")
def built_site(tmp_path_factory, preview_port) -> Path:
    """The real site, built once with --strict for the build and browser tests, published at a local address."""
    from phase25.tools.build_site import build

    site = tmp_path_factory.mktemp("site") / "site"
    result = build(REPO, site, site_url=f"http://127.0.0.1:{preview_port}{PREVIEW}")
    assert result.returncode == 0, result.stderr[-4000:]
    return site


class BackgroundRuns:
    """The CPU snippets re-executed by ``tests/reexecute.py`` while the rest of the session runs.

    Started once collection shows a test that needs it; a session that stops early stops it (SIGINT,
    then SIGKILL to its process group) and removes its scratch folder."""

    def __init__(self, runs: list[str]) -> None:
        self.started = time.time()
        self.scratch = Path(tempfile.mkdtemp(prefix="phase25-reexecuted-"))
        self.log = (self.scratch / "log.txt").open("w")
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO / "scripts"), os.environ.get("PYTHONPATH", "")])}
        self.process = subprocess.Popen(
            [sys.executable, str(Path(__file__).parent / "reexecute.py"), str(self.scratch), str(os.getpid()), *runs],
            cwd=REPO,
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def wait(self, timeout: float = 1800) -> Layout:
        """The scratch layout holding the re-executed records, once every run has ended."""
        waiting = time.time()
        code = self.process.wait(timeout=timeout)
        log = (self.scratch / "log.txt").read_text()
        if not BACKGROUND_FIGURES:  # the first test to ask is the one that waited, if any did
            done = (self.scratch / "log.txt").stat().st_mtime - self.started
            BACKGROUND_FIGURES.extend(background_figures(log, done, time.time() - waiting))
        assert code == 0, f"re-executing the snippets ended with status {code}:\n{log[-4000:]}"
        return Layout(REPO, DEFAULT_LAYOUT.snippets, self.scratch / "records")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self.log.close()
        shutil.rmtree(self.scratch, ignore_errors=True)


_BACKGROUND: list[BackgroundRuns] = []
BACKGROUND_FIGURES: list[str] = []
FINISHED_RUN = re.compile(r"^\[\d+/\d+\] \S+ +(\S+ \(\w+\))  ([\d.]+)s$", re.MULTILINE)


def background_figures(log: str, done: float, waited: float) -> list[str]:
    """The re-execution's wall time (to its log's last line), how long the first test that needed it waited
    (whether the background or the foreground was the longer road), its CPU time and its five longest runs."""
    runs = sorted(((float(s), key) for key, s in FINISHED_RUN.findall(log)), reverse=True)
    cpu = re.search(r"^cpu-seconds (\d+)$", log, re.MULTILINE)
    lines = [
        f"re-executed {len(runs)} runs in the background: done {done:.0f} s after collection "
        f"(the first test that needed it waited {waited:.0f} s), {sum(s for s, _ in runs):.0f} s of runs in all, "
        f"{cpu.group(1) if cpu else '?'} CPU-seconds; the longest:"
    ]
    return lines + [f"  {s:7.1f} s  {key}" for s, key in runs[:5]]


class EarlyWork:
    """Slow work a fixture needs (processes of its own), started at collection so that it runs beside the first
    tests instead of in front of the test that needs it: the foreground of a session is one process, and its
    longest waits were for such work. Registered by a test module under the name of the fixture that uses it;
    its processes run niced in sessions of their own, and whatever still runs when the session ends (however it
    ends) is killed with its group, its scratch folder removed."""

    def __init__(self) -> None:
        self.scratch = Path(tempfile.mkdtemp(prefix="phase25-early-"))
        self.started: dict[str, tuple[Path, dict[str, subprocess.Popen]]] = {}

    def start(self, name: str) -> tuple[Path, dict[str, subprocess.Popen]]:
        if name not in self.started:
            folder = self.scratch / name
            folder.mkdir()
            self.started[name] = (folder, EARLY[name](folder))
        return self.started[name]

    def stop(self) -> None:
        for _, processes in self.started.values():
            for process in processes.values():
                if process.poll() is None:
                    with contextlib.suppress(ProcessLookupError):
                        os.killpg(process.pid, signal.SIGKILL)
                    process.wait()
        shutil.rmtree(self.scratch, ignore_errors=True)


EARLY: dict[str, Callable[[Path], dict[str, subprocess.Popen]]] = {}  # fixture name -> what starts its work
_EARLY: list[EarlyWork] = []


NICE = ("nice", "-n", "10")  # early work runs beside the first tests, like the background re-execution


def start_niced(command: list[str], **popen) -> subprocess.Popen:
    """Early work's process: niced, its output captured as text, in a session of its own (core/bounded.py)."""
    from phase25.core import bounded

    return bounded.start([*NICE, *command], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **popen)


def early_result(name: str, label: str) -> tuple[Path, subprocess.CompletedProcess]:
    """The scratch folder of the early work ``name``, started as one process, and that process once ended."""
    from phase25.core import bounded

    scratch, processes = early(name)
    [process] = processes.values()
    [(out, err)] = bounded.wait_all([process], 900, label)
    return scratch, subprocess.CompletedProcess(process.args, process.returncode, out, err)


def early(name: str) -> tuple[Path, dict[str, subprocess.Popen]]:
    """The scratch folder and the processes of the early work ``name`` (started now if collection did not)."""
    if not _EARLY:
        _EARLY.append(EarlyWork())
    return _EARLY[0].start(name)


def pytest_collection_finish(session: pytest.Session) -> None:
    if session.config.option.collectonly:  # a listing of the tests starts none of their work
        return
    runs = reexecuted_runs(session.items)
    if runs:
        _BACKGROUND.append(BackgroundRuns(runs))
    wanted = {name for item in session.items for name in getattr(item, "fixturenames", ())}
    for name in EARLY:
        if name in wanted:
            early(name)


def pytest_sessionfinish(session: pytest.Session) -> None:
    while _BACKGROUND:
        _BACKGROUND.pop().stop()
    while _EARLY:
        _EARLY.pop().stop()


def reexecuted_runs(items: list[pytest.Item]) -> list[str]:
    """The runs ("snippet:device") that the collected tests compare with their re-execution: only those run, so that
    a family holding some chapters' records (tests/families.py) re-executes those chapters only."""
    runs = {
        f"{item.callspec.params['snippet_id']}:{item.callspec.params['device']}"
        for item in items
        if "reexecuted" in getattr(item, "fixturenames", ())
    }
    return sorted(runs)


@pytest.fixture(scope="session")
def background_runs() -> BackgroundRuns:
    assert _BACKGROUND, "the snippets' re-execution starts at collection, for tests that use `reexecuted`"
    return _BACKGROUND[0]


@pytest.fixture(scope="session")
def reexecuted(background_runs) -> Layout:
    """The scratch records of every run the session's tests compare, re-executed in the background since collection."""
    return background_runs.wait()


FIGURES = pytest.StashKey[list]()


@pytest.fixture(scope="session")
def figures(pytestconfig) -> list[str]:
    """Lines a test reports as figures to read (page weights): printed at the end of the session."""
    return pytestconfig.stash.setdefault(FIGURES, [])


def pytest_terminal_summary(terminalreporter, config: pytest.Config) -> None:
    lines = config.stash.get(FIGURES, []) + BACKGROUND_FIGURES
    if BACKGROUND_FIGURES:
        lines.append(
            f"this session and the processes it reaped, the background's included: {cpu_seconds():.0f} "
            "CPU-seconds (processes not reaped through it, such as the browser's renderers, are not counted)"
        )
    if lines:
        terminalreporter.section("figures")
        for line in lines:
            terminalreporter.write_line(line)


# The browser tests' fixtures, shared by every module that drives the browser (tests/browsing.py serves the site).
@pytest.fixture(scope="session")
def served(built_site: Path, preview_port: int):
    """The site served under the path it is published at (its site_url), on the port it was built for: for the
    whole session, since ``visits`` serves every module from one visit of each page."""
    prefix = site_prefix(built_site)
    with serving(built_site, prefix, preview_port) as base:
        yield base, prefix


@pytest.fixture(scope="session")
def visits(served, built_site: Path) -> dict[str, dict]:
    """Each page of both languages, and the 404, loaded once in a fresh tab (tests/page_visits.py), for every
    test module that reads a per-page measurement."""
    base, _ = served
    paths = [*every_page(built_site), "no/such/page/"]
    # axe's time grows with the elements it checks, mostly highlighted tokens: the longest runs go first.
    elements = {
        p: (built_site / p / "index.html").read_text().count("<span") if (built_site / p).is_dir() else 0 for p in paths
    }
    found = visit_all(base, sorted(paths, key=elements.get, reverse=True))
    return {path: found[path] for path in sorted(found)}


@pytest.fixture(scope="module")
def served_elsewhere(built_site: Path):
    """The same build served under another path, as a preview, a fork or a copy of the site is: nothing may
    depend on the path in its site_url."""
    with serving(built_site, ELSEWHERE) as base:
        yield base, ELSEWHERE


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    assert shutil.which(CHROMIUM) or Path(CHROMIUM).exists(), "install Debian's chromium (make browser)"
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser):
    """A tab of its own: Material keeps the chosen device tab in local storage, which would leak between tests."""
    context = browser.new_context()
    yield context.new_page()
    context.close()
