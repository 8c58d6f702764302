"""Build the real site (or a copy of it) with mkdocs, as a subprocess."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import REPO

COPIED = ("docs", "snippets", "records", "reports", "scripts", "mkdocs.yml")


def copy_project(target: Path) -> Path:
    """A scratch copy of everything a build reads, to break on purpose."""
    target.mkdir(parents=True, exist_ok=True)
    for name in COPIED:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, target / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, target / name)
    return target


def build(root: Path, site_dir: Path, *, strict: bool = True, execute: bool = False) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PHASE25_EXECUTE": "1" if execute else "0"}
    command = [
        str(Path(sys.executable).parent / "mkdocs"),
        "build",
        "-f",
        str(root / "mkdocs.yml"),
        "-d",
        str(site_dir),
    ]
    if strict:
        command.append("--strict")
    return subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, timeout=900, check=False)
