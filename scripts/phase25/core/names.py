"""The one rule for every path a header, a record or a run names: relative, inside its root, no links out.

A header declares ``artifacts``, ``publish`` and ``deps``; a record names the
files it kept and the files the site publishes; a run leaves files in its
folder. Each of these names is data from a snippet or a record, so each is
checked here before anything is read, copied or written:

- :func:`problem_with` says what is wrong with a name as text: empty, absolute,
  a ``..`` or ``.`` segment, a backslash, a control character, too long;
- :func:`inside` resolves a path (links included) and says whether it stays
  inside its root: the run folder, the repository or ``site/``;
- :func:`refuse_unreadable` judges every entry of a folder the build reads before any is read.
"""

from __future__ import annotations

import os
import re
import stat
import unicodedata
from pathlib import Path

from . import limits
from .errors import SourceError

MAX_NAME = 240  # characters of one relative name; file systems allow 255 bytes per segment
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def problem_with(name: object, *, pattern: bool = False) -> str | None:
    """Why ``name`` cannot be a relative path inside a root, or None when it can.

    ``pattern`` allows the wildcards of a header's ``publish`` and ``artifacts`` (``*``, ``?``, ``[``).
    """
    if not isinstance(name, str) or not name:
        return "is empty"
    if len(name) > MAX_NAME:
        return f"is longer than {MAX_NAME} characters"
    if _CONTROL.search(name) or any(unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") for c in name):
        return "holds a control character"
    if "\\" in name:
        return "holds a backslash (write paths with '/')"
    if name.startswith(("/", "~")) or re.match(r"^[A-Za-z]:", name):
        return "is absolute (write it relative to its folder)"
    segments = name.split("/")
    if any(s in ("", ".", "..") for s in segments):
        return "has an empty, '.' or '..' segment (it must stay inside its folder)"
    if not pattern and any(c in name for c in "*?["):
        return "holds a wildcard"
    return None


def inside(path: Path, root: Path) -> bool:
    """Whether ``path``, every link in it resolved, is ``root`` or below it."""
    try:
        return Path(os.path.realpath(path)).is_relative_to(os.path.realpath(root))
    except (OSError, ValueError):
        return False


def read_inside(path: Path, root: Path) -> bytes:
    """The bytes of ``path`` when, every link resolved, it is inside ``root``: what a reader's download may hold
    (a helper or a notebook that links out of the repository would carry that file to every reader)."""
    if not inside(path, root):
        raise SourceError(str(path), f"is a link to a file outside {root}: it cannot go into a download")
    return path.read_bytes()


def regular_files(folder: Path) -> tuple[list[Path], list[Path]]:
    """(the regular files below ``folder``, the links below it), without following any link."""
    files, links = [], []
    for top, dirs, names in os.walk(folder, followlinks=False):
        for name in [*dirs, *names]:
            path = Path(top) / name
            if path.is_symlink():
                links.append(path)
            elif name in names and path.is_file():
                files.append(path)
        dirs[:] = [d for d in dirs if not (Path(top) / d).is_symlink()]
    return sorted(files), sorted(links)


def linked(path: Path, root: Path) -> Path | None:
    """The first symbolic link on the way from ``root`` down to ``path`` (``path`` itself included), or None.

    The one test for "nothing reached through a symbolic link is read": a link is refused wherever it
    points (outside the repository, to a secret, or to another file of the repository, which would
    then be read and published under a second name). ``root`` itself may be a link (a checkout
    reached through one); below it, nothing may be.
    """
    try:
        parts = path.relative_to(root).parts
    except ValueError:
        return path if path.is_symlink() else None
    step = root
    for part in parts:
        step = step / part
        if step.is_symlink():
            return step
    return None


_LINK = "is a symbolic link: nothing reached through a link is read, packed or published"


def refuse_links(folder: Path, root: Path) -> None:
    """A SourceError naming the first symbolic link in ``folder`` (or on the way to it from ``root``)."""
    found = linked(folder, root)
    if found is None and folder.is_dir():
        links = regular_files(folder)[1]
        found = links[0] if links else None
    if found is not None:
        where = found.relative_to(root).as_posix() if found.is_relative_to(root) else str(found)
        raise SourceError(where, _LINK)


def shown(path: Path, root: Path) -> str:
    """A path as a message names it: relative to ``root``, the bytes of a name that is not UTF-8 escaped."""
    rel = path.relative_to(root).as_posix() if path.is_relative_to(root) else str(path)
    return os.fsencode(rel).decode("utf-8", "backslashreplace")


def _unreadable(path: Path, root: Path) -> str | None:
    """Why the build must not read ``path``, an entry found below ``root`` without following links; None if it may."""
    rel = path.relative_to(root).as_posix()
    try:
        rel.encode("utf-8")
    except UnicodeEncodeError:
        return "has a name that is not UTF-8 text: rename it"
    if (why := problem_with(rel, pattern=True)) is not None:
        return f"has a name that {why}"
    info = path.lstat()
    if stat.S_ISLNK(info.st_mode):
        return _LINK
    if stat.S_ISDIR(info.st_mode):
        return None
    if not stat.S_ISREG(info.st_mode):
        return "is not a regular file (a FIFO, a socket or a device, which a read could wait on forever)"
    if info.st_size > limits.MAX_INPUT_BYTES:
        return f"holds {info.st_size} bytes, more than a file the build reads may ({limits.MAX_INPUT_BYTES})"
    return None


def refuse_unreadable(folder: Path, root: Path) -> None:
    """A SourceError naming the first entry of ``folder`` (or ``folder`` itself, a file) that the build must not
    read, before it reads any: a symbolic link (there or on the way from ``root``), anything but a folder or a
    regular file, a name that is not UTF-8 text or holds a control character, a file past ``MAX_INPUT_BYTES``."""
    if (found := linked(folder, root)) is not None:
        raise SourceError(shown(found, root), _LINK)
    if folder.exists() and not folder.is_dir() and (why := _unreadable(folder, root)) is not None:  # a file read
        raise SourceError(shown(folder, root), why)
    for top, dirs, files in os.walk(folder, followlinks=False):
        for name in sorted([*dirs, *files]):
            if (why := _unreadable(Path(top) / name, root)) is not None:
                raise SourceError(shown(Path(top) / name, root), why)
        dirs.sort()
