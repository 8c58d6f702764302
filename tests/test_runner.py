"""The runner on toy snippets: caching, staleness, failures, limits, isolation, determinism."""

from __future__ import annotations

import io
import json
import os
import re
import time

import pytest
from conftest import LOCK_THEN_SLEEP, locks_held, locks_taken
from phase25 import cli
from phase25.core import atomic, compare, environment, records
from phase25.core import catalog as catalog_mod
from phase25.core.errors import SourceError
from phase25.core.records import OMITTED as MARKER
from phase25.run import plan
from phase25.run.travel.cuda_probe import cuda_available

PRINTS = """
    class Thing:
        pass
    import os
    print("object:", Thing())
    print("cwd:", os.getcwd())
"""


def test_miss_then_hit(toy):
    toy.add("page/a", "print('hello')\n")
    first, current = toy.run()
    assert [r.snippet for r in first.executed] == ["page/a"] and current == []
    assert first.executed[0].stdout == "hello\n" and first.executed[0].status == "ok"
    second, current = toy.run()
    assert second.executed == [] and [j.snippet.id for j in current] == ["page/a"]


def test_editing_a_snippet_reruns_only_that_one(toy):
    toy.add("page/a", "print('a')\n")
    toy.add("page/b", "print('b')\n")
    toy.run()
    toy.add("page/a", "print('a, edited')\n")
    outcome, current = toy.run()
    assert [r.snippet for r in outcome.executed] == ["page/a"]
    assert [j.snippet.id for j in current] == ["page/b"]


def test_dependency_and_environment_changes_make_a_record_stale(toy, monkeypatch):
    (toy.root / "data.txt").write_text("one")
    toy.add(
        "page/a", "print(open(__file__.rsplit('/snippets/', 1)[0] + '/data.txt').read())\n", extra='deps = ["data.txt"]'
    )
    assert toy.run()[0].executed[0].stdout == "one\n"
    assert toy.catalog().standing("page/a", "cpu").state == "current"
    (toy.root / "data.txt").write_text("two")
    assert toy.catalog().standing("page/a", "cpu").reason.startswith("the snippet (or a declared dependency)")
    assert toy.run()[0].executed[0].stdout == "two\n"
    monkeypatch.setitem(environment.CPU_ENV, "OMP_NUM_THREADS", "3")  # the runner's pins change
    standing = toy.catalog().standing("page/a", "cpu")  # same code, new environment: another run
    assert standing.state == "stale" and standing.reason == "the snippet's environment or the runner's pins changed"


def test_a_record_from_another_torch_is_stale_for_this_machine(toy):
    toy.add("page/a", "print(1)\n")
    record = toy.run()[0].executed[0]
    layout = toy.layout
    assert catalog_mod.Catalog(layout, torch="9.9.9").standing("page/a", "cpu").state == "current"  # never imported it
    record.provenance["torch"] = "2.13.0"
    records.save(layout, record)
    assert catalog_mod.Catalog(layout, torch="2.13.0").standing("page/a", "cpu").state == "current"
    assert catalog_mod.Catalog(layout, torch="9.9.9").standing("page/a", "cpu").reason == (
        "recorded with torch 2.13.0, this machine has 9.9.9"
    )


def test_failure_is_recorded_with_context(toy):
    toy.add("page/bad", "print('before')\nraise ValueError('boom')\n")
    stream = io.StringIO()
    outcome, _ = toy.run(stream=stream)
    record = outcome.executed[0]
    assert record.status == "failed" and record.error == "raised ValueError: boom"
    assert record.stdout == "before\n"
    assert 'File "snippets/page/bad.py", line 5, in <module>' in record.stderr
    assert "runpy" not in record.stderr and "phase25" not in record.stderr
    assert "FAILED  page/bad (cpu)" in stream.getvalue() and "ValueError: boom" in stream.getvalue()
    assert outcome.failures == [record]


def test_error_messages_are_normalized_too(toy):
    toy.add("page/where", "import os\nraise ValueError(f'nothing in {os.getcwd()} at {hex(id(os))}')\n")
    assert toy.run()[0].executed[0].error == "raised ValueError: nothing in <run-dir> at 0x<addr>"


def test_timeout_bounds_the_run_even_with_an_escaped_process_holding_stdout(toy, tmp_path):
    locks = tmp_path / "locks"
    locks.mkdir()
    toy.add(
        "page/hang",
        f"""
        import os, subprocess, sys, time
        LOCK_THEN_SLEEP = {LOCK_THEN_SLEEP!r}
        # A grandchild in a session of its own, holding the snippet's stdout open.
        child = subprocess.Popen([sys.executable, "-c", LOCK_THEN_SLEEP, {str(locks)!r}], start_new_session=True)
        while not [name for name in os.listdir({str(locks)!r}) if not name.endswith(".part")]:
            time.sleep(0.01)
        print("started", flush=True)
        time.sleep(300)
    """,
        extra="timeout = 2",
    )
    started = time.monotonic()
    record = toy.run()[0].executed[0]
    assert time.monotonic() - started < 15, "the timeout must bound the whole run, reading included"
    assert record.status == "timeout" and "killed after 2 s" in record.error and record.stdout == "started\n"
    assert locks_taken(locks) == 1 and locks_held(locks) == 0, "a process of the run survived its timeout"


def test_nothing_the_snippet_started_outlives_it(toy, tmp_path):
    locks = tmp_path / "locks"
    locks.mkdir()
    toy.add(
        "page/leaves",
        f"""
        import os, subprocess, sys, time
        LOCK_THEN_SLEEP = {LOCK_THEN_SLEEP!r}
        child = subprocess.Popen([sys.executable, "-c", LOCK_THEN_SLEEP, {str(locks)!r}], start_new_session=True)
        while not [name for name in os.listdir({str(locks)!r}) if not name.endswith(".part")]:
            time.sleep(0.01)
        print("done")
    """,
    )
    record = toy.run()[0].executed[0]
    assert record.status == "ok" and record.stdout == "done\n"
    time.sleep(0.2)
    assert locks_taken(locks) == 1 and locks_held(locks) == 0


@pytest.mark.parametrize(
    ("body", "status", "error"),
    [
        ("raise RuntimeError('mat1 and mat2 shapes cannot be multiplied (2x65)')\n", "ok", None),
        ("print('fine')\n", "failed", "but the snippet finished without raising"),
        ("raise RuntimeError('something else')\n", "failed", "its message does not contain"),
        (
            "raise TypeError('mat1 and mat2 shapes cannot be multiplied')\n",
            "failed",
            "expected RuntimeError, got TypeError",
        ),
    ],
)
def test_expected_error_is_asserted_not_allowed(toy, body, status, error):
    toy.add("page/err", body, extra='expect_error = { type = "RuntimeError", match = "shapes cannot be multiplied" }')
    record = toy.run()[0].executed[0]
    assert record.status == status
    if error is None:
        assert record.error is None and record.expected_error["type"] == "RuntimeError"
        assert record.stderr.rstrip().endswith("RuntimeError: mat1 and mat2 shapes cannot be multiplied (2x65)")
    else:
        assert error in record.error


def test_normalization_applies_to_real_runs(toy):
    toy.add("page/volatile", PRINTS)
    assert toy.run()[0].executed[0].stdout == "object: <__main__.Thing object at 0x<addr>>\ncwd: <run-dir>\n"


def test_artifacts_are_collected_and_a_missing_one_fails(toy):
    toy.add("page/art", "open('kernel.py', 'w').write('def k():\\n    pass\\n')\n", extra='artifacts = ["kernel.py"]')
    toy.add("page/none", "print(1)\n", extra='artifacts = ["missing.txt"]')
    by_id = {r.snippet: r for r in toy.run()[0].executed}
    assert by_id["page/art"].artifacts == {"kernel.py": "def k():\n    pass\n"}
    assert by_id["page/none"].status == "failed" and "'missing.txt' was not written" in by_id["page/none"].error


def test_output_is_capped_head_and_tail_with_a_count_of_what_was_left_out(toy):
    toy.add("page/loud", "for i in range(100_000):\n    print(f'line {i:06d}')\n")
    record = toy.run()[0].executed[0]
    assert record.status == "ok" and len(record.stdout.encode()) < 70_000
    assert record.stdout.startswith("line 000000\n") and record.stdout.endswith("line 099999\n")
    [omitted] = MARKER.finditer(record.stdout)
    kept = record.stdout.count("\n") - 1
    assert int(omitted.group("lines")) + kept == 100_000


@pytest.mark.slow  # a real run of toy snippets in subprocesses: `make test` runs it, `make check` does not
def test_one_and_two_workers_and_warm_and_fresh_write_identical_records(toy, tmp_path):
    for name in ("a", "b", "c", "d"):
        toy.add(f"page/{name}", "import torch, random\n" + PRINTS + f"print({name!r} * 3, torch.ones(2).sum())\n")
    outputs = {}
    for label, workers, warm in (("j1", 1, False), ("j2", 2, False), ("warm", 2, True)):
        outcome = toy.run(workers=workers, records=tmp_path / label, warm=warm)[0]
        outputs[label] = {r.snippet: r.output() for r in outcome.executed}
        assert {r.run["mode"] for r in outcome.executed} == {"warm" if warm else "fresh"}
    assert len(outputs["j1"]) == 4 and outputs["j1"] == outputs["j2"] == outputs["warm"]


@pytest.mark.slow  # a real run of toy snippets in subprocesses: `make test` runs it, `make check` does not
def test_an_environment_unsafe_to_fork_runs_fresh_and_says_why(toy):
    for name in ("a", "b"):  # OpenBLAS starts a thread at import when allowed two
        toy.add(f"page/{name}", "print('ok')\n", extra='env = { OPENBLAS_NUM_THREADS = "2" }')
    outcome = toy.run(warm=True)[0]
    assert {r.run["mode"] for r in outcome.executed} == {"fresh"}
    assert sorted(outcome.notes) == [
        f"page/{n} (cpu) runs in a fresh interpreter: a warm interpreter of its "
        "environment is unsafe to fork (2 threads after its imports)"
        for n in "ab"
    ]


def test_records_are_written_atomically(tmp_path, monkeypatch):
    target = tmp_path / "records" / "page" / "a.cpu.json"
    atomic.write_atomic(target, '{"old": true}\n')

    def crash(fd):
        raise OSError("disk full")

    monkeypatch.setattr(os, "fsync", crash)
    with pytest.raises(SourceError, match="cannot be written: disk full"):
        atomic.write_atomic(target, '{"new": true, "half": ')
    assert target.read_text() == '{"old": true}\n'
    assert [p.name for p in target.parent.iterdir()] == ["a.cpu.json"]


def test_a_corrupt_record_is_named_and_replaced_out_loud(toy):
    toy.add("page/a", "print(1)\n")
    toy.run()
    path = records.record_path(toy.layout, "page/a", "cpu")
    path.write_text('{"schema": 2, "snippet": "page/a"')
    standing = toy.catalog().standing("page/a", "cpu")
    assert standing.state == "corrupt" and standing.reason.startswith("records/page/a.cpu.json: not valid JSON")
    stream = io.StringIO()
    outcome, _ = toy.run(stream=stream)
    assert [r.snippet for r in outcome.executed] == ["page/a"]
    assert "replacing the corrupt record of page/a (cpu): records/page/a.cpu.json: not valid JSON" in stream.getvalue()


@pytest.mark.slow  # a real run of toy snippets in subprocesses: `make test` runs it, `make check` does not
def test_shards_partition_the_work_and_balance_the_recorded_wall_times(toy):
    for i in range(12):
        toy.add(f"page/s{i:02d}", "print(1)\n", devices='["cpu", "cuda"]')
    toy.run()
    for i, record in enumerate(sorted(toy.run(force=True)[0].executed, key=lambda r: r.snippet)):
        record.run["wall_s"] = float(i + 1)  # 1 s to 12 s
        records.save(toy.layout, record)
    catalog = toy.catalog()
    every = {j.key for j in plan.jobs(catalog, ["cpu", "cuda"], force=True)[0]}
    shards = [plan.jobs(catalog, ["cpu", "cuda"], force=True, shard=(i, 3))[0] for i in (1, 2, 3)]
    keys = [{j.key for j in shard} for shard in shards]
    assert set().union(*keys) == every and sum(map(len, keys)) == len(every) == 24  # each job once
    loads = [sum(plan.estimate(j, catalog) or plan.UNKNOWN_WALL_S for j in shard) for shard in shards]
    assert max(loads) - min(loads) <= 12, loads  # within the longest run; the CUDA jobs count as unknown
    again = [{j.key for j in plan.jobs(toy.catalog(), ["cpu", "cuda"], force=True, shard=(i, 3))[0]} for i in (1, 2, 3)]
    assert again == keys  # the same split on every machine that reads the same records
    with pytest.raises(ValueError, match="need 1 <= i <= n"):
        plan.parse_shard("4/3")


@pytest.mark.slow  # a real run of toy snippets in subprocesses: `make test` runs it, `make check` does not
def test_the_records_of_shards_merge_into_the_whole_and_refuse_gaps_and_overlaps(toy, tmp_path, capsys):
    for name in ("a", "b", "c", "d", "e"):
        toy.add(f"page/{name}", f"print({name!r})\n")
    toy.run()
    folders = [tmp_path / f"shard{i}" for i in (1, 2)]
    for i, folder in enumerate(folders, 1):
        assert cli.main(["--root", str(toy.root), "--records", str(folder), "run", "--force", f"--shard={i}/2"]) == 0
    into = tmp_path / "merged"
    assert cli.main(["--root", str(toy.root), "merge", *map(str, folders), "--into", str(into)]) == 0
    assert sorted(p.name for p in into.rglob("*.json")) == [f"{n}.cpu.json" for n in "abcde"]
    [one] = list(folders[0].rglob("*.json"))[:1]
    (folders[1] / one.relative_to(folders[0])).write_bytes(one.read_bytes())  # an overlap
    [gone] = list(folders[0].rglob("*.json"))[-1:]
    gone.unlink()  # and a gap, unless it was the overlapping one
    capsys.readouterr()
    assert cli.main(["--root", str(toy.root), "merge", *map(str, folders), "--into", str(tmp_path / "m2")]) == 2
    err = capsys.readouterr().err
    assert "the shards do not merge" in err and "in 2 shards" in err and not (tmp_path / "m2").exists()
    (folders[1] / "page" / "ghost.cpu.json").write_bytes(one.read_bytes())
    assert cli.main(["--root", str(toy.root), "merge", *map(str, folders), "--into", str(tmp_path / "m3")]) == 2
    assert "page/ghost (cpu): no snippet asks for this record" in capsys.readouterr().err


def test_cli_check_reports_a_mismatch_as_a_diff_and_rewrites_nothing(toy, capsys):
    (toy.root / "value.txt").write_text("600")
    toy.add(
        "page/a",
        "print(open(__file__.rsplit('/snippets/', 1)[0] + '/value.txt').read())\n",
        extra='deps = ["value.txt"]',
    )
    assert cli.main(["--root", str(toy.root), "run", "-j1"]) == 0
    assert cli.main(["--root", str(toy.root), "check", "-j1"]) == 0
    (toy.root / "value.txt").write_text("601")
    assert cli.main(["--root", str(toy.root), "check", "-j1"]) == 1
    out = capsys.readouterr().out
    assert "MISMATCH page/a (cpu)" in out and "--- stdout (committed)" in out
    assert "\n-600\n" in out and "\n+601\n" in out  # line by line, not the whole stream as one string
    assert "600" in records.load(toy.layout, "page/a", "cpu").stdout  # check never rewrites
    assert cli.main(["--root", str(toy.root), "update", "-j1"]) == 0
    assert "601" in records.load(toy.layout, "page/a", "cpu").stdout


@pytest.mark.slow  # a real run of toy snippets in subprocesses: `make test` runs it, `make check` does not
def test_cli_require_device_cuda_fails_loudly_without_a_gpu(toy, capsys):
    toy.add("page/a", "print(1)\n", devices='["cpu", "cuda"]')
    if cuda_available("python3"):
        pytest.skip("this machine has a GPU")
    assert cli.main(["--root", str(toy.root), "run", "--device", "cuda", "--require-device", "cuda"]) == 2
    assert "--require-device cuda, but torch sees no CUDA device" in capsys.readouterr().err
    assert cli.main(["--root", str(toy.root), "run", "--device", "cuda"]) == 0  # skipped, not faked
    assert not records.record_path(toy.layout, "page/a", "cuda").exists()


def test_cli_report_lists_missing_cuda_and_fails_on_missing_cpu(toy, capsys):
    toy.add("page/a", "print(1)\n", devices='["cpu", "cuda"]')
    assert cli.main(["--root", str(toy.root), "report"]) == 1
    toy.run()
    assert cli.main(["--root", str(toy.root), "report"]) == 0
    captured = capsys.readouterr()
    assert re.search(r"page/a  cuda +missing", captured.out) and "1 CUDA records not captured yet" in captured.err


def test_cli_report_fails_on_a_missing_emulated_record_like_a_cpu_one(toy, capsys):
    """The emulated device is made on any machine: its missing record is a problem, never "not captured yet"."""
    toy.add("page/a", "print(1)\n", devices='["cpu", "sm90-codegen"]')
    toy.run()
    assert cli.main(["--root", str(toy.root), "report"]) == 1
    assert re.search(r"page/a  sm90-codegen +missing", capsys.readouterr().out)


def test_cli_names_the_file_and_line_of_a_bad_header(toy, capsys):
    toy.add("page/a", "print(1)\n", extra="colour = 1")
    assert cli.main(["--root", str(toy.root), "run"]) == 2
    assert capsys.readouterr().err.strip() == (
        "error: snippets/page/a.py:3: unknown key 'colour' in the header "
        "(known: devices, env, timeout, expect_error, artifacts, deps, cells, publish, volatile, max_processes, "
        "max_memory_mb, ranks)"
    )


def test_long_runs_are_started_first(toy):
    for name in ("short", "long", "new"):
        toy.add(f"page/{name}", "print(1)\n")
    toy.run()
    for record in toy.run(force=True)[0].executed:
        wall = {"page/short": 0.5, "page/long": 9.0}.get(record.snippet)
        if wall is None:
            records.record_path(toy.layout, record.snippet, "cpu").unlink()
        else:
            record.run["wall_s"] = wall
            records.save(toy.layout, record)
    catalog = toy.catalog()
    jobs = [plan.Job(s, "cpu") for s in catalog.snippets.values()]
    assert [j.snippet.id for j in plan.longest_first(jobs, catalog)] == ["page/new", "page/long", "page/short"]


def test_a_run_sees_only_its_declared_dependencies(toy):
    helper = toy.root / "scripts" / "helper"
    helper.mkdir(parents=True)
    (helper / "__init__.py").write_text("ANSWER = 600\n")
    toy.add("page/uses", "from helper import ANSWER\nprint(ANSWER)\n", extra='deps = ["scripts/helper"]')
    toy.add("page/forgot", "from helper import ANSWER\nprint(ANSWER)\n")
    by_id = {r.snippet: r for r in toy.run()[0].executed}
    assert by_id["page/uses"].status == "ok" and by_id["page/uses"].stdout == "600\n"
    assert by_id["page/forgot"].error == "raised ModuleNotFoundError: No module named 'helper'"
    (helper / "weights.txt").write_text("a new file in the folder")
    assert toy.catalog().standing("page/uses", "cpu").state == "stale"


def test_writing_through_file_changes_a_private_copy_and_an_absolute_path_is_caught(toy):
    toy.add("page/victim", "print('victim')\n")
    toy.run()
    victim = records.record_path(toy.layout, "page/victim", "cpu")
    before = victim.read_text()
    toy.add(
        "page/vandal",
        """
        import pathlib
        root = pathlib.Path(__file__).parents[2]
        (root / "records/page").mkdir(parents=True, exist_ok=True)
        (root / "records/page/victim.cpu.json").write_text("{}")
        print("wrote", sorted(p.name for p in (root / "snippets/page").iterdir()))
    """,
    )
    outcome = toy.run()[0]
    assert outcome.executed[0].stdout == "wrote ['vandal.py']\n"  # its copy holds itself only
    assert victim.read_text() == before and outcome.intrusions == []
    (toy.root / "docs").mkdir()
    toy.add(
        "page/vandal",
        f"""
        open({str(toy.root / "docs" / "note.txt")!r}, "w").write("x")
        open({str(victim)!r}, "w").write("{{}}")
    """,
    )
    outcome = toy.run()[0]
    [intrusion] = outcome.intrusions
    assert intrusion.startswith("page/vandal (cpu) changed files of the checkout while running:")
    assert "records/page/victim.cpu.json" in intrusion and "docs/note.txt" in intrusion


def test_published_files_are_kept_but_not_compared(toy, tmp_path):
    body = "import os, time\nos.mkdir('report')\nopen('report/index.html', 'w').write(str(time.time()))\n"
    toy.add("page/report", body + "print('report written')\n", extra='publish = ["report/*"]')
    first = toy.run(records=tmp_path / "a")[0].executed[0]
    second = toy.run(records=tmp_path / "b")[0].executed[0]
    assert list(first.published) == ["report/index.html"] and first.published != second.published
    assert first.output() == second.output()
    assert compare.mismatch(first, second) == ""


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (b'{"schema": 2, "snippet": "page/a", "device": "cpu", "caf\xc3', "not UTF-8 text"),
        (None, "field run.wall_s must be a number"),
        (None, "field output.artifacts must map file names to text"),
        (b"[1, 2]", "schema None, expected 3"),
    ],
)
def test_corrupt_records_are_refused_naming_the_file(toy, text, message):
    toy.add("page/a", "print(1)\n")
    record = toy.run()[0].executed[0]
    path = records.record_path(toy.layout, "page/a", "cpu")
    data = json.loads(path.read_text())
    if text is None and "wall_s" in message:
        data["run"]["wall_s"] = "fast"
        text = json.dumps(data).encode()
    elif text is None:
        data["output"]["artifacts"] = "kernel.py"
        text = json.dumps(data).encode()
    path.write_bytes(text)
    with pytest.raises(SourceError) as excinfo:
        records.load(toy.layout, "page/a", "cpu")
    assert str(excinfo.value).startswith("records/page/a.cpu.json: ") and message in str(excinfo.value)
    assert record.status == "ok"


def test_volatile_lines_are_left_out_of_the_comparison_and_nothing_else(toy, tmp_path):
    toy.add(
        "page/tuned",
        "import random\nprint('choices: 2')\nprint('winner:', random.random())\n",
        extra='volatile = ["^winner: "]',
    )
    first = toy.run(records=tmp_path / "a")[0].executed[0]
    second = toy.run(records=tmp_path / "b")[0].executed[0]
    assert first.stdout != second.stdout
    assert compare.mismatch(first, second, ("^winner: ",)) == ""
    second.stdout = second.stdout.replace("choices: 2", "choices: 3")
    assert "+choices: 3" in compare.mismatch(first, second, ("^winner: ",))
