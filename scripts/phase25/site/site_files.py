"""Writing the files of the built site that MkDocs does not write itself: published reports, downloads.

Every name comes from a record or a lab, so each is checked again here, where
the bytes land: it must be a relative name that stays inside ``site/`` (links
in the site folder resolved), and a write that fails says which file and why.
"""

from __future__ import annotations

from pathlib import Path

from ..core.atomic import write_atomic_bytes
from ..core.errors import SourceError
from ..core.names import inside, problem_with


def write(site: Path, name: str, content: str | bytes) -> Path:
    """Write ``site/<name>``; a name that leaves the site or a failed write is a SourceError naming it."""
    if (why := problem_with(name)) is not None:
        raise SourceError(f"site/{name}", f"not written: the name {why}")
    target = site / name
    if not inside(target, site):  # a link in site/ that leads elsewhere
        raise SourceError(f"site/{name}", "not written: it would land outside the site folder")
    data = content.encode("utf-8") if isinstance(content, str) else content
    write_atomic_bytes(target, data, shown_as=f"site/{name}")
    return target
