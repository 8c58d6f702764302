"""SECURITY.md stays true: every test a row names exists, every principle is tried, every surface has its row.

The threat model is only as good as the tests it points to: a renamed or deleted test would leave a row that
claims a check nobody runs.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

from conftest import REPO

DOC = REPO / "SECURITY.md"
NAMED_TEST = re.compile(r"`(tests/[\w/]+\.py)::(test_\w+)`")
# The surfaces the threat model must cover (each row's first cell names one or more of them).
SURFACES = (
    "Snippet code",
    "Snippet headers",
    "Header fields that set limits",
    "Records",
    "GPU capture archives",
    "Reproduce kit",
    "Lab notebooks",
    "Atlas data",
    "Make variables",
    "Workflow inputs",
    "Caches",
    "Page sources",
    "Multi-rank runs",
    "The emulated device",
    "The environment a run inherits",
    "Folders and files the build reads",
)


def rows() -> list[list[str]]:
    """The table's rows under *Surfaces*, as cells (header and rule left out)."""
    table = DOC.read_text(encoding="utf-8").split("## Surfaces", 1)[1].split("\n## ", 1)[0]
    lines = [line for line in table.splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in line.strip("|").split(" | ")] for line in lines[2:]]


@cache
def functions(file: Path) -> frozenset[str]:
    tree = ast.parse(file.read_text(encoding="utf-8"))
    return frozenset(node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef))


def missing(text: str, root: Path) -> list[str]:
    """The ``tests/FILE.py::test_NAME`` references in ``text`` that are no test function of their file."""
    return [
        f"{path}::{name}"
        for path, name in NAMED_TEST.findall(text)
        if not (root / path).is_file() or name not in functions(root / path)
    ]


def test_every_test_a_row_names_exists():
    text = DOC.read_text(encoding="utf-8")
    assert len(NAMED_TEST.findall(text)) >= 40
    assert missing(text, REPO) == []


def test_every_row_has_its_cells_a_check_and_tests():
    found = rows()
    assert len(found) >= len(SURFACES)
    for cells in found:
        assert len(cells) == 6, cells[0]
        surface, who, reach, principles, check, tests = cells
        assert who and reach and check, surface
        assert re.fullmatch(r"[1-9](, [1-9])*", principles), f"{surface}: principles {principles!r}"
        assert NAMED_TEST.search(tests), f"{surface}: no test named"


def test_every_principle_and_every_surface_has_a_row():
    found = rows()
    tried = {int(p) for cells in found for p in cells[3].split(", ")}
    assert tried == set(range(1, 10))
    named = " ".join(cells[0] for cells in found)
    assert [s for s in SURFACES if s not in named] == []


CODE = re.compile(r"`((?:core|run|site|tools)/[\w/]+\.py)(?::([\w.]+))?`")


@cache
def defined(file: Path) -> frozenset[str]:
    """The functions, classes and module-level names a module defines."""
    tree = ast.parse(file.read_text(encoding="utf-8"))
    kinds = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
    names = {node.name for node in ast.walk(tree) if isinstance(node, kinds)}
    assigned = [node for node in tree.body if isinstance(node, ast.Assign)]
    names |= {t.id for node in assigned for t in node.targets if isinstance(t, ast.Name)}
    return frozenset(names)


def test_every_module_and_name_a_row_points_to_exists():
    """A row names its check as a module of the package (``site/page/directives.py``), often with what in it
    does the checking (``core/names.py:read_inside``): a module moved or a name renamed would leave the row
    pointing at nothing."""
    named = CODE.findall(DOC.read_text(encoding="utf-8"))
    assert len(named) >= 30
    gone = []
    for path, name in named:
        file = REPO / "scripts" / "phase25" / path
        if not file.is_file() or any(part not in defined(file) for part in filter(None, name.split("."))):
            gone.append(f"{path}:{name}" if name else path)
    assert gone == []


def test_a_row_naming_a_missing_test_is_caught(tmp_path: Path):
    """The check above can fail: a name that is not a test function of its file is reported."""
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text("def test_here():\n    pass\n")
    text = "`tests/test_x.py::test_here` `tests/test_x.py::test_gone` `tests/test_y.py::test_here`"
    assert missing(text, tmp_path) == ["tests/test_x.py::test_gone", "tests/test_y.py::test_here"]
