"""Where each snippet appears: the page of its language that shows it, and the link that lands on its block.

The execution report lists every run; a reader who finds a row wants the output itself. Which page shows
a snippet is read from the pages' own directives (:func:`directives.shown`: a line in fenced code or in
a comment shows nothing), so a link never points at a page that merely mentions the snippet.
"""

from __future__ import annotations

import posixpath
from functools import cache
from pathlib import Path

from ..page import directives
from ..page.context import Page
from .snippet_code import anchor


def _url(src: str) -> str:
    """The address of a page below its language's root, as MkDocs' directory URLs make it."""
    path = src.removesuffix(".md")
    if path == "index" or path.endswith("/index"):
        return path.removesuffix("index")
    return path + "/"


@cache
def _shown_by(docs: Path, _stamp: float) -> dict[str, tuple[str, bool]]:
    """Snippet id -> (address below the language's root, whether its block has an id there) of the first page,
    in path order, that shows it. A lab's notebook shows its cells without ids: the link lands on the lab."""
    first: dict[str, tuple[str, bool]] = {}
    for path, found in directives.in_pages(docs.parent, docs.name).items():
        rel = path.split("/", 1)[1]  # below the language's folder
        lab = rel.endswith(".lab.md")
        for shown in sorted(directives.shown(found, "cell" if lab else "snippet")):
            first.setdefault(
                shown.split("#", 1)[0], (_url(rel.removesuffix(".lab.md") + ".md" if lab else rel), not lab)
            )
    return first


def link(snippet_id: str, page: Page) -> str | None:
    """A relative link from ``page`` to the block of ``snippet_id`` on the page of its language that shows it."""
    where = Path(page.where)  # docs/<lang>/<path>.md
    docs = page.layout.root / where.parts[0] / where.parts[1]
    newest = max((p.stat().st_mtime for p in docs.rglob("*.md")), default=0.0)  # a preview's edit is seen
    found = _shown_by(docs, newest).get(snippet_id)
    if found is None:
        return None
    target, anchored = found
    here = _url(where.relative_to(*where.parts[:2]).as_posix())
    relative = posixpath.relpath(target or ".", here or ".")
    return ("" if relative == "." else relative + "/") + (f"#{anchor(snippet_id)}" if anchored else "")
