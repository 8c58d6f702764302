"""The runner on toy snippets: caching, staleness, failures, timeouts, determinism."""

from __future__ import annotations

import io
import json
import os
import time
from pathlib import Path

import pytest
from phase25 import cli, records, runner
from phase25.paths import Layout

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


def test_dependency_and_environment_changes_make_a_record_stale(toy):
    (toy.root / "data.txt").write_text("one")
    toy.add("page/a", "print(open('../../data.txt').read() if False else 'x')\n", extra='deps = ["data.txt"]')
    toy.run()
    snippet = records.discover(toy.layout)[0]
    assert records.freshness(toy.layout, snippet, "cpu").state == "current"
    (toy.root / "data.txt").write_text("two")
    assert records.freshness(toy.layout, snippet, "cpu").reason.startswith("the snippet (or a declared dependency)")
    toy.run()
    toy.add(
        "page/a",
        "print(open('../../data.txt').read() if False else 'x')\n",
        extra='deps = ["data.txt"]\nenv = { MY_FLAG = "1" }',
    )
    # Same code, new environment: still a different run.
    fresh = records.freshness(toy.layout, records.discover(toy.layout)[0], "cpu")
    assert fresh.state == "stale"


def test_a_record_from_another_torch_is_stale_for_this_machine(toy):
    toy.add("page/a", "print(1)\n")
    record = toy.run()[0].executed[0]
    snippet = records.discover(toy.layout)[0]
    # A snippet that never imported torch does not depend on its version...
    assert records.freshness(toy.layout, snippet, "cpu", torch_version="9.9.9").state == "current"
    # ...one that did is out of date once another torch is installed.
    record.provenance["torch"] = "2.13.0"
    records.save(toy.layout, record)
    assert records.freshness(toy.layout, snippet, "cpu", torch_version="2.13.0").state == "current"
    fresh = records.freshness(toy.layout, snippet, "cpu", torch_version="9.9.9")
    assert fresh.reason == "recorded with torch 2.13.0, this machine has 9.9.9"


def test_failure_is_recorded_with_context(toy):
    toy.add("page/bad", "print('before')\nraise ValueError('boom')\n")
    stream = io.StringIO()
    todo, _ = runner.plan(toy.layout, ["cpu"])
    outcome = runner.run(toy.layout, todo, progress=runner.Progress(len(todo), stream))
    record = outcome.executed[0]
    assert record.status == "failed" and record.error == "raised ValueError: boom"
    assert record.stdout == "before\n"
    assert 'File "snippets/page/bad.py", line 5, in <module>' in record.stderr
    assert "runpy" not in record.stderr and "bootstrap" not in record.stderr
    log = stream.getvalue()
    assert "FAILED  page/bad (cpu)" in log and "ValueError: boom" in log
    assert outcome.failures == [record]


def test_error_messages_are_normalized_too(toy):
    toy.add("page/where", "import os\nraise ValueError(f'nothing in {os.getcwd()} at {hex(id(os))}')\n")
    record = toy.run()[0].executed[0]
    assert record.error == "raised ValueError: nothing in <run-dir> at 0x<addr>"


def test_timeout_kills_the_whole_process_group(toy, tmp_path):
    pid_file = tmp_path / "grandchild.pid"
    toy.add(
        "page/hang",
        f"""
        import subprocess, time
        child = subprocess.Popen(["sleep", "300"])
        open({str(pid_file)!r}, "w").write(str(child.pid))
        time.sleep(300)
    """,
        extra="timeout = 2",
    )
    started = time.monotonic()
    outcome, _ = toy.run()
    assert time.monotonic() - started < 30
    record = outcome.executed[0]
    assert record.status == "timeout" and "killed after 2 s" in record.error
    grandchild = int(pid_file.read_text())
    time.sleep(0.2)
    status = Path(f"/proc/{grandchild}/status")
    assert not status.exists() or "State:\tZ" in status.read_text(), "the snippet's child survived the timeout"


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
    record = toy.run()[0].executed[0]
    assert record.stdout == "object: <__main__.Thing object at 0x<addr>>\ncwd: <run-dir>\n"


def test_artifacts_are_collected_and_a_missing_one_fails(toy):
    toy.add("page/art", "open('kernel.py', 'w').write('def k():\\n    pass\\n')\n", extra='artifacts = ["kernel.py"]')
    toy.add("page/none", "print(1)\n", extra='artifacts = ["missing.txt"]')
    outcome, _ = toy.run()
    by_id = {r.snippet: r for r in outcome.executed}
    assert by_id["page/art"].artifacts == {"kernel.py": "def k():\n    pass\n"}
    assert by_id["page/none"].status == "failed" and "'missing.txt' was not written" in by_id["page/none"].error


def test_one_and_two_workers_write_identical_records(toy, tmp_path):
    for name in ("a", "b", "c", "d"):
        toy.add(f"page/{name}", PRINTS + f"print({name!r} * 3)\n")
    toy.run(workers=1, records=tmp_path / "j1")
    toy.run(workers=2, records=tmp_path / "j2")
    files = sorted(p.relative_to(tmp_path / "j1") for p in (tmp_path / "j1").rglob("*.json"))
    assert len(files) == 4
    for rel in files:
        one, two = (json.loads((tmp_path / d / rel).read_text()) for d in ("j1", "j2"))
        one.pop("run"), two.pop("run")
        assert one == two, rel


def test_records_are_written_atomically(tmp_path, monkeypatch):
    target = tmp_path / "records" / "page" / "a.cpu.json"
    records.write_atomic(target, '{"old": true}\n')

    def crash(fd):
        raise OSError("disk full")

    monkeypatch.setattr(os, "fsync", crash)
    with pytest.raises(OSError, match="disk full"):
        records.write_atomic(target, '{"new": true, "half": ')
    assert target.read_text() == '{"old": true}\n'
    assert [p.name for p in target.parent.iterdir()] == ["a.cpu.json"]


def test_corrupt_record_is_reported_and_rerun(toy):
    toy.add("page/a", "print(1)\n")
    toy.run()
    path = records.record_path(toy.layout, "page/a", "cpu")
    path.write_text('{"schema": 1, "snippet": "page/a"')
    snippet = records.discover(toy.layout)[0]
    fresh = records.freshness(toy.layout, snippet, "cpu")
    assert fresh.state == "corrupt" and "not valid JSON" in fresh.reason
    outcome, _ = toy.run()
    assert [r.snippet for r in outcome.executed] == ["page/a"]


def test_shards_partition_the_work_stably(toy):
    for i in range(12):
        toy.add(f"page/s{i:02d}", "print(1)\n", devices='["cpu", "cuda"]')
    every = {j.key for j in runner.plan(toy.layout, ["cpu", "cuda"])[0]}
    shards = [{j.key for j in runner.plan(toy.layout, ["cpu", "cuda"], shard=(i, 3))[0]} for i in (1, 2, 3)]
    assert set().union(*shards) == every and sum(map(len, shards)) == len(every) == 24
    assert all(shards), "a shard of 24 jobs in 3 should not be empty"
    toy.add("page/zz-new", "print(1)\n")
    again = [{j.key for j in runner.plan(toy.layout, ["cpu", "cuda"], shard=(i, 3))[0]} for i in (1, 2, 3)]
    assert [a - {"page/zz-new (cpu)"} for a in again] == shards
    with pytest.raises(ValueError, match="need 1 <= i <= n"):
        runner.parse_shard("4/3")


def test_cli_check_reports_drift_as_a_diff(toy, capsys):
    (toy.root / "value.txt").write_text("600")
    toy.add(
        "page/a",
        "import pathlib\nprint(pathlib.Path('../../../value.txt').resolve().name)\n"
        "print(open(__file__.rsplit('/snippets/', 1)[0] + '/value.txt').read())\n",
    )
    assert cli.main(["--root", str(toy.root), "run", "-j1"]) == 0
    assert cli.main(["--root", str(toy.root), "check", "-j1"]) == 0
    (toy.root / "value.txt").write_text("601")
    assert cli.main(["--root", str(toy.root), "check", "-j1"]) == 1
    out = capsys.readouterr().out
    assert "DRIFT page/a (cpu)" in out and "--- stdout (committed)" in out
    assert "\n-600\n" in out and "\n+601\n" in out  # line by line, not the whole stream as one string
    # check never rewrites the committed record; update does, on purpose
    assert "600" in records.load(toy.layout, "page/a", "cpu").stdout
    assert cli.main(["--root", str(toy.root), "update", "-j1"]) == 0
    assert "601" in records.load(toy.layout, "page/a", "cpu").stdout


def test_cli_require_device_cuda_fails_loudly_without_a_gpu(toy, capsys):
    toy.add("page/a", "print(1)\n", devices='["cpu", "cuda"]')
    if runner.cuda_available():
        pytest.skip("this machine has a GPU")
    assert cli.main(["--root", str(toy.root), "run", "--device", "cuda", "--require-device", "cuda"]) == 2
    assert "--require-device cuda, but torch sees no CUDA device" in capsys.readouterr().err
    # Without --require-device the CUDA runs are skipped, not faked.
    assert cli.main(["--root", str(toy.root), "run", "--device", "cuda"]) == 0
    assert not records.record_path(toy.layout, "page/a", "cuda").exists()


def test_cli_report_lists_missing_cuda_and_fails_on_missing_cpu(toy, capsys):
    toy.add("page/a", "print(1)\n", devices='["cpu", "cuda"]')
    assert cli.main(["--root", str(toy.root), "report"]) == 1
    toy.run()
    assert cli.main(["--root", str(toy.root), "report"]) == 0
    captured = capsys.readouterr()
    assert "page/a  cuda    missing" in captured.out and "1 CUDA records not captured yet" in captured.err


def test_layout_of_resolves_paths(tmp_path):
    layout = Layout.of(tmp_path)
    assert layout.snippets == tmp_path.resolve() / "snippets"


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
    jobs = [runner.Job(s, "cpu") for s in records.discover(toy.layout)]
    assert [j.snippet.id for j in runner.longest_first(jobs, toy.layout)] == ["page/new", "page/long", "page/short"]


def test_snippets_import_helpers_from_scripts_and_a_helper_folder_is_a_dependency(toy):
    helper = toy.root / "scripts" / "helper"
    helper.mkdir(parents=True)
    (helper / "__init__.py").write_text("ANSWER = 600\n")
    toy.add("page/uses", "from helper import ANSWER\nprint(ANSWER)\n", extra='deps = ["scripts/helper"]')
    record = toy.run()[0].executed[0]
    assert record.status == "ok" and record.stdout == "600\n"
    snippet = records.discover(toy.layout)[0]
    (helper / "weights.txt").write_text("a new file in the folder")
    assert records.freshness(toy.layout, snippet, "cpu").state == "stale"
    toy.add("page/missing", "print(1)\n", extra='deps = ["scripts/nowhere"]')
    with pytest.raises(FileNotFoundError, match="declares missing dependency scripts/nowhere"):
        toy.run()


def test_published_files_are_kept_but_not_compared(toy, tmp_path):
    body = "import os, time\nos.mkdir('report')\nopen('report/index.html', 'w').write(str(time.time()))\n"
    toy.add("page/report", body + "print('report written')\n", extra='publish = ["report/*"]')
    first = toy.run(records=tmp_path / "a")[0].executed[0]
    second = toy.run(records=tmp_path / "b")[0].executed[0]
    assert list(first.published) == ["report/index.html"] and first.published != second.published
    assert first.output() == second.output()  # what the page prints is still byte-identical
    assert cli.describe_drift(first, second) == ""
