"""The catalog: every snippet, its record on each device, and whether that record can be shown.

Computed once per build and once per command, then read by every consumer: the
runner's plan, the MkDocs adapter, the execution report, the labs and the
benchmark. A record is *current* when it was made from the snippet as it is now
(source and declared dependencies), in the environment the runner gives it now,
and, for CPU records, with the torch installed here.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from . import environment, records
from .devices import LOCAL, pending_when_missing
from .names import regular_files, shown
from .paths import Layout
from .records import Record, RecordError
from .snippets import Snippet, discover, source_sha256

# What a reader is told about a (snippet, device): the state, or how a current run ended.
VERDICTS = ("current", "failed", "timeout", "stale", "missing", "corrupt")


@dataclass(frozen=True)
class Standing:
    """Why a record can or cannot be shown."""

    state: str  # "current" | "missing" | "stale" | "corrupt"
    reason: str = ""
    record: Record | None = None
    cause: str = ""  # why a record is stale, as a code a page says in its language: "source" | "environment" | "torch"

    @property
    def verdict(self) -> str:
        """The state, except that a current record of a failed run says how it failed."""
        if self.state == "current" and self.record is not None and self.record.status != "ok":
            return self.record.status
        return self.state

    @property
    def usable(self) -> bool:
        """A current record of a run that ended well: the only kind a page shows without a banner."""
        return self.state == "current" and self.record is not None and self.record.status == "ok"

    def why(self) -> str:
        """The reason a record cannot be shown, or how its run failed."""
        return self.reason or (self.record.error if self.record else None) or ""

    def is_problem(self, device: str) -> bool:
        """Anything but a usable record; a CUDA record not captured yet is a gap, not a problem."""
        return self.verdict != "current" and not (pending_when_missing(device) and self.verdict == "missing")


def pinned_version(root: Path, package: str) -> str | None:
    """The release of ``package`` a tree's requirements.txt pins, None when it pins none."""
    try:
        text = (root / "requirements.txt").read_text(encoding="utf-8")
    except OSError:
        return None
    found = re.search(rf"^{re.escape(package)}==(\S+)", text, re.MULTILINE)
    return found.group(1) if found else None


def pinned_torch(root: Path) -> str | None:
    return pinned_version(root, "torch")


def archived() -> bool:
    """This build is of an archived version of the site (``PHASE25_ARCHIVED=1``): a past release published beside
    the current one, from its committed records, never executed."""
    return os.environ.get("PHASE25_ARCHIVED") == "1"


def judged_torch(root: Path) -> str | None:
    """The torch a build judges CPU records by: the installed one, or, for an archived version, the one its own
    tree pins: its committed records are its outputs."""
    return pinned_torch(root) if archived() else installed_torch()


def installed_torch() -> str | None:
    """torch's version on this machine, read without importing torch."""
    try:
        return metadata.version("torch").split("+")[0]
    except metadata.PackageNotFoundError:
        return None


def standing_of(snippet: Snippet, device: str, digest: str, record: Record | None, torch: str | None) -> Standing:
    """Compare a record with the snippet as it is now; CUDA records are judged on source and environment."""
    if record is None:
        return Standing("missing", "no record")
    if record.source_sha256 != digest:
        return Standing(
            "stale", "the snippet (or a declared dependency) changed since it was recorded", record, "source"
        )
    if record.env_key != environment.env_key(snippet, device):
        return Standing("stale", "the snippet's environment or the runner's pins changed", record, "environment")
    recorded = record.provenance.get("torch")
    if device in LOCAL and torch and recorded and recorded != torch:
        return Standing("stale", f"recorded with torch {recorded}, this machine has {torch}", record, "torch")
    return Standing("current", "", record)


class Catalog:
    """Snippets, source hashes and the freshness of every (snippet, device), read once."""

    def __init__(self, layout: Layout, torch: str | None = None) -> None:
        self.layout = layout
        self.torch = torch
        self.snippets: dict[str, Snippet] = {s.id: s for s in discover(layout)}
        self.digests = {sid: source_sha256(s, layout) for sid, s in self.snippets.items()}
        self.standings: dict[tuple[str, str], Standing] = {}
        for snippet in self.snippets.values():
            for device in snippet.header.devices:
                self.standings[(snippet.id, device)] = self._read(snippet, device)

    @classmethod
    def here(cls, layout: Layout) -> Catalog:
        """The catalog as this machine judges it (its installed torch)."""
        return cls(layout, installed_torch())

    def _read(self, snippet: Snippet, device: str) -> Standing:
        try:
            record = records.load(self.layout, snippet.id, device)
        except RecordError as exc:
            return Standing("corrupt", str(exc))
        return standing_of(snippet, device, self.digests[snippet.id], record, self.torch)

    def standing(self, snippet_id: str, device: str) -> Standing:
        return self.standings[(snippet_id, device)]

    def update(self, record: Record) -> None:
        """Take a record the runner just wrote, without reading the disk again."""
        snippet = self.snippets[record.snippet]
        self.standings[(record.snippet, record.device)] = standing_of(
            snippet, record.device, self.digests[record.snippet], record, self.torch
        )

    def problems(self) -> list[str]:
        """Every record a strict build refuses, wherever it is shown (or not shown), and every file of records/
        that is no record a snippet asks for."""
        return [
            *(
                f"snippets/{sid}.py ({device}): {standing.verdict}: {standing.why()}"
                for (sid, device), standing in sorted(self.standings.items())
                if standing.is_problem(device)
            ),
            *self.strays(),
        ]

    def strays(self) -> list[str]:
        """Files of records/ that no snippet's device asks for: never read nor shown, so named, never kept unseen."""
        asked = {records.record_path(self.layout, sid, device) for sid, device in self.standings}
        found, links = regular_files(self.layout.records) if self.layout.records.is_dir() else ([], [])
        return [
            f"{shown(path, self.layout.root)}: no snippet asks for this record (a snippet renamed or removed, "
            "or a device dropped from its header): remove it"
            for path in sorted({*found, *links} - asked)
        ]
