"""Re-execute every CPU and emulated run into a scratch records folder: started by conftest.py in the background
of the test session, at low priority, so the snippets run while the other tests do and the records
tests find them done.

Each snippet runs in the other mode than the one that made its committed record (a fresh interpreter
or a fork of a warm one), so the records tests also check that the two modes print the same bytes.
Usage: ``python tests/reexecute.py SCRATCH SESSION_PID [SNIPPET:DEVICE...]`` (the runs to make, every run made here
if none is named; records land in ``SCRATCH/records``; exit 0 once all ran). Orphaned, it stops its runs and
removes ``SCRATCH``: the session cannot any more.
"""

from __future__ import annotations

import os
import resource
import shutil
import signal
import sys
from pathlib import Path

from phase25.core.catalog import Catalog
from phase25.core.devices import LOCAL
from phase25.core.errors import Interrupted
from phase25.core.paths import DEFAULT_LAYOUT, Layout
from phase25.run import plan, pool, progress

# The other tests run in the foreground: ours may wait for a core, so its time limits are stretched
# (the outputs compared are the same; the committed records keep the real limits).
TIMEOUT_FACTOR = 3.0


def made_warm(catalog: Catalog, snippet_id: str, device: str) -> bool:
    record = catalog.standing(snippet_id, device).record
    return bool(record and record.run.get("mode") == "warm")


def end_with_the_session(session: int) -> None:
    """SIGTERM when the test session's process ends, however it ends (even SIGKILL): the runs stop then."""
    import ctypes

    pr_set_pdeathsig = 1
    ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGTERM)
    if os.getppid() != session:  # it ended before the line above
        raise KeyboardInterrupt


def main(scratch: Path, session: int, runs: set[tuple[str, str]] | None = None) -> int:
    for signum in (signal.SIGINT, signal.SIGTERM):  # the session stopping stops the runs, nothing left behind
        signal.signal(signum, signal.default_int_handler)
    end_with_the_session(session)
    os.nice(10)
    committed = Catalog.here(DEFAULT_LAYOUT)
    target = Catalog(Layout(DEFAULT_LAYOUT.root, DEFAULT_LAYOUT.snippets, scratch / "records"), committed.torch)
    todo, _ = plan.jobs(target, list(LOCAL), force=True)
    runs = {(job.snippet.id, job.device) for job in todo} if runs is None else runs
    todo = [job for job in todo if (job.snippet.id, job.device) in runs]
    unknown = runs - {(job.snippet.id, job.device) for job in todo}
    if unknown:  # a test asked for a run that this machine does not make: say so rather than wait for nothing
        print(f"no such run made here: {sorted(unknown)}")
        return 2
    for warm in (True, False):
        jobs = [job for job in todo if made_warm(committed, job.snippet.id, job.device) != warm]
        if jobs:
            pool.run(
                target,
                jobs,
                workers=os.cpu_count() or 1,
                warm=warm,
                estimates=committed,
                progress=progress.Progress(len(jobs), sys.stdout),  # the session's log: its figures read it
                timeout_factor=TIMEOUT_FACTOR,
            )
    print(f"cpu-seconds {cpu_seconds():.0f}")
    return 0


def cpu_seconds() -> float:
    """User and system time of this process and of every descendant it reaped (a run's is, by its supervisor)."""
    return sum(
        usage.ru_utime + usage.ru_stime
        for usage in (resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN))
    )


if __name__ == "__main__":
    scratch, session = Path(sys.argv[1]), int(sys.argv[2])
    asked = [run.rsplit(":", 1) for run in sys.argv[3:]]
    try:
        sys.exit(main(scratch, session, {(snippet, device) for snippet, device in asked} if asked else None))
    except (KeyboardInterrupt, Interrupted):
        if os.getppid() != session:
            shutil.rmtree(scratch, ignore_errors=True)
        sys.exit(130)
