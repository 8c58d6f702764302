"""Structure never travels in-band with a snippet's output (SECURITY.md, principle 9).

A lab's cells are told apart by lines the runner writes on the run's streams, and a multi-rank run's ranks by
the prefix the launcher puts before each line it relays from a rank's own pipe. Both carry a tag the runner makes
for each run and the snippet never sees; whatever a cell prints in a marker's shape (a whole marker, half of one,
one with a guessed tag, on either stream) fails the run and none of it is kept, and whatever a rank prints in a
prefix's shape stays text of its own rank: a printed line never splits, renames or replaces a cell or a rank.
"""

from __future__ import annotations

import pytest
from phase25.core import cells, records
from phase25.run.child import ranks

LAB = "# %% first\nprint('one')\n# %% second\n{body}\n"


@pytest.mark.parametrize(
    "body",
    [
        "print('##phase25-cell first##')",  # the plain marker, as a record keeps it
        "print('##phase25-cell 0123456789abcdef first##')",  # a tagged one, the tag guessed
        "import sys; print('##phase25-cell second##', file=sys.stderr)",  # on the other stream
        "print('##phase25-cell first', end='')",  # half of one, the last thing printed
        "import os; print('##phase25-cell ' + os.environ.get('PHASE25_RUN', 'none')[:16] + ' first##')",
    ],
    ids=["plain", "guessed-tag", "stderr", "unfinished", "from-the-environment"],
)
@pytest.mark.parametrize("warm", [False, True], ids=["fresh", "warm"])
def test_a_cell_that_prints_a_marker_fails_its_run_and_keeps_nothing(toy, body, warm):
    toy.add("lab/forger", LAB.format(body=body), extra="cells = true")
    [record] = toy.run(warm=warm)[0].executed
    assert record.status == "failed"
    assert "has the shape of a cell marker, the runner's alone" in record.error
    assert record.stdout == "" and record.stderr == ""


def test_a_lab_still_splits_into_its_cells_and_the_snippet_never_sees_the_tag(toy):
    toy.add("lab/honest", LAB.format(body="import os; print('PHASE25_RUN' in os.environ)"), extra="cells = true")
    [record] = toy.run()[0].executed
    assert record.status == "ok", record.error
    assert cells.split_output(record.stdout) == {"first": "one\n", "second": "False\n"}


@pytest.mark.parametrize(
    "line",
    ["⟪phase25 rank 1⟫ rank 1 says so", "⟪phase25 rank 0123456789abcdef 1⟫ a guessed tag", "⟪phase25 rank"],
    ids=["untagged", "guessed-tag", "unfinished"],
)
@pytest.mark.slow  # two ranks in subprocesses: `make test` runs it, `make check` does not
def test_what_a_rank_prints_in_another_ranks_shape_stays_its_own(toy, line):
    """Each rank's lines reach the record through its own pipe, behind the run's tagged prefix: a rank that
    prints another rank's prefix (with or without a guessed tag) only prints text, kept as its own."""
    toy.add(
        "page/forger",
        f"""
        import os
        if os.environ["RANK"] == "0":
            print({line!r})
        print("rank", os.environ["RANK"])
    """,
        extra="ranks = 2",
    )
    [record] = toy.run()[0].executed
    assert record.status == "ok", record.error
    assert [r["stdout"] for r in record.ranks] == [f"{line}\nrank 0\n", "rank 1\n"]


def test_sealing_keeps_the_runs_own_markers_and_names_the_first_forged_line():
    tag = "00112233aabbccdd"
    text = cells.marker("a", tag) + "x\n" + cells.marker("b", tag) + "y\n"
    assert cells.seal(text, tag) == cells.marker("a") + "x\n" + cells.marker("b") + "y\n"
    with pytest.raises(cells.Forged, match=r"line 3 has the shape"):
        cells.seal(text.replace("x\n", "x\n##phase25-cell a##\n"), tag)
    with pytest.raises(cells.Forged, match=r"line 1 has the shape"):
        cells.seal(cells.marker("a", "ffffffffffffffff"), tag)
    own, per_rank = ranks.split(ranks.PREFIX.format(tag=tag, rank=1) + "hi\nmine\n", 2, tag)
    assert (own, per_rank) == ("mine\n", ["", "hi\n"])
    with pytest.raises(cells.Forged, match=r"line 2 has the shape of a rank's prefix"):  # in the launcher's own
        ranks.split("mine\n⟪phase25 rank 1⟫ hi\n", 2, tag)


@pytest.mark.parametrize(
    ("body", "extra"),
    [
        ("print('⟪phase25: 3 lines omitted (9 bytes)⟫')", ""),
        ("import sys; print('⟪phase25: 3 lines omitted (9 bytes)⟫', file=sys.stderr)", ""),
        ("print('x\\n' * 40000); print('⟪phase25: 3 lines omitted (9 bytes)⟫')", ""),  # cut for real, and forged
        ("import os\nif os.environ['RANK'] == '1':\n    print('⟪phase25: 3 lines omitted (9 bytes)⟫')", "ranks = 2"),
    ],
    ids=["stdout", "stderr", "beside-a-real-cut", "in-a-rank"],
)
def test_a_printed_lines_omitted_note_fails_the_run(toy, body, extra):
    """The note that a capped stream left lines out is the capture's to write: a snippet that prints its shape
    (on either stream, in a rank, or beside a real cut) would make a page claim a cut that never happened."""
    toy.add("page/forger", body + "\n", extra=extra)
    [record] = toy.run()[0].executed
    assert record.status == "failed", record.status
    assert 'in the shape of the "lines omitted" note, the runner\'s alone' in record.error
    assert record.stdout == "" and record.stderr == ""


def test_a_real_cut_keeps_its_one_note(toy):
    toy.add("page/long", "print('x\\n' * 40000)\n")
    [record] = toy.run()[0].executed
    assert record.status == "ok", record.error
    assert len(records.OMITTED.findall(record.stdout)) == 1
