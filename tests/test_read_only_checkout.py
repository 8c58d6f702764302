"""Reading a checkout needs no write into it: a build of a read-only checkout (a CI sandbox, a shared checkout)
succeeds, and where a cache cannot be written one line says where it went instead."""

from __future__ import annotations

import logging
import os
import shutil
import sys
from pathlib import Path

import pytest
from conftest import REPO
from phase25.core import bounded
from phase25.site.hosts.quirks.jupyter import writable_notebook_cache


def test_an_unwritable_notebook_cache_moves_to_a_temporary_folder(tmp_path, caplog):
    caplog.set_level(logging.INFO, logger="mkdocs.plugins.phase25")
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    config = {"cache": True, "cache_dir": str(blocker / "mkdocs-jupyter")}  # cannot be made, even by root
    writable_notebook_cache(config)
    moved = Path(config["cache_dir"])
    assert config["cache"] and moved.is_dir() and not str(moved).startswith(str(tmp_path))
    assert "cannot be written; the notebooks' cache is kept in" in caplog.text
    kept = {"cache": True, "cache_dir": str(tmp_path / "fine")}
    writable_notebook_cache(kept)
    assert kept["cache_dir"] == str(tmp_path / "fine"), "a writable folder is left where it is"


def _can_mount_read_only() -> bool:
    if shutil.which("unshare") is None:
        return False
    probe = bounded.run(["unshare", "-m", "true"], capture_output=True, timeout=30)
    return probe.returncode == 0


@pytest.mark.slow
@pytest.mark.skipif(
    not _can_mount_read_only(), reason="needs a mount namespace (unshare -m) to make a read-only checkout"
)
def test_a_read_only_checkout_builds_strictly_and_writes_nothing_into_itself(tmp_path):
    clone = tmp_path / "checkout"
    bounded.run(["git", "clone", "--quiet", str(REPO), str(clone)], check=True, timeout=300)
    site = tmp_path / "site"
    build = (
        f"mount --bind {clone} {clone} && mount -o remount,ro,bind {clone} && cd {clone} && "
        f"{sys.executable} -m mkdocs build --strict -d {site}"
    )
    env = {**os.environ, "PYTHONPATH": str(clone / "scripts"), "NO_MKDOCS_2_WARNING": "1"}
    env.pop("PHASE25_EXECUTE", None)
    done = bounded.run(
        ["unshare", "-m", "sh", "-c", build], env=env, capture_output=True, text=True, timeout=900, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stderr and (site / "index.html").is_file() and (site / "es" / "index.html").is_file()
    assert "cannot be written; the notebooks' cache is kept in" in done.stderr
    status = bounded.run(
        ["git", "status", "--porcelain", "--ignored"], cwd=clone, capture_output=True, text=True, check=True, timeout=60
    )
    assert status.stdout == "", "the build wrote into the checkout"
