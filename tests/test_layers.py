"""The package's layers, as a test: which folder may import which, and the run path on a machine with torch only.

core/ imports nothing of the package outside itself; run/ imports core/; site/ imports core/ and run/;
tools/ may import them all, and nothing imports tools/. kit/ (what runs on a reader's machine) imports core/
and nothing imports it. core/, kit/ and run/ import the standard library only at module level (run/ may
import torch inside a function: the snippet's process has it). The command line imports core/ and run/
and finds every other command in its table, when that command runs.

Inside site/, every module lives in a room of one concern, and the rooms are layered the same way: page/
(one page: its source, its directives, what a renderer is given) imports no other room; lang/ imports page/;
downloads/ imports page/ and lang/; kinds/ (the renderers) imports those three; hosts/ (MkDocs' events, the
Python-Markdown extension, the built site's files) imports them all. No room imports hosts/ or the modules
left at site/'s top (``commands``), so the rooms import each other without a cycle.

The second half runs the GPU machine's case here: an interpreter with torch (and what torch itself needs)
and nothing else runs ``python -m phase25 run``, packs an archive, and ``scripts/capture_gpu.sh`` says
plainly that there is no CUDA device instead of ending in a traceback.
"""

from __future__ import annotations

import ast
import os
import sys
import tarfile
import textwrap
from importlib import metadata
from pathlib import Path

import pytest
from conftest import REPO
from packaging.requirements import Requirement
from phase25.core import bounded

PACKAGE = REPO / "scripts" / "phase25"
FOLDERS = ("core", "kit", "run", "site", "tools")
MAY_IMPORT = {
    "core": {"core"},
    "kit": {"core", "kit"},
    "run": {"core", "run"},
    "site": {"core", "run", "site"},
    "tools": {"core", "run", "site", "tools"},
    "": {"", "core", "run"},
}
SITE = PACKAGE / "site"
ROOMS = ("page", "lang", "downloads", "kinds", "hosts")  # bottom first: a room imports only the rooms before it
ROOM_MAY_IMPORT = {room: set(ROOMS[: ROOMS.index(room) + 1]) for room in ROOMS} | {"": {"", *ROOMS}}
STDLIB_ONLY = ("core", "kit", "run", "")  # at module level: what the GPU machine's and a reader's bare Python import
LATE_THIRD_PARTY = {"run": {"torch", "triton"}}  # imported inside functions, in the snippet's process


def folder_of(path: Path) -> str:
    rel = path.relative_to(PACKAGE).parts
    return rel[0] if len(rel) > 1 else ""


def imports(path: Path) -> list[tuple[str, bool]]:
    """(absolute module name, imported at module level) for every import of a module of the package."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = ["phase25", *path.relative_to(PACKAGE).parts[:-1]]
    top_level = {id(node) for node in tree.body}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, id(node) in top_level) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                name = ".".join([*base, node.module] if node.module else base)
                found += [(f"{name}.{a.name}" if not node.module else name, id(node) in top_level) for a in node.names]
            else:
                found.append((node.module or "", id(node) in top_level))
    return found


MODULES = sorted(PACKAGE.rglob("*.py"))


def test_each_folder_imports_only_the_folders_below_it():
    offences = []
    for module in MODULES:
        mine = folder_of(module)
        for name, _ in imports(module):
            parts = name.split(".")
            if parts[0] != "phase25" or len(parts) < 2:
                continue
            theirs = parts[1] if parts[1] in FOLDERS else ""
            if theirs not in MAY_IMPORT[mine]:
                offences.append(f"{module.relative_to(REPO)} ({mine or 'top'}) imports {name}")
    assert len(MODULES) > 50 and offences == [], "\n".join(offences)


SITE_MODULES = [m for m in MODULES if folder_of(m) == "site"]


def room_of(path: Path) -> str:
    """The room of a module of site/ ("" for the modules at site/'s top: its ``__init__`` and ``commands``)."""
    rel = path.relative_to(SITE).parts
    return rel[0] if len(rel) > 1 else ""


def rooms_imported(module: Path) -> set[str]:
    """The rooms of site/ a module of site/ imports ("" for a module at site/'s top)."""
    found = set()
    for name, _ in imports(module):
        parts = name.split(".")
        if parts[:2] == ["phase25", "site"]:
            found.add(parts[2] if len(parts) > 2 and parts[2] in ROOMS else "")
    return found


def test_every_module_of_site_is_in_a_room_that_says_what_it_is_for():
    assert sorted(p.name for p in SITE.glob("*.py")) == ["__init__.py", "commands.py"]
    assert sorted(p.name for p in SITE.iterdir() if p.is_dir() and p.name != "__pycache__") == sorted(ROOMS)
    for room in ROOMS:
        doc = ast.get_docstring(ast.parse((SITE / room / "__init__.py").read_text(encoding="utf-8")))
        assert doc and "\n\n" not in doc.strip(), f"site/{room}/__init__.py: one paragraph on what the room is for"


def test_each_room_of_site_imports_only_the_rooms_below_it():
    offences = [
        f"{module.relative_to(REPO)} ({room_of(module) or 'site/'}) imports {sorted(theirs)}"
        for module in SITE_MODULES
        if (theirs := rooms_imported(module) - ROOM_MAY_IMPORT[room_of(module)])
    ]
    assert len(SITE_MODULES) > 20 and offences == [], "\n".join(offences)


def test_the_rooms_of_site_import_each_other_without_a_cycle():
    arrows: dict[str, set[str]] = {}
    for module in SITE_MODULES:
        arrows.setdefault(room_of(module), set()).update(rooms_imported(module) - {room_of(module)})
    placed: list[str] = []
    while len(placed) < len(arrows):  # take a room whose imports are all placed; none left means a cycle
        ready = sorted(r for r in arrows if r not in placed and arrows[r] <= set(placed))
        assert ready, f"a cycle among {sorted(set(arrows) - set(placed))}: {arrows}"
        placed += ready


def test_the_run_path_imports_the_standard_library_only():
    allowed = set(sys.stdlib_module_names) | {"phase25", "__future__"}
    checked = [m for m in MODULES if folder_of(m) in STDLIB_ONLY]
    offences = [
        f"{module.relative_to(REPO)} imports {name}"
        for module in checked
        for name, at_module_level in imports(module)
        if name.split(".")[0] not in allowed
        and (at_module_level or name.split(".")[0] not in LATE_THIRD_PARTY.get(folder_of(module), set()))
    ]
    assert len(checked) > 20 and offences == [], "\n".join(offences)


def test_the_command_line_finds_site_and_tool_commands_only_when_they_run():
    from phase25 import cli

    for name, target in cli.COMMANDS.items():
        folder = target.split(".")[0]
        assert folder in FOLDERS, name
    assert {t.split(".")[0] for n, t in cli.COMMANDS.items() if n in ("run", "update", "check", "report")} == {"run"}


def _torch_only(target: Path) -> Path:
    """A virtual environment whose site-packages holds torch and its own requirements, nothing else."""
    bounded.run([sys.executable, "-m", "venv", "--without-pip", str(target)], check=True, timeout=300)
    [site] = list(target.glob("lib/python*/site-packages"))
    wanted, todo = set(), ["torch"]
    while todo:
        dist = metadata.distribution(todo.pop())
        name = dist.metadata["Name"].lower().replace("-", "_")
        if name in wanted:
            continue
        wanted.add(name)
        for line in dist.requires or []:
            requirement = Requirement(line)  # what torch needs on this machine: markers evaluated, extras left out
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                todo.append(requirement.name)
        tops = {Path(str(f)).parts[0] for f in dist.files or [] if not str(f).startswith("..")}
        for top in tops:
            source = Path(dist.locate_file(top))
            if source.exists() and not (site / top).exists():
                (site / top).symlink_to(source)
    return target / "bin" / "python"


@pytest.fixture(scope="module")
def bare_python(tmp_path_factory) -> Path:
    return _torch_only(tmp_path_factory.mktemp("bare") / "venv")


def _bare_env(bare: Path) -> dict[str, str]:
    keep = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV", "PHASE25_"))}
    return {**keep, "PATH": f"{bare.parent}{os.pathsep}{keep.get('PATH', '')}", "PYTHONPATH": str(REPO / "scripts")}


@pytest.mark.slow  # a bare interpreter started with torch: `make test` runs it, `make check` does not
def test_the_bare_interpreter_has_torch_and_nothing_of_the_site(bare_python):
    probe = (
        "import importlib.util as u, torch; print(torch.__version__.split('+')[0], "
        "[m for m in ('pygments', 'mkdocs', 'markdown', 'yaml', 'nbformat', 'playwright', 'numpy') "
        "if u.find_spec(m)])"
    )
    result = bounded.run(
        [str(bare_python), "-c", probe], capture_output=True, text=True, env=_bare_env(bare_python), timeout=120
    )
    assert result.returncode == 0 and result.stdout.split(" ", 1)[1].strip() == "[]", result.stdout + result.stderr


@pytest.mark.slow
def test_a_snippet_runs_through_the_command_line_on_a_python_with_torch_only(bare_python, toy, tmp_path):
    toy.add("page/a", "import torch\nprint('sum:', torch.ones(3).sum().item())\n", devices='["cpu", "cuda"]')
    toy.add("page/b", "print('no torch needed')\n")
    archive = tmp_path / "records.tar.gz"
    command = [
        str(bare_python),
        "-m",
        "phase25",
        "--root",
        str(toy.root),
        "run",
        "--device",
        "all",
        "-j2",
        "--archive",
        str(archive),
    ]
    result = bounded.run(command, capture_output=True, text=True, env=_bare_env(bare_python), timeout=300, check=False)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr and "no CUDA device here" in result.stderr
    with tarfile.open(archive) as packed:  # the devices that ran: no CUDA record is made, none is faked
        assert sorted(packed.getnames()) == ["records/page/a.cpu.json", "records/page/b.cpu.json"]
    from phase25.core import records

    assert records.load(toy.layout, "page/a", "cpu").stdout == "sum: 3.0\n"
    report = bounded.run(
        [str(bare_python), "-m", "phase25", "--root", str(toy.root), "report"],
        capture_output=True,
        text=True,
        env=_bare_env(bare_python),
        timeout=120,
        check=False,
    )
    assert report.returncode == 0 and "1 CUDA records not captured yet" in report.stderr, report.stderr


@pytest.mark.slow  # a bare interpreter started with torch: `make test` runs it, `make check` does not
def test_the_gpu_capture_script_fails_plainly_without_a_gpu_on_a_python_with_torch_only(bare_python, tmp_path):
    script = textwrap.dedent(f"""\
        set -e
        test "$(command -v python3)" = {bare_python.parent / "python3"}
        bash {REPO / "scripts/capture_gpu.sh"} {tmp_path / "out.tar.gz"}
    """)
    result = bounded.run(
        ["bash", "-c", script], capture_output=True, text=True, timeout=300, check=False, env=_bare_env(bare_python)
    )
    assert result.returncode == 2, result.stdout + result.stderr
    assert "--require-device cuda, but torch sees no CUDA device" in result.stderr
    assert "Traceback" not in result.stderr and not (tmp_path / "out.tar.gz").exists()
