"""Build the lab notebooks from their sources: shared code, per-language prose, recorded outputs.

A lab is three things, none of them a notebook:

- ``snippets/lab-NN/<name>.py``: the code, one file for both languages, cut
  into cells by ``# %% <cell-id>`` lines (header ``cells = true``);
- ``docs/<lang>/labs/<page>.lab.md``: the prose of one language, with a
  ``::: cell lab-NN/<name>#<cell-id>`` line where each code cell goes;
- the snippet's CPU record, whose output the runner split per cell.

A ``::: cell <page>/<name>`` line without ``#<cell-id>`` stands for a whole snippet of its own (one that
is not a lab), for what the lab's process must not do itself: the emulated H200's code generation is made
on its own device, so its cell is followed by that record's provenance line, which names the emulation.

The notebooks ``docs/<lang>/labs/<page>.ipynb`` are generated from these and
committed so that the site and the download need no execution; a check
regenerates them and fails on any difference, so a hand-edited notebook (or one
left behind by a changed record) never reaches the site.
"""

from __future__ import annotations

import io
import json
import posixpath
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path

from ...core import cells
from ...core.atomic import write_atomic
from ...core.catalog import Catalog
from ...core.devices import LOCAL, REFERENCE
from ...core.names import read_inside
from ...core.records import Record
from ...core.snippets import dependency_files
from ..lang import strings
from ..lang.provenance_text import provenance_line
from ..page import directives, page_source, review

SUFFIX = ".lab.md"


class LabError(ValueError):
    """A lab that cannot be built: unknown cell, missing or failed record."""


@dataclass(frozen=True)
class Lab:
    lang: str
    source: Path  # docs/<lang>/labs/<page>.lab.md

    @property
    def notebook(self) -> Path:
        return self.source.with_name(self.source.name.removesuffix(SUFFIX) + ".ipynb")


def find(docs: Path) -> list[Lab]:
    return [Lab(lang, path) for lang in strings.LANGUAGES for path in sorted((docs / lang).rglob(f"*{SUFFIX}"))]


HEADING_ID = re.compile(r"^(?P<heading>#{1,6} .*?)[ \t]*\{[ \t]*#(?P<id>[\w-]+)[ \t]*\}[ \t]*$", re.MULTILINE)


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


# A Markdown link to a page of the site, written as the page's source: `[text](../theory/02-x.md#anchor)`.
PAGE_LINK = re.compile(r"\]\((?P<path>(?![a-z][a-z0-9+.-]*:|/|#)[^)\s#]+?)\.md(?P<anchor>#[\w-]+)?\)")


def _page_address(path: str) -> str:
    """Where a source page linked from ``docs/<lang>/labs/`` is published, from the lab's own page
    (``labs/<name>/``): ``../theory/02-x.md`` becomes ``../../theory/02-x/``. mkdocs-jupyter leaves a notebook's
    links as they are, and a ``.md`` address leads nowhere on the built site."""
    page = posixpath.normpath(posixpath.join("labs", path))
    folder = "." if page == "index" else page.removesuffix("/index")
    return posixpath.relpath(folder, "labs/_") + "/"


def _notebook_markdown(text: str) -> str:
    """Jupyter's Markdown has no `{ #id }`: keep the id as an anchor before the heading; links to the site's pages
    point at their published addresses."""
    text = PAGE_LINK.sub(lambda m: f"]({_page_address(m['path'])}{m['anchor'] or ''})", text)
    return HEADING_ID.sub(lambda m: f'<a id="{m.group("id")}"></a>\n\n{m.group("heading")}', text)


def _record(lab: Lab, catalog: Catalog, snippet_id: str, device: str) -> Record:
    """The current, ok record a cell shows; anything else stops the lab with the reason."""
    standing = catalog.standing(snippet_id, device)
    if standing.state != "current" or standing.record is None or standing.record.status != "ok":
        raise LabError(
            f"{lab.source}: the {device} record of {snippet_id} is {standing.state} "
            f"({standing.reason or (standing.record and standing.record.error)}); run `make records`"
        )
    return standing.record


def whole_snippet(lab: Lab, catalog: Catalog, snippet_id: str) -> tuple[str, dict]:
    """A ``::: cell <snippet>`` of a snippet that is not a lab: one cell, its whole code and output, on the one
    device it is made on here (its CPU record, or else its emulated one)."""
    snippet = catalog.snippets.get(snippet_id)
    if snippet is None or snippet.header.cells:
        raise LabError(f"{lab.source}: {snippet_id!r} is not a snippet of its own (a lab's cells need '#<cell>')")
    local = [device for device in snippet.header.devices if device in LOCAL]
    if not local:
        raise LabError(f"{lab.source}: {snippet_id} is made on no device of this machine ({snippet.header.devices})")
    device = local[0]
    record = _record(lab, catalog, snippet_id, device)
    outputs = [
        {"name": name, "output_type": "stream", "text": _lines(stream)}
        for name, stream in (("stdout", record.stdout), ("stderr", record.stderr))
        if stream.strip()
    ]
    return device, {
        "cell_type": "code",
        "execution_count": None,
        "metadata": {},
        "outputs": outputs,
        "source": _lines(snippet.code),
    }


def code_cell(lab: Lab, catalog: Catalog, target: str) -> tuple[str, dict]:
    """The code cell a ``::: cell <snippet>#<cell>`` directive stands for, with its recorded output."""
    snippet_id, _, cell_id = target.partition("#")
    snippet = catalog.snippets.get(snippet_id)
    if snippet is None or not snippet.header.cells:
        raise LabError(f"{lab.source}: {target!r} is not a cell of a lab snippet (cells = true)")
    code = cells.split_code(snippet.code)
    if cell_id not in code:
        raise LabError(f"{lab.source}: snippets/{snippet_id}.py has no cell {cell_id!r} (has {list(code)})")
    record = _record(lab, catalog, snippet_id, "cpu")
    outputs = []
    for name, stream in (("stdout", record.stdout), ("stderr", record.stderr)):
        printed = cells.split_output(stream).get(cell_id, "")
        if printed.strip():
            outputs.append({"name": name, "output_type": "stream", "text": _lines(printed)})
    return snippet_id, {
        "cell_type": "code",
        "execution_count": None,
        "metadata": {},
        "outputs": outputs,
        "source": _lines(code[cell_id]),
    }


def unreviewed(lab: Lab, catalog: Catalog, targets: list[str]) -> None:
    """A cell whose output the new torch changed is not built while its box in an upgrade's review is unticked:
    the lab's prose still says what the old torch printed until someone has read it against the new output."""
    root, source = catalog.layout.root.resolve(), lab.source.resolve()
    if not source.is_relative_to(root):
        return  # a lab outside the project (a test's) has no review to read
    where = source.relative_to(root).as_posix()
    for item, box in review.unticked(root).items():
        if item.page == where and item.kind == "cell" and item.snippet in targets:
            raise LabError(
                f"{where}: its cell {item.snippet} ({item.device}) shows an output the new torch changed: read the "
                f"prose around it against the new output, then tick its box in {box.checklist} line {box.line}"
            )


def build(lab: Lab, catalog: Catalog) -> dict:
    """The notebook for one lab, as nbformat 4 JSON data: its prose cut at each code cell."""
    text = page_source.strip_front_matter(lab.source.read_text(encoding="utf-8"))
    cells_at = {d.line: d for d in directives.parse(text, lab.source.as_posix()) if d.kind == "cell"}
    unreviewed(lab, catalog, [d.arg or "" for d in cells_at.values()])
    notebook: list[dict] = []
    markdown: list[str] = []
    used: set[str] = set()
    for number, line in enumerate([*text.splitlines(keepends=True), ""], start=1):
        directive = cells_at.get(number)
        if directive is None and line:
            markdown.append(line)
            continue
        body = _notebook_markdown("".join(markdown)).strip("\n")
        if body:
            notebook.append({"cell_type": "markdown", "metadata": {}, "source": _lines(body)})
        markdown.clear()
        if directive is not None and "#" not in (directive.arg or ""):
            snippet_id = directive.arg or ""
            device, cell = whole_snippet(lab, catalog, snippet_id)
            notebook.append(cell)
            if device != REFERENCE:  # said where the cell stands: its output was not made as the lab's others were
                notebook.append(_provenance_cell(catalog.standing(snippet_id, device).record, snippet_id, lab.lang))
        elif directive is not None:
            snippet_id, cell = code_cell(lab, catalog, directive.arg or "")
            used.add(snippet_id)
            notebook.append(cell)
    for snippet_id in sorted(used):
        notebook.append(_provenance_cell(catalog.standing(snippet_id, "cpu").record, snippet_id, lab.lang))
    count = 0
    for index, cell in enumerate(notebook):  # nbformat 4.5 wants stable cell ids; code cells count up
        cell["id"] = f"{cell['cell_type']}-{index:02d}"
        if cell["cell_type"] == "code":
            count += 1
            cell["execution_count"] = count
    return {
        "cells": notebook,
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def _provenance_cell(record: Record | None, snippet_id: str, lang: str) -> dict:
    assert record is not None  # _record() refused a lab whose record is not current
    line = provenance_line(record, lang)
    return {"cell_type": "markdown", "metadata": {}, "source": [f"*{line} · `snippets/{snippet_id}.py`*"]}


def dumps(notebook: dict) -> str:
    return json.dumps(notebook, indent=1, ensure_ascii=False, sort_keys=True) + "\n"


def stale(catalog: Catalog, docs: Path) -> list[str]:
    """Labs whose committed notebook differs from what their sources produce now."""
    problems = []
    for lab in find(docs):
        try:
            expected = dumps(build(lab, catalog))
        except LabError as exc:
            problems.append(str(exc))
            continue
        current = lab.notebook.read_text(encoding="utf-8") if lab.notebook.exists() else None
        if current != expected:
            state = "missing" if current is None else "out of date (hand-edited, or its sources changed)"
            problems.append(f"{lab.notebook.relative_to(docs.parent)} is {state}; run `make labs`")
    return problems


def write_all(catalog: Catalog, docs: Path) -> list[Path]:
    """Regenerate every notebook; returns the ones whose content changed."""
    changed = []
    for lab in find(docs):
        text = dumps(build(lab, catalog))
        if not lab.notebook.exists() or lab.notebook.read_text(encoding="utf-8") != text:
            write_atomic(lab.notebook, text)
            changed.append(lab.notebook)
    return changed


COMMANDS = (
    "```bash\npython3 -m venv .venv\n.venv/bin/pip install torch=={torch} jupyter\n"
    ".venv/bin/jupyter lab {notebook}\n```"
)


def download_name(lab: Lab) -> str:
    return lab.notebook.with_suffix(".zip").name


def bundle(lab: Lab, catalog: Catalog) -> bytes:
    """The lab as a reader downloads it: the notebook, what its code imports, the weights, a README.

    Files its snippet declares under ``scripts/`` go to the top of the archive, where the notebook's
    folder puts them on the import path; the archive is the same bytes for the same sources.
    """
    text = lab.source.read_text(encoding="utf-8")
    found = directives.parse(text, str(lab.source))
    used = sorted({(d.arg or "").partition("#")[0] for d in found if d.kind == "cell"})
    root = catalog.layout.root
    files: dict[str, bytes] = {lab.notebook.name: read_inside(lab.notebook, root)}
    for snippet_id in used:
        for path in dependency_files(catalog.snippets[snippet_id], catalog.layout):
            relative = path.relative_to(root).as_posix()
            files[relative.removeprefix("scripts/")] = read_inside(path, root)
    title = page_source.headings(text)[0][1]
    torch = catalog.torch or "?"
    commands = COMMANDS.format(torch=torch, notebook=lab.notebook.name)
    files["README.md"] = strings.text(lab.lang, "lab_readme", title=title, torch=torch, commands=commands).encode()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(files):
            info = zipfile.ZipInfo(f"{lab.notebook.stem}/{name}", date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            archive.writestr(info, files[name], zipfile.ZIP_DEFLATED)
    return buffer.getvalue()
