"""The shape the codebase keeps: small modules, short functions, no path hacks, one command line."""

from __future__ import annotations

import ast
import re

import pytest
from conftest import REPO

PACKAGE = sorted((REPO / "scripts" / "phase25").rglob("*.py"))
ALL_CODE = [
    *PACKAGE,
    *sorted((REPO / "scripts" / "minigpt").glob("*.py")),
    REPO / "scripts" / "mkdocs_hooks.py",
    *sorted((REPO / "tests").glob("*.py")),
]


@pytest.mark.parametrize("module", PACKAGE, ids=[m.relative_to(REPO / "scripts").as_posix() for m in PACKAGE])
def test_no_module_over_300_lines_and_no_function_over_50(module):
    source = module.read_text(encoding="utf-8")
    assert source.count("\n") <= 300, f"{module.name}: {source.count(chr(10))} lines"
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            length = node.end_lineno - node.lineno + 1
            assert length <= 50, f"{module.name}: {node.name} is {length} lines long"


def test_nothing_edits_sys_path():
    offenders = [
        p.relative_to(REPO).as_posix()
        for p in ALL_CODE
        if re.search(r"sys\.path\.(insert|append)", p.read_text(encoding="utf-8"))
    ]
    assert offenders == []


def test_one_entry_point_and_every_command_is_listed_parsed_and_importable():
    """The docstring's list, the parser's subcommands and the table of functions name the same commands."""
    import argparse
    import re

    from phase25 import cli

    assert sorted(p.name for p in (REPO / "scripts").glob("*.py")) == ["mkdocs_hooks.py"]
    listed = {m.group(1) for m in re.finditer(r"^    ([a-z][a-z-]*) ", cli.__doc__ or "", re.M)}
    [sub] = [a for a in cli.parser()._actions if isinstance(a, argparse._SubParsersAction)]
    assert listed == set(sub.choices) == set(cli.COMMANDS)
    for name in cli.COMMANDS:
        assert callable(cli.command(name)), name
    from phase25.tools import commands

    maintainers = {name for name, target in cli.COMMANDS.items() if target.startswith("tools.commands:")}
    assert set(re.findall(r"``([a-z-]+)``", commands.__doc__ or "")) == maintainers, "tools/commands.py's docstring"
