"""Writing the files of the built site that MkDocs does not write itself: published reports, downloads.

Every name comes from a record or a lab, so each is checked again here, where
the bytes land: it must be a relative name that stays inside ``site/`` (links
in the site folder resolved), and a write that fails says which file and why.
"""

from __future__ import annotations

from pathlib import Path

from ...core.atomic import write_atomic_bytes
from ...core.errors import SourceError
from ...core.names import inside, problem_with


def write(site: Path, name: str, content: str | bytes) -> Path:
    """Write ``site/<name>``; a name that leaves the site or a failed write is a SourceError naming it."""
    if (why := problem_with(name)) is not None:
        raise SourceError(f"site/{name}", f"not written: the name {why}")
    target = site / name
    if not inside(target, site):  # a link in site/ that leads elsewhere
        raise SourceError(f"site/{name}", "not written: it would land outside the site folder")
    data = content.encode("utf-8") if isinstance(content, str) else content
    write_atomic_bytes(target, data, shown_as=f"site/{name}", durable=False)  # the next build makes it again
    return target


class Owners:
    """Who writes each file of the built site: one name, one owner, every claim made before any write.

    MkDocs claims what it copies and renders (``docs/...`` files, by their source); this package claims
    what it adds (a record's published files, the reproduction kits, the atlas's data, a lab's download).
    Two sources that map to one name are refused with both named, before anything is written, so the
    site never holds whichever came last.
    """

    def __init__(self) -> None:
        self.owner: dict[str, str] = {}
        self.content: dict[str, str | bytes] = {}

    def claim(self, name: str, owner: str, content: str | bytes | None = None) -> None:
        """``owner`` writes ``site/<name>``; a name another owner holds is a SourceError naming both."""
        held = self.owner.setdefault(name, owner)
        if held != owner:
            raise SourceError(f"site/{name}", f"two sources publish this file: {held} and {owner}")
        if content is not None:
            if name in self.content:
                raise SourceError(f"site/{name}", f"{owner} publishes this file twice")
            self.content[name] = content

    def write_all(self, site: Path) -> None:
        """Write every claimed content (the names were checked, and no two owners share one)."""
        for name, content in self.content.items():
            write(site, name, content)
