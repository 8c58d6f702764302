"""The "changed in X.Y" mark: an output that the last torch upgrade changed links to its diff.

A reader who knew the previous version's page sees at a glance which outputs are new. The mark is derived,
never written by hand: the drift report whose new side is the torch this site is built with (``torch-A-to-B``,
B the installed release) says which (snippet, device) changed, and the mark opens that snippet's diff on the
report's page (``#diff-<page>-<name>``): the id sits inside the diff's folded block, so following the link
unfolds it (browsers open a ``<details>`` that holds the fragment's target), with no script. With no such
report, or for an output it calls unchanged, no mark. An output that changed only with the build of torch
(a CPU-only wheel before, a CUDA build after: kind ``build`` across a build switch) is marked as such, not as
the release's change.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from ...core import drift, drift_rule
from ...core.errors import SourceError
from ..lang import languages
from ..lang.strings import text
from ..page.context import Page
from ..page.markup import escape


def diff_id(snippet_id: str) -> str:
    """The id of a snippet's diff on a drift page: ``theory-03/fsdp`` -> ``diff-theory-03-fsdp``."""
    return "diff-" + snippet_id.replace("/", "-")


@lru_cache(maxsize=8)
def _changed(reports: Path, torch: str, stamp: float) -> tuple[str, dict[tuple[str, str], str]]:
    """(report name, every changed (snippet, device) -> "build" when only the build changed it, else "release")
    of the report that ends at ``torch``; ``stamp`` is the folder's modification time, so a new report is read
    again. Two reports that end there, one reached through a link, or one that is no report stop the build naming
    the file: a mark must point at the one diff the drift page shows."""
    found = sorted(reports.glob(f"torch-*-to-{torch}.json"))
    if len(found) > 1:
        raise SourceError(_shown(found[1]), f"a second drift report ending at torch {torch}, beside {found[0].name}")
    for path in found:
        if path.is_symlink() or not path.is_file():
            raise SourceError(_shown(path), "is a symbolic link or no file: a drift report is read only as a file")
        try:
            report = drift.sound(reports.parents[1], path.stem)
        except ValueError as exc:
            raise SourceError(_shown(path), f"is no drift report: {exc}") from None
        switch = drift_rule.build_switch(report)
        changed = {
            (e["snippet"], e["device"]): "build" if switch and e["kind"] == "build" else "release"
            for e in report["entries"]
            if e["state"] == "changed"
        }
        return path.stem, changed
    return "", {}


def _shown(path: Path) -> str:
    return f"{drift.REPORTS}/{path.name}"


def _shows(drift_page: Path, name: str) -> bool:
    """Whether the drift page of a language shows report ``name``: a mark must not point at a page, or a diff, that
    is not there."""
    if not drift_page.is_file() or drift_page.is_symlink():
        return False
    return f"::: drift-report {name}" in drift_page.read_text(encoding="utf-8").splitlines()


def mark(page: Page, snippet_id: str, device: str) -> str:
    """The mark of one output, or "" when the last upgrade did not change it."""
    torch = page.catalog.torch
    reports = page.layout.root / drift.REPORTS
    if not torch or not reports.is_dir():
        return ""
    name, changed = _changed(reports, torch, reports.stat().st_mtime)
    cause = changed.get((snippet_id, device))
    if cause is None:
        return ""
    shown = f"docs/{page.lang}/reference/drift-torch-{torch}.md"
    if not _shows(page.layout.root / shown, name):
        raise SourceError(shown, f"does not show '::: drift-report {name}', whose diffs the changed-in marks link to")
    minor = ".".join(torch.split(".")[:2])
    href = f"{page.site_root}{languages.prefix(page.lang)}reference/drift-torch-{torch}/#{diff_id(snippet_id)}"
    label = text(page.lang, "changed_with_build") if cause == "build" else text(page.lang, "changed_in", version=minor)
    return f' · <a class="changed-mark" href="{escape(href)}">{escape(label)}</a>'
