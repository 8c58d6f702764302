"""A reader's "reproduce this output": the kit a page offers runs outside the repository, on Python with torch."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from phase25.core import bounded
from phase25.core.catalog import Catalog, installed_torch
from phase25.core.paths import DEFAULT_LAYOUT
from phase25.site.downloads import reproduce_kit

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def kit(tmp_path_factory) -> Path:
    target = tmp_path_factory.mktemp("reader")
    zipfile.ZipFile(io.BytesIO(reproduce_kit.kit(Catalog(DEFAULT_LAYOUT), "00-orientation"))).extractall(target)
    return target / "reproduce-00-orientation"


def reproduce(kit: Path, snippet_id: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "PHASE25_"))}
    return bounded.run(  # a hung run is killed with its children, not left behind
        [sys.executable, "reproduce.py", snippet_id], cwd=kit, env=env, capture_output=True, text=True, timeout=300
    )


def test_the_kit_holds_the_snippets_their_files_records_and_the_core_modules_it_imports_only(kit):
    names = {p.relative_to(kit).as_posix() for p in kit.rglob("*") if p.is_file()}
    assert {
        "reproduce.py",
        "README.md",
        "scripts/minigpt/minigpt.pt",
        "scripts/phase25/kit/reproduce.py",
        "snippets/00-orientation/dispatch_keys.py",
        "records/00-orientation/dispatch_keys.cpu.json",
    } <= names
    assert not [n for n in names if n.startswith(("scripts/phase25/site", "scripts/phase25/run", "docs/"))]
    core = {n.removeprefix("scripts/phase25/core/") for n in names if n.startswith("scripts/phase25/core/")}
    assert {"__init__.py", "bounded.py", "environment.py", "records.py", "snippets.py"} <= core
    assert not core & {"catalog.py", "cells.py", "drift_readers.py"}  # core modules the kit never imports stay home


def test_a_reader_reproduces_an_output_and_sees_both_machines(kit):
    result = reproduce(kit, "00-orientation/dispatch_keys")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("00-orientation/dispatch_keys: every line the record shows matched")
    assert "stdout     matched" in result.stdout and f"the record:   {installed_torch()}" in result.stdout
    assert "this machine:" in result.stdout and "cpu_flags" in result.stdout


def test_an_expected_error_reproduces_with_its_traceback(kit):
    result = reproduce(kit, "00-orientation/shape_mismatch")
    assert result.returncode == 0 and "stderr     matched" in result.stdout, result.stdout + result.stderr


def test_a_different_output_is_shown_as_a_diff(kit):
    snippet = kit / "snippets/00-orientation/dispatch_keys.py"
    snippet.write_text(snippet.read_text().replace('print("meta tensor:', 'print("a meta tensor:'))
    result = reproduce(kit, "00-orientation/dispatch_keys")
    assert result.returncode == 1 and "the outputs differ" in result.stdout and "stdout     differs" in result.stdout
    assert "--- stdout (the record)" in result.stdout and "+a meta tensor:" in result.stdout
    assert reproduce(kit, "00-orientation/nope").returncode == 2
