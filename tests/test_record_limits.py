"""One check for a record, when it is written and when it is read: a run never reports ``ok`` for a record
the next ``report`` would call corrupt, and nothing the reader refuses reaches the disk.

Each limit is tried from the writer's side, the way a snippet would cross it: too many files, a stream
past its cap, a record built by hand past the reader's shape.
"""

from __future__ import annotations

import dataclasses

import pytest
from phase25.core import limits, records
from phase25.run import make_record


def test_a_snippet_that_writes_more_files_than_a_record_keeps_fails_and_its_record_still_loads(toy):
    toy.add(
        "page/many",
        f"""
        import os
        os.makedirs("out")
        for i in range({limits.MAX_FILES + 1}):
            open(f"out/{{i:04}}.txt", "w").write("x")
        print("wrote them")
        """,
        extra='artifacts = ["out/*.txt"]',
    )
    [record] = toy.run()[0].executed
    assert record.status == "failed" and f"more than {limits.MAX_FILES} files" in (record.error or "")
    assert len(record.artifacts) <= limits.MAX_FILES
    assert records.load(toy.layout, "page/many", "cpu") == record, "what the runner reported is what loads"


def test_save_refuses_what_the_reader_would_refuse_and_leaves_the_old_record(toy):
    toy.add("page/a", "print('fine')\n")
    [good] = toy.run()[0].executed
    path = records.record_path(toy.layout, "page/a", "cpu")
    before = path.read_bytes()
    too_long = dataclasses.replace(good, stdout="x" * (limits.STREAM_MAX + 1))
    assert records.problem(too_long) is not None
    with pytest.raises(records.RecordError, match="page/a"):
        records.save(toy.layout, too_long)
    too_many = dataclasses.replace(good, artifacts={f"f{i}.txt": "x" for i in range(limits.MAX_FILES + 1)})
    with pytest.raises(records.RecordError):
        records.save(toy.layout, too_many)
    assert path.read_bytes() == before, "a refused record leaves the old one whole"


@pytest.mark.parametrize(
    "change",
    [
        {"stdout": "x" * (limits.STREAM_MAX + 1)},
        {"artifacts": {f"f{i}.txt": "x" for i in range(limits.MAX_FILES + 1)}},
        {"warnings": [{"category": "UserWarning", "message": "m", "module": "x"}] * (limits.MAX_WARNINGS + 1)},
        {"error": "e" * (limits.MAX_TEXT + 1), "status": "failed"},
    ],
    ids=["stream", "files", "warnings", "error"],
)
def test_a_run_whose_record_would_not_load_is_saved_as_a_failed_run_that_says_why(toy, change):
    toy.add("page/a", "print('fine')\n")
    [good] = toy.run()[0].executed
    made = make_record.refused_as_failed(dataclasses.replace(good, **change))
    assert made.status == "failed" and (made.error or "").startswith("the record would not load: ")
    assert records.problem(made) is None
    records.save(toy.layout, made)
    assert records.load(toy.layout, "page/a", "cpu") == made
    assert make_record.refused_as_failed(good) is good, "a record the reader accepts is saved as it is"
