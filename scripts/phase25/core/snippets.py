"""What a snippet is: a file under ``snippets/``, its header (see :mod:`header`) and what it depends on."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from .errors import SourceError
from .header import Header, code_of, first_code_line, parse
from .paths import Layout


@dataclass(frozen=True)
class Snippet:
    """A snippet file and what its header declares."""

    id: str  # "00-orientation/linear_grad_fn"
    path: Path
    header: Header

    @property
    def where(self) -> str:
        return f"snippets/{self.id}.py"

    @property
    def source(self) -> str:
        return self.path.read_text(encoding="utf-8")

    @cached_property
    def code(self) -> str:
        return code_of(self.source, self.where)

    @cached_property
    def code_line(self) -> int:
        """Line of the file where the code a reader sees starts (its numbers match tracebacks)."""
        return first_code_line(self.source, self.where)


def discover(layout: Layout) -> list[Snippet]:
    """Every ``snippets/<page>/<name>.py`` (helpers named ``_*.py`` excluded), sorted by id."""
    found = []
    for path in sorted(layout.snippets.glob("*/*.py")):
        if path.name.startswith("_"):
            continue
        snippet_id = path.relative_to(layout.snippets).with_suffix("").as_posix()
        where = f"snippets/{snippet_id}.py"
        try:
            source = path.read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            raise SourceError(where, f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
        found.append(Snippet(id=snippet_id, path=path, header=parse(source, where)))
    return found


def dependency_files(snippet: Snippet, layout: Layout) -> list[Path]:
    """Every file a snippet declares in ``deps``, a folder standing for all its files."""
    files: list[Path] = []
    for dep in snippet.header.deps:
        path = layout.root / dep
        if path.is_dir():
            files += sorted(p for p in path.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
        elif path.is_file():
            files.append(path)
        else:
            raise SourceError(snippet.where, f"declares a dependency that does not exist: {dep}")
    return files


def source_sha256(snippet: Snippet, layout: Layout) -> str:
    """Hash of the snippet and every file it declares in ``deps``."""
    digest = hashlib.sha256(snippet.path.read_bytes())
    for path in dependency_files(snippet, layout):
        name = path.relative_to(layout.root).as_posix()
        digest.update(b"\0" + name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()
