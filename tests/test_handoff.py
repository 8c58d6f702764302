"""The run's description and result: the shapes both sides use, and the readers that refuse anything else."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time

import pytest
from conftest import REPO
from phase25.core.snippets import discover
from phase25.run import execute, handoff

DESCRIPTION = {
    "snippet": "/run/tree/snippets/page/a.py",
    "result": "/run/result.json",
    "device": "cpu",
    "cells": False,
    "scripts": "/run/tree/scripts",
    "tag": "0123456789abcdef",
}
RESULT = {
    "error": {"type": "ValueError", "qualname": "builtins.ValueError", "message": "boom"},
    "exit_code": 1,
    "provenance": {"python": "3.11.7", "torch": None},
    "site_packages": ["/venv/lib/python3.11/site-packages"],
    "collectives": {"all_reduce": 2},
    "warnings": [{"category": "UserWarning", "message": "m", "filename": "/run/a.py", "module": "__main__"}],
}


def test_a_description_with_its_shape_reads_back_as_written():
    for written in (DESCRIPTION, {**DESCRIPTION, "ranks": 2}, {**DESCRIPTION, "ranks": 1, "rank": 1}):
        assert handoff.description(json.dumps(written)) == written


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (json.dumps({k: v for k, v in DESCRIPTION.items() if k != "tag"}), "PHASE25_RUN: key 'tag' is missing"),
        (json.dumps({**DESCRIPTION, "cells": "yes"}), "PHASE25_RUN: key 'cells' holds str, not bool"),
        (json.dumps({**DESCRIPTION, "ranks": True}), "PHASE25_RUN: key 'ranks' holds bool, not int"),
        (json.dumps({**DESCRIPTION, "rank": "1"}), "PHASE25_RUN: key 'rank' holds str, not int"),
        (json.dumps({**DESCRIPTION, "world": 2}), "PHASE25_RUN: unknown key 'world'"),
        (json.dumps([DESCRIPTION]), "PHASE25_RUN is not a JSON object"),
        (json.dumps(DESCRIPTION)[:-9], "PHASE25_RUN is not JSON"),
    ],
)
def test_a_description_without_its_shape_is_refused_in_one_line_naming_the_key(text, message):
    with pytest.raises(handoff.Refused) as refused:
        handoff.description(text)
    assert str(refused.value).startswith(message) and "\n" not in str(refused.value)


def test_what_the_runner_writes_is_what_the_run_reads(toy, tmp_path):
    toy.add("page/one", "print(1)\n")
    toy.add("page/two", "print(2)\n", extra="ranks = 2")
    toy.add("page/lab", "# %% [first]\nprint(3)\n", extra="cells = true")
    for snippet in discover(toy.layout):
        spec, _ = execute._spec(snippet, "cpu", tmp_path, "feedc0de")
        run = handoff.description(spec["env"][handoff.DESCRIPTION])
        assert run["tag"] == "feedc0de" and run["snippet"].endswith(f"{snippet.id}.py")
        assert run.get("ranks", 1) == snippet.header.ranks and run["cells"] == snippet.header.cells


def test_a_result_with_its_shape_reads_back_and_a_damaged_one_is_refused_naming_the_key(tmp_path):
    path = tmp_path / "result.json"
    launcher = {**RESULT, "lost": {"rank": 1, "exit_code": -9, "stopped": [0]}, "ranks": []}
    for written in (RESULT, {**RESULT, "error": None}, launcher):
        handoff.write_result(str(path), written)
        assert handoff.result(path) == written
    damaged = [
        ({**RESULT, "error": {"type": "E", "message": "m"}}, "result.json: error: key 'qualname' is missing"),
        ({**RESULT, "exit_code": "0"}, "result.json: key 'exit_code' holds str, not int"),
        ({**RESULT, "warnings": [{**RESULT["warnings"][0], "module": 3}]}, "warnings[0]: key 'module' holds int"),
        ({**RESULT, "collectives": {"all_reduce": "2"}}, "result.json: collectives[0] holds str, not int"),
        ({**launcher, "lost": {"rank": 1, "exit_code": -9, "stopped": ["0"]}}, "lost: stopped[0] holds str"),
        ({**launcher, "ranks": [{"exit_code": 0}]}, "result.json: ranks[0]: key 'collectives' is missing"),
    ]
    for written, message in damaged:
        path.write_text(json.dumps(written), encoding="utf-8")
        with pytest.raises(handoff.Refused, match=re.escape(message)):
            handoff.result(path)
    path.write_text(json.dumps(RESULT)[:40], encoding="utf-8")
    with pytest.raises(handoff.Refused, match=re.escape("result.json is not JSON")):
        handoff.result(path)


def test_a_run_whose_description_lacks_a_key_ends_at_once_in_one_line_and_starts_nothing(tmp_path):
    """The launcher of a two-rank run reads its tag after it forked the ranks: without the check, a missing tag
    ended it in a KeyError traceback with its ranks already started."""
    witness = tmp_path / "ran"
    snippet = tmp_path / "snippet.py"
    snippet.write_text(f"open({str(witness)!r}, 'w').close()\n", encoding="utf-8")
    run = {**DESCRIPTION, "snippet": str(snippet), "result": str(tmp_path / "result.json"), "ranks": 2}
    del run["tag"]
    env = {**os.environ, handoff.DESCRIPTION: json.dumps(run), "PYTHONPATH": str(REPO / "scripts")}
    started = time.monotonic()
    command = [sys.executable, "-m", "phase25.run.child.bootstrap"]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=60, check=False)
    assert time.monotonic() - started < 30
    assert done.returncode == 2 and done.stderr == "phase25: PHASE25_RUN: key 'tag' is missing\n"
    assert not witness.exists() and not (tmp_path / "result.json").exists()


def test_a_result_file_the_snippet_overwrote_fails_the_run_and_says_why(toy):
    """A snippet can reach its run's result file (``../result.json``) after the runner's part wrote it."""
    forged = {**RESULT, "error": None, "exit_code": "0"}
    toy.add(
        "page/forger",
        f"import atexit, json\natexit.register(lambda: json.dump({forged!r}, open('../result.json', 'w')))\n",
    )
    record = toy.run()[0].executed[0]
    assert record.status == "failed"
    assert record.error == "its result file was refused: result.json: key 'exit_code' holds str, not int"
