"""Every target of the Makefile is a row of the README's table, runs exactly the command the row names, and works;
a bare `make` prints the targets instead of starting the install."""

from __future__ import annotations

import os
import re
import subprocess
from collections import Counter

import pytest
from conftest import REPO
from phase25.core import bounded

ROW = re.compile(r"^\| `make (?P<target>[\w-]+)(?: [A-Z]+=[^`]*)?` \| `(?P<command>[^`]+)` \| (?P<what>.+) \|$", re.M)
TABLE = [(m.group("target"), m.group("command")) for m in ROW.finditer((REPO / "README.md").read_text())]
# Cheap enough to run for real here; the others are run by their own tests or by CI itself.
RUN_FOR_REAL = {"report", "translations", "lint", "static", "help"}
# Every rule the Makefile defines by name (not a file it makes, not a variable).
TARGET = re.compile(r"^([a-z][\w-]*):(?!=)", re.M)
DOCUMENTED = re.compile(r"^([\w-]+):[^=\n]*##", re.M)


def make(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "MAKEFLAGS": ""}
    return bounded.run(
        ["make", "-C", str(REPO), *args], capture_output=True, text=True, env=env, timeout=600, check=False
    )


def table_problems(rows: list[str], makefile: str) -> list[str]:
    """Each target of the Makefile documented (a ``##`` comment) and in the table once; no row for a target that
    does not exist."""
    targets, documented, counts = set(TARGET.findall(makefile)), set(DOCUMENTED.findall(makefile)), Counter(rows)
    problems = [f"make {t}: no ## comment in the Makefile" for t in sorted(targets - documented)]
    problems += [f"make {t}: no row in the README's table" for t in sorted(targets - set(rows))]
    problems += [f"make {t}: {n} rows in the README's table" for t, n in sorted(counts.items()) if n > 1]
    problems += [f"make {t}: a row, but no such target" for t in sorted(set(rows) - targets)]
    return problems


def test_the_table_lists_every_target_of_the_makefile_once():
    problems = table_problems([t for t, _ in TABLE], (REPO / "Makefile").read_text())
    assert problems == [], "\n".join(problems)
    assert {"help", "setup", "site", "test", "records", "report", "model"} <= {t for t, _ in TABLE}


@pytest.mark.parametrize(
    ("rows", "expected"),
    [
        (["a", "b"], []),
        (["a"], ["make b: no row in the README's table"]),
        (["a", "b", "a"], ["make a: 2 rows in the README's table"]),
        (["a", "b", "gone"], ["make gone: a row, but no such target"]),
    ],
)
def test_the_table_check_names_a_missing_twice_listed_or_unknown_target(rows, expected):
    assert table_problems(rows, "a: setup  ## does a\n\trun a\nb:  ## does b\nX := 1\n.venv/x: y\n") == expected


def test_a_target_without_its_help_line_is_named():
    assert table_problems(["a"], "a:  ## does a\nquiet: a\n") == [
        "make quiet: no ## comment in the Makefile",
        "make quiet: no row in the README's table",
    ]


def test_a_bare_make_prints_every_target_and_installs_nothing():
    dry = make("-n")
    assert dry.returncode == 0 and "awk" in dry.stdout and "pip install" not in dry.stdout, dry.stdout
    listed = make()
    assert listed.returncode == 0, listed.stderr
    missing = [t for t, _ in TABLE if f"make {t} " not in listed.stdout]
    assert missing == [], f"targets a bare make does not list: {missing}"


@pytest.mark.parametrize(("target", "command"), TABLE, ids=[t for t, _ in TABLE])
def test_each_target_runs_the_command_the_table_names(target, command):
    # setup's recipe runs only when requirements.txt is newer than the environment: -W pretends it is.
    what_if = ("-W", "requirements.txt") if target == "setup" else ()
    dry = make("-n", *what_if, target, "PAGE=docs/es/index.md")
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
