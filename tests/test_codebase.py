"""The shape the codebase keeps: small modules, short functions, no path hacks, one command line."""

from __future__ import annotations

import ast
import re

from conftest import REPO

PACKAGE = sorted((REPO / "scripts" / "phase25").rglob("*.py"))
ALL_CODE = [
    *PACKAGE,
    *sorted((REPO / "scripts" / "minigpt").glob("*.py")),
    REPO / "scripts" / "mkdocs_hooks.py",
    *sorted((REPO / "tests").glob("*.py")),
]


def test_no_module_over_300_lines():
    lines = {m.relative_to(REPO / "scripts").as_posix(): m.read_text(encoding="utf-8").count("\n") for m in PACKAGE}
    offenders = [f"{name}: {count} lines" for name, count in lines.items() if count > 300]
    assert len(lines) > 50 and offenders == [], "\n".join(offenders)


def test_no_function_over_50_lines():
    lengths = [  # a list: two functions of one module may share a name (methods, nested functions)
        (f"{module.relative_to(REPO / 'scripts').as_posix()}: {node.name}", node.end_lineno - node.lineno + 1)
        for module in PACKAGE
        for node in ast.walk(ast.parse(module.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    ]
    offenders = [f"{where} is {length} lines long" for where, length in lengths if length > 50]
    assert len(lengths) > 500 and offenders == [], "\n".join(offenders)


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
