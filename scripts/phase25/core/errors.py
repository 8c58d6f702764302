"""One kind of error for every bad input: it names the file, and the line when there is one.

The command line prints it as one line and exits with status 2; the MkDocs
adapter turns it into a build error. Neither shows a traceback, because the
mistake is in the project's files, not in this code.
"""

from __future__ import annotations

import re
import tomllib

_TOML_AT = re.compile(r"\s*\(at (?:line (\d+), column \d+|end of document)\)")


class SourceError(ValueError):
    """A file of the project that cannot be used as it is."""

    def __init__(self, path: str, message: str, line: int | None = None) -> None:
        self.path = path
        self.line = line
        self.message = message
        super().__init__(f"{path}:{line}: {message}" if line else f"{path}: {message}")


class WriteError(SourceError):
    """A file this code was writing could not be written (a full disk, a read-only folder); the old file is
    left as it was."""


class Interrupted(Exception):
    """The user stopped a run (Ctrl-C or SIGTERM); everything it started is gone."""


def toml_problem(exc: tomllib.TOMLDecodeError) -> tuple[str, int | None]:
    """What tomllib says is wrong, without its position, and the line it names (1-based, in the TOML text it read);
    ``None`` when it says "end of document": the caller knows which line of its file that is."""
    found = _TOML_AT.search(str(exc))
    return _TOML_AT.sub("", str(exc)), int(found.group(1)) if found and found.group(1) else None
