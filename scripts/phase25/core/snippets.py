"""What a snippet is: a file under ``snippets/``, its header (see :mod:`header`) and what it depends on."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from .errors import SourceError
from .header import Header, parse
from .header_block import code_of, first_code_line
from .names import inside, linked, refuse_unreadable, regular_files
from .paths import Layout
from .sections import Section, sections


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

    @cached_property
    def sections(self) -> list[Section]:
        """The sections its page shows (see :mod:`sections`); none: the page shows it whole."""
        return sections(self.source, self.where, self.code_line)


PAGE = re.compile(r"^[a-z0-9][a-z0-9-]*$")  # a folder of snippets/: the page it belongs to
NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")  # a snippet's file name: what a directive names


def _refuse_unreachable(layout: Layout) -> None:
    """Every .py file under snippets/ must be a snippet a directive can name, or a helper (``_*.py``); no file
    or folder there is a symbolic link (a helper is packed into kits, a snippet published), a FIFO, a name that is
    not text or a file too large to read (names.refuse_unreadable)."""
    refuse_unreadable(layout.snippets, layout.root)
    for path in sorted(layout.snippets.rglob("*.py")):
        rel = path.relative_to(layout.snippets)
        if "__pycache__" in rel.parts or path.name.startswith("_"):
            continue
        where = f"snippets/{rel.as_posix()}"
        if len(rel.parts) != 2:
            raise SourceError(where, "a snippet lives in snippets/<page>/<name>.py: no directive can name this file")
        if not PAGE.match(rel.parts[0]) or not NAME.match(path.stem):
            raise SourceError(
                where,
                "no directive can name this snippet: the page folder takes lower-case letters, "
                "digits and '-', the file name letters, digits and '_' (a Python identifier)",
            )


def discover(layout: Layout) -> list[Snippet]:
    """Every ``snippets/<page>/<name>.py`` (helpers named ``_*.py`` excluded), sorted by id."""
    _refuse_unreachable(layout)
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
        snippet = Snippet(id=snippet_id, path=path, header=parse(source, where))
        _ = snippet.sections  # a bad marker is refused by every command, not only when a page shows it
        found.append(snippet)
    return found


def dependency_files(snippet: Snippet, layout: Layout) -> list[Path]:
    """Every file a snippet declares in ``deps``, a folder standing for all its files.

    A dependency is read from the repository's own files only: a dependency that is, passes through or
    holds a symbolic link is refused, wherever the link points (names.linked).
    """
    files: list[Path] = []
    for dep in snippet.header.deps:
        path = layout.root / dep
        if (link := linked(path, layout.root)) is not None:
            where = "leads outside the repository" if not inside(link, layout.root) else "is a symbolic link"
            name = link.relative_to(layout.root).as_posix()
            raise SourceError(snippet.where, f"declares a dependency that {where}: {dep} ({name}); links are not read")
        if path.is_dir():
            found, links = regular_files(path)
            if links:
                name = links[0].relative_to(layout.root).as_posix()
                to = "outside the repository" if not inside(links[0], layout.root) else "(to a file of the repository)"
                raise SourceError(snippet.where, f"its dependency {dep} holds a link {to}: {name}; links are not read")
            _refuse_unreadable_dependency(snippet, path, layout)
            files += [p for p in found if "__pycache__" not in p.parts]
        elif path.exists():
            _refuse_unreadable_dependency(snippet, path, layout)
            files.append(path)
        else:
            raise SourceError(snippet.where, f"declares a dependency that does not exist: {dep}")
    return files


def _refuse_unreadable_dependency(snippet: Snippet, path: Path, layout: Layout) -> None:
    """A dependency is hashed into every record's key and copied into every run: no FIFO (the read would wait
    forever, or the file be silently left out), no name that is no text, no file past the build's limit."""
    try:
        refuse_unreadable(path, layout.root)
    except SourceError as exc:
        message = f"declares a dependency the runner must not read: {exc.path} {exc.message}"
        raise SourceError(snippet.where, message) from None


def text_bytes(path: Path) -> bytes:
    """A file's bytes as hashed: text with Windows line endings reads as the same text with LF ones.

    A checkout with ``core.autocrlf=true`` holds CRLF files; the same commit checked out on CI holds LF
    ones. Hashing both alike keeps a record current on both. A file that is not UTF-8 text (a
    checkpoint) is hashed as it is.
    """
    data = path.read_bytes()
    if b"\r\n" not in data or b"\0" in data:
        return data
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return data
    return data.replace(b"\r\n", b"\n")


def source_sha256(snippet: Snippet, layout: Layout) -> str:
    """Hash of the snippet and every file it declares in ``deps``, line endings normalized (see text_bytes)."""
    digest = hashlib.sha256(text_bytes(snippet.path))
    for path in dependency_files(snippet, layout):
        name = path.relative_to(layout.root).as_posix()
        digest.update(b"\0" + name.encode() + b"\0" + text_bytes(path))
    return digest.hexdigest()
