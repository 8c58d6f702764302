"""A multi-rank run that loses a rank ends at once (SECURITY.md, principle 6).

The launcher watches its ranks while it relays their output: the first rank that ends with a non-zero status
(killed by a signal, exiting with a status, raising) ends the run, the others are stopped at once instead of
waiting in a collective until the run's timeout, and the record says which rank it was and how it ended.
"""

from __future__ import annotations

import time

import pytest

pytestmark = pytest.mark.slow  # ranks in subprocesses: `make test` runs these, `make check` does not

BLOCKED_IN_A_COLLECTIVE = """
import os, signal, torch.distributed as dist
dist.init_process_group("gloo")
if dist.get_rank() == 1:
    {end}
dist.barrier()
print("never")
"""
BUSY_ELSEWHERE = """
import os, signal, time
if os.environ["RANK"] == "1":
    time.sleep(0.5)
    {end}
time.sleep(300)  # rank 0 waits on nothing the lost rank could break
"""
BEFORE_THE_RENDEZVOUS = """
import os, signal, torch.distributed as dist
if os.environ["RANK"] == "1":
    {end}
dist.init_process_group("gloo")  # rank 0 waits here for a rank that will never come
print("never")
"""
ENDS = {
    "sigkill": ("os.kill(os.getpid(), signal.SIGKILL)", "killed by signal SIGKILL"),
    "sigsegv": ("os.kill(os.getpid(), signal.SIGSEGV)", "killed by signal SIGSEGV"),
    "status-3": ("os._exit(3)", "exited with status 3"),
    "raises": ("raise RuntimeError('rank 1 gave up')", "raised RuntimeError: rank 1 gave up"),
}


# Every way of ending and every place of waiting, each at least once (not every pair: each case starts two
# interpreters that import torch).
CASES = {
    "sigkill-in-a-collective": (BLOCKED_IN_A_COLLECTIVE, "sigkill"),
    "raises-in-a-collective": (BLOCKED_IN_A_COLLECTIVE, "raises"),
    "sigsegv-busy-elsewhere": (BUSY_ELSEWHERE, "sigsegv"),
    "sigkill-busy-elsewhere": (BUSY_ELSEWHERE, "sigkill"),
    "status-3-before-the-rendezvous": (BEFORE_THE_RENDEZVOUS, "status-3"),
}


@pytest.mark.parametrize(("where", "how"), list(CASES.values()), ids=list(CASES))
def test_a_lost_rank_ends_the_run_at_once_and_the_record_says_which_and_how(toy, where, how):
    end, said = ENDS[how]
    toy.add("page/lost", where.format(end=end), extra="ranks = 2\ntimeout = 120")
    started = time.monotonic()
    [record] = toy.run()[0].executed
    took = time.monotonic() - started
    assert record.status == "failed"
    assert record.error.startswith(f"rank 1 {said}"), record.error
    assert took < 30, f"the run waited {took:.0f} s for the ranks the lost one left behind"


def test_a_rank_that_ends_early_with_success_stops_nobody(toy):
    toy.add(
        "page/early",
        """
        import os, time
        if os.environ["RANK"] == "0":
            time.sleep(1)
        print("rank", os.environ["RANK"], "done")
    """,
        extra="ranks = 2",
    )
    [record] = toy.run()[0].executed
    assert record.status == "ok", record.error
    assert [r["stdout"] for r in record.ranks] == ["rank 0 done\n", "rank 1 done\n"]
