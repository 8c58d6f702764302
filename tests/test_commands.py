"""Every command in the README's table exists, runs exactly the command the table names, and works."""

from __future__ import annotations

import os
import re
import subprocess

import pytest
from conftest import REPO
from phase25.core import bounded

ROW = re.compile(r"^\| `make (?P<target>[\w-]+)(?: [A-Z]+=[^`]*)?` \| `(?P<command>[^`]+)` \| (?P<what>.+) \|$", re.M)
TABLE = [(m.group("target"), m.group("command")) for m in ROW.finditer((REPO / "README.md").read_text())]
# Cheap enough to run for real here; the others are run by their own tests or by CI itself.
RUN_FOR_REAL = {"report", "translations", "lint", "static"}


def make(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "MAKEFLAGS": ""}
    return bounded.run(
        ["make", "-C", str(REPO), *args], capture_output=True, text=True, env=env, timeout=600, check=False
    )


def test_the_table_lists_every_documented_target_once():
    targets = [t for t, _ in TABLE]
    assert len(targets) == len(set(targets)) and {"site", "test", "records", "report", "model"} <= set(targets)
    documented = set(re.findall(r"^([\w-]+):[^=\n]*##", (REPO / "Makefile").read_text(), re.M))
    assert documented - {"setup", "browser", "clean"} == set(targets), "a target missing from the README or Makefile"


@pytest.mark.parametrize(("target", "command"), TABLE, ids=[t for t, _ in TABLE])
def test_each_target_runs_the_command_the_table_names(target, command):
    dry = make("-n", target, "PAGE=docs/es/index.md")
    assert dry.returncode == 0 and "warning" not in dry.stderr.lower(), dry.stderr
    expected = command.replace("python -m phase25", "-m phase25")
    assert expected in dry.stdout, f"make {target} does not run `{command}`:\n{dry.stdout}"


@pytest.mark.parametrize("target", sorted(RUN_FOR_REAL & {t for t, _ in TABLE}))
def test_the_cheap_targets_succeed_for_real(target):
    result = make(target)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]


def test_a_commit_runs_the_static_checks_and_a_push_the_fast_loop():
    import yaml

    config = yaml.safe_load((REPO / ".pre-commit-config.yaml").read_text())
    hooks = {h["id"]: h for repo in config["repos"] for h in repo["hooks"]}
    assert set(config["default_install_hook_types"]) == {"pre-commit", "pre-push"}
    assert hooks["static"]["entry"] == "make static" and hooks["static"]["stages"] == ["pre-commit"]
    assert hooks["fast-loop"]["entry"] == "make check" and hooks["fast-loop"]["stages"] == ["pre-push"]
    assert all(h["language"] == "system" and h["always_run"] and not h["pass_filenames"] for h in hooks.values())
    static, check = make("-n", "static"), make("-n", "check")
    assert static.returncode == 0 and "pytest" not in static.stdout
    assert all(tool in static.stdout for tool in ("ruff check", "ruff format --check", "mypy"))
    assert check.returncode == 0 and '-m "not slow and not browser"' in check.stdout and "mypy" in check.stdout


def test_setup_left_the_packages_byte_compiled():
    """The installer writes no bytecode and setup compiles on every core: each package the runs import has its
    cached bytecode (where PYTHONDONTWRITEBYTECODE is set, a missing one is compiled again in every run)."""
    import importlib.util

    sources = [importlib.util.find_spec(name).origin for name in ("torch", "mkdocs", "pygments", "playwright")]
    sources.append(os.path.join(os.path.dirname(sources[0]), "_inductor", "compile_fx.py"))
    for source in sources:
        assert source and os.path.exists(importlib.util.cache_from_source(source)), source
