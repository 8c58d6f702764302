"""SECURITY.md stays true: every test a row names exists, every principle is tried, every surface has its row.

The threat model is only as good as the tests it points to: a renamed or deleted test would leave a row that
claims a check nobody runs.
"""

from __future__ import annotations

import ast
import re
import subprocess
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


def rows(doc: str | None = None) -> list[list[str]]:
    """The table's rows under *Surfaces* of ``doc`` (SECURITY.md's text by default), as cells (header and rule
    left out)."""
    table = (doc or DOC.read_text(encoding="utf-8")).split("## Surfaces", 1)[1].split("\n## ", 1)[0]
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


# -- every surface has its row: what the build or a command reads, and every module of tools/ -------------------------

# Entries at the top of the repository that no build and no command reads, each with why. Every other entry must be
# named (as a backticked path) in a row's surface or check: that is how a new folder the build starts reading, or a
# new file a command takes, gets its row before it gets its first reader.
NOT_READ = {
    ".ci": "CI's entry point, a script that runs `make test`: it takes no input",
    ".gitattributes": "git's own settings",
    ".gitignore": "git's own settings",
    ".pre-commit-config.yaml": "pre-commit's settings, run on a contributor's machine before a commit",
    "CONTRIBUTING.md": "prose for people: no build or command reads it",
    "README.md": "prose for people: no build or command reads it",
    "SECURITY.md": "this threat model: read by people and by this test",
    "maintaining": "the maintainers' reference, prose for people: read by its own test, never by a build or command",
    "pyproject.toml": "the settings of ruff, mypy and pytest: read by those tools, never by a build or a command",
    "tests": "the test suite: pytest reads it, no build or command does",
}
# Modules of tools/ that take no input of their own, each with why. Every other module must be named in a row.
TOOLS_WITHOUT_INPUT = {
    "bench": "times a build and the runs of a copy of the project (core/paths.py:copy_project, checked as a build's)",
    "build_site": "starts MkDocs on a tree its caller names; what that build reads has its rows",
    "commands": "hands each argument of the maintainers' commands to the module that owns it (names from arguments)",
    "engines": "compares two sites this machine has just built",
    "model": "retrains the running example from the repository's own code and data, through the bounded helper",
    "offline": "zips the site this machine has just built",
    "page_checks": "reads the HTML of the site this machine has just built",
    "reader_path": "runs lychee over the site this machine has just built, through the bounded helper",
    "upgrade_pin": "writes the pins for a version tools/upgrade.py:checked validated; kept records load as records",
}
_PATH = re.compile(r"`(\.?[A-Za-z][\w.-]*)")


def unnamed(doc: str, entries: set[str], tools: set[str]) -> list[str]:
    """The top-level ``entries`` and ``tools`` modules that neither a row of ``doc`` names nor a list above excuses,
    and the excuses for what no longer exists or is named after all."""
    cells = rows(doc)
    named = {found.split("/")[0] for row in cells for cell in (row[0], row[4]) for found in _PATH.findall(cell)}
    modules = {found for row in cells for cell in row for found in re.findall(r"`tools/(\w+)\.py", cell)}
    return sorted(
        [f"{e}: read by what? name it in a row, or say in NOT_READ why nothing reads it" for e in entries
         if e not in named and e not in NOT_READ]
        + [f"tools/{m}.py: no row names it, nor TOOLS_WITHOUT_INPUT" for m in tools
           if m not in modules and m not in TOOLS_WITHOUT_INPUT]
        + [f"{e}: in NOT_READ, but {'a row names it' if e in named else 'gone'}" for e in NOT_READ
           if e in named or e not in entries]
        + [f"tools/{m}.py: in TOOLS_WITHOUT_INPUT, but {'a row names it' if m in modules else 'gone'}"
           for m in TOOLS_WITHOUT_INPUT if m in modules or m not in tools]
    )  # fmt: skip


def _tracked_top_level() -> set[str]:
    listed = subprocess.run(
        ["git", "-C", str(REPO), "ls-files"], capture_output=True, text=True, timeout=60, check=True
    )
    return {line.split("/", 1)[0] for line in listed.stdout.splitlines()}


def _tools() -> set[str]:
    return {p.stem for p in (REPO / "scripts" / "phase25" / "tools").glob("*.py") if p.stem != "__init__"}


def test_every_top_level_entry_and_every_tools_module_is_in_a_row_or_excused():
    entries, tools = _tracked_top_level(), _tools()
    assert {"docs", "records", "snippets", "scripts", "tests"} <= entries and {"versions", "upgrade"} <= tools
    assert unnamed(DOC.read_text(encoding="utf-8"), entries, tools) == []


def test_a_new_folder_or_tools_module_without_a_row_is_caught():
    """The check above can fail: a folder the build may start reading and a new tools module, neither named."""
    doc = DOC.read_text(encoding="utf-8")
    entries, tools = _tracked_top_level(), _tools()
    assert unnamed(doc, entries | {"datasets"}, tools | {"scrape"}) == [
        "datasets: read by what? name it in a row, or say in NOT_READ why nothing reads it",
        "tools/scrape.py: no row names it, nor TOOLS_WITHOUT_INPUT",
    ]
    assert unnamed(doc, entries - {"maintaining"}, tools) == ["maintaining: in NOT_READ, but gone"]
