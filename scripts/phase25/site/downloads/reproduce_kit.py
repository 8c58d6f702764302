"""The reproduction kit of a page: what a reader downloads to run its snippets and compare with the records.

One zip per folder of ``snippets/`` (one per page): the page's snippets, the repository files they
declare in ``deps``, their CPU records, and a ``reproduce.py`` that runs one snippet and compares its
output with its record (see kit/reproduce.py), with the modules of ``core`` it imports (standard library
only) and none other: what goes into ``core`` does not ship to readers unless the kit needs it.
The archive holds the same bytes for the same sources, so the site is reproducible too.
"""

from __future__ import annotations

import ast
import io
import zipfile
from pathlib import Path
from weakref import WeakKeyDictionary

from ...core import records
from ...core.catalog import Catalog
from ...core.devices import in_kit
from ...core.names import read_inside, refuse_links
from ...core.snippets import Snippet, dependency_files
from ..lang import strings

PACKAGE = Path(__file__).resolve().parents[2]
CORE = PACKAGE / "core"
KIT = PACKAGE / "kit"
LAUNCHER = '''"""Run a snippet of this page as the site did, and compare its output with the site's record.

    python reproduce.py <snippet id>      (e.g. python reproduce.py {example})

Needs Python 3.11 or newer and torch; see README.md.
"""
import os
import sys
from pathlib import Path

here = Path(__file__).resolve().parent
os.environ["PYTHONPATH"] = str(here / "scripts")
os.execv(sys.executable, [sys.executable, "-m", "phase25.kit.reproduce", *sys.argv[1:]])
'''
_KITS: WeakKeyDictionary[Catalog, dict[str, bytes]] = WeakKeyDictionary()


def offered(snippet: Snippet) -> bool:
    """A kit is offered for CPU snippets that are not labs (a lab has a download of its own)."""
    return any(in_kit(device) for device in snippet.header.devices) and not snippet.header.cells


def url(folder: str) -> str:
    return f"reproduce/{folder}.zip"


def _files(catalog: Catalog, folder: str) -> dict[str, bytes]:
    layout = catalog.layout
    chosen = [s for s in catalog.snippets.values() if s.id.split("/")[0] == folder and offered(s)]
    files: dict[str, bytes] = {}
    for snippet in chosen:
        for path in (snippet.path, *dependency_files(snippet, layout)):
            files[path.relative_to(layout.root).as_posix()] = read_inside(path, layout.root)
        record = records.record_path(layout, snippet.id, "cpu")
        refuse_links(record, layout.records)  # (snippets, helpers and deps are refused links where they are found)
        if record.is_file():
            files[f"records/{snippet.id}.cpu.json"] = read_inside(record, layout.records)
    for helper in sorted((layout.snippets / folder).glob("_*.py")):  # helpers a snippet imports by its folder
        files[f"snippets/{folder}/{helper.name}"] = read_inside(helper, layout.root)
    files["scripts/phase25/__init__.py"] = (
        b'"""Only the core of the site\'s machinery: enough to reproduce an output."""\n'
    )
    for module in shipped_modules():
        files[f"scripts/phase25/{module.relative_to(PACKAGE).as_posix()}"] = module.read_bytes()
    example = chosen[0].id if chosen else f"{folder}/<name>"
    files["reproduce.py"] = LAUNCHER.format(example=example).encode()
    files["README.md"] = readme(folder, catalog.torch or "<torch>", example, [s.id for s in chosen]).encode()
    return files


def _imported(module: Path) -> set[Path]:
    """The package's modules that ``module`` imports, at its top or inside a function, as files."""
    found: set[Path] = set()
    for node in ast.walk(ast.parse(module.read_bytes())):
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level:
            base = module.parents[node.level - 1]
        elif (node.module or "").startswith("phase25."):
            base = PACKAGE.parent
        else:
            continue
        target = base.joinpath(*(node.module or "").split(".")) if node.module else base
        candidates = [target.with_suffix(".py"), target / "__init__.py"]
        candidates += [target / f"{alias.name}.py" for alias in node.names]
        found.update(c for c in candidates if c.is_file())
    return found


def shipped_modules() -> list[Path]:
    """The kit's program and the modules it imports, followed import by import: a reader gets what runs."""
    shipped: set[Path] = set()
    todo = {*KIT.glob("*.py"), CORE / "__init__.py"}
    while todo:
        module = todo.pop()
        shipped.add(module)
        todo |= _imported(module) - shipped
    return sorted(shipped)


def readme(folder: str, torch: str, example: str, ids: list[str]) -> str:
    """The kit's README in every language of the site, the default first: one zip serves every page's readers."""
    said = [
        strings.text(lang, "reproduce_readme", folder=folder, torch=torch, example=example, ids=", ".join(ids))
        for lang in strings.LANGUAGES
    ]
    return "\n---\n\n".join(said)


def kit(catalog: Catalog, folder: str) -> bytes:
    """The zip of one folder's kit, built once per catalog (once per site build)."""
    built = _KITS.setdefault(catalog, {})
    if folder not in built:
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for name, data in sorted(_files(catalog, folder).items()):
                info = zipfile.ZipInfo(f"reproduce-{folder}/{name}", date_time=(1980, 1, 1, 0, 0, 0))
                info.external_attr = 0o644 << 16
                archive.writestr(info, data, zipfile.ZIP_DEFLATED)
        built[folder] = buffer.getvalue()
    return built[folder]
