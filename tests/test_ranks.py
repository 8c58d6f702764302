"""Multi-rank snippets as a kind: ``ranks = 2`` in the header, every rank started and supervised by the runner."""

from __future__ import annotations

import json
import shutil
import time

import pytest
from conftest import ToyProject, lock_folder, locks_held, locks_taken
from phase25.core import records
from phase25.core.catalog import Catalog
from phase25.core.errors import SourceError
from phase25.core.paths import Layout
from phase25.site.kinds.assemble import render_markdown
from phase25.site.page.context import Page
from phase25.site.page.highlight import Highlighter

RANKS = """
import os
import sys
import torch
import torch.distributed as dist

dist.init_process_group("gloo")  # RANK, WORLD_SIZE, MASTER_ADDR and MASTER_PORT come from the runner
rank = dist.get_rank()
total = torch.tensor([float(rank + 1)])
dist.all_reduce(total)
gathered = [None, None]
dist.all_gather_object(gathered, f"hello from {rank}")
print(f"rank {rank} of {dist.get_world_size()}: sum {total.item()}, gathered {gathered}")
print(f"threads {torch.get_num_threads()}, OMP_NUM_THREADS {os.environ['OMP_NUM_THREADS']}")
if rank == 1:
    print("only rank 1 writes here", file=sys.stderr)
dist.destroy_process_group()
"""


@pytest.fixture(scope="module")
def ranked(tmp_path_factory):
    """One run of the two-rank toy, shared by the tests that only read it (each run takes seconds)."""
    toy = ToyProject(tmp_path_factory.mktemp("ranked") / "project")
    toy.add("page/two", RANKS, extra="ranks = 2\ntimeout = 60")
    [record] = toy.run()[0].executed
    return toy, record


@pytest.mark.slow  # a real run of toy snippets in subprocesses: `make test` runs it, `make check` does not
def test_each_rank_prints_apart_and_its_collective_calls_are_counted(ranked):
    _, record = ranked
    assert record.status == "ok" and record.stdout == "" and record.stderr == ""
    assert [r["stdout"] for r in record.ranks] == [
        f"rank {i} of 2: sum 3.0, gathered ['hello from 0', 'hello from 1']\nthreads 1, OMP_NUM_THREADS 1\n"
        for i in (0, 1)
    ]
    assert [r["stderr"] for r in record.ranks] == ["", "only rank 1 writes here\n"]
    assert record.ranks[0]["collectives"] == {"all_gather_object": 1, "all_reduce": 1}


@pytest.mark.slow  # a real run of toy snippets in subprocesses: `make test` runs it, `make check` does not
def test_a_ranked_run_is_the_same_forked_or_fresh(ranked, tmp_path):
    toy, record = ranked
    warm = toy.run(force=True, warm=True, records=tmp_path / "warm")[0].executed[0]
    assert warm.output() == record.output()


@pytest.mark.slow  # a real run of toy snippets in subprocesses: `make test` runs it, `make check` does not
def test_point_to_point_ops_keep_working_under_the_count(toy):
    """P2POp names its direction by the function itself (dist.isend): counting must not break it, nor count twice.

    ``send`` runs ``isend`` inside torch, and ``batch_isend_irecv`` runs each op: only the outer call counts.
    """
    toy.add(
        "page/p2p",
        """
        import torch
        import torch.distributed as dist

        dist.init_process_group("gloo")
        rank = dist.get_rank()
        out, into = torch.tensor([float(rank)]), torch.zeros(1)
        ops = [dist.P2POp(dist.isend, out, 1 - rank), dist.P2POp(dist.irecv, into, 1 - rank)]
        for work in dist.batch_isend_irecv(ops):
            work.wait()
        dist.send(out, 1 - rank) if rank == 0 else dist.recv(into, 0)
        direct = dist.isend(out, 1) if rank == 0 else dist.irecv(into, 0)
        direct.wait()
        from torch.distributed import distributed_c10d
        same = distributed_c10d.isend is dist.isend and distributed_c10d.P2POp(distributed_c10d.irecv, into, 0)
        print(f"rank {rank} received {into.item()}")
        dist.destroy_process_group()
    """,
        extra="ranks = 2\ntimeout = 60",
    )
    [record] = toy.run()[0].executed
    assert record.status == "ok", record.error
    assert [r["stdout"] for r in record.ranks] == ["rank 0 received 1.0\n", "rank 1 received 0.0\n"]
    assert [r["collectives"] for r in record.ranks] == [
        {"batch_isend_irecv": 1, "isend": 1, "send": 1},
        {"batch_isend_irecv": 1, "irecv": 1, "recv": 1},
    ]


def test_the_page_shows_one_tab_per_rank_with_its_calls(ranked):
    toy, _ = ranked
    view = Page("es", "docs/es/page.md", Catalog.here(toy.layout), Highlighter())
    html, problems = render_markdown("::: snippet page/two\n", view)
    assert problems == [] and html.count('<label for="__ranks_1_cpu_') == 2 and "rank 1</label>" in html
    assert (
        "Llamadas que hizo este rank a las funciones colectivas y punto a punto de <code>torch.distributed</code>: "
        "all_gather_object × 1" in html
    )


def test_a_note_may_quote_what_a_rank_printed_or_its_calls_and_nothing_else(ranked):
    toy, _ = ranked
    view = Page("en", "docs/en/page.md", Catalog.here(toy.layout), Highlighter())
    shown = (
        "::: snippet page/two\n\n::: note page/two cpu\n"
        "    Rank 1 says `only rank 1 writes here` after `all_reduce × 1`.\n"
    )
    assert render_markdown(shown, view)[1] == []
    made_up = "::: snippet page/two\n\n::: note page/two cpu\n    Rank 1 says `hello from 2`.\n"
    [problem] = render_markdown(made_up, view)[1]
    assert "quotes `hello from 2`, which its output does not show" in problem.message


@pytest.mark.slow  # a real run of toy snippets in subprocesses: `make test` runs it, `make check` does not
def test_a_rank_that_hangs_is_killed_with_every_other_at_the_deadline(toy, tmp_path):
    locks, take_lock = lock_folder(tmp_path)
    toy.add(
        "page/stuck",
        f"""
        import os, time
        {take_lock}
        if os.environ["RANK"] == "1":
            time.sleep(300)
        print("rank 0 is done")
    """,
        # The deadline counts from the run's start, the ranks' start included: under a loaded machine (the
        # session's background re-execution on every core) two ranks took more than 8 s to reach this line.
        extra="ranks = 2\ntimeout = 20",
    )
    started = time.monotonic()
    [record] = toy.run()[0].executed
    assert record.status == "timeout" and time.monotonic() - started < 40
    time.sleep(0.2)
    found = locks_taken(locks)
    assert found == 2, f"{found} of 2 ranks started before the 20 s deadline: nothing was tested"
    assert locks_held(locks) == 0


@pytest.mark.slow  # a real run of toy snippets in subprocesses: `make test` runs it, `make check` does not
def test_a_rank_that_fails_fails_the_run_and_says_why(toy):
    # rank 1 fails once rank 0 has printed: a failing rank ends the others at once, so under load rank 0 could be
    # ended before its line, and the output this test reads would be a race
    toy.add(
        "page/broken",
        """
        import os, tempfile, time
        done = os.path.join(tempfile.gettempdir(), "rank-0-printed")  # the run's scratch, one for its ranks
        if os.environ["RANK"] == "1":
            deadline = time.monotonic() + 60
            while not os.path.exists(done) and time.monotonic() < deadline:
                time.sleep(0.05)
            raise RuntimeError("rank 1 gave up")
        print("rank 0 finished", flush=True)
        open(done, "w").close()
    """,
        extra="ranks = 2",
    )
    [record] = toy.run()[0].executed
    assert record.status == "failed" and record.error.startswith("rank 1 raised RuntimeError: rank 1 gave up")
    assert record.ranks[0]["stdout"] == "rank 0 finished\n" and "rank 1 gave up" in record.ranks[1]["stderr"]


@pytest.mark.parametrize("value", ["0", "9", "2.5", '"two"'])
def test_the_header_takes_one_to_eight_ranks(value):
    from phase25.core import header

    with pytest.raises(SourceError, match="ranks must be a whole number from 1 to 8"):
        header.parse(f"# /// snippet\n# ranks = {value}\n# ///\n", "snippets/page/a.py")


@pytest.mark.parametrize(
    "ranks",
    [
        [{"stdout": "", "stderr": "", "collectives": {}}],
        [{"stdout": "", "stderr": ""}] * 2,
        [{"stdout": "\x1b[31m", "stderr": "", "collectives": {}}] * 2,
        [{"stdout": "", "stderr": "", "collectives": {"all_reduce": -1}}] * 2,
    ],
)
def test_a_record_whose_ranks_are_malformed_is_corrupt(ranked, ranks, tmp_path):
    toy, _ = ranked
    shutil.copytree(toy.layout.records, tmp_path / "records")  # the shared run stays as it was
    layout = Layout.of(toy.layout.root, records=tmp_path / "records")
    path = records.record_path(layout, "page/two", "cpu")
    data = json.loads(path.read_text())
    data["output"]["ranks"] = ranks
    path.write_text(json.dumps(data))
    with pytest.raises(SourceError, match=r"field output\.ranks"):
        records.load(layout, "page/two", "cpu")
