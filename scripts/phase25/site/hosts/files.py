"""The files the site publishes beside its pages: each snippet's source, each page's reproduction kit, the
atlas's data and the drift reports' long diffs, each claimed by the one thing it comes from (see
:class:`site_files.Owners`)."""

from __future__ import annotations

from ...core.catalog import Catalog
from ..downloads import drift_files, reproduce_kit
from ..downloads.published import source_url
from ..kinds import atlas
from . import site_files


def reproduce_files(
    catalog: Catalog, owners: site_files.Owners | None = None, atlases: set[str] | None = None
) -> dict[str, bytes]:
    """Each page's reproduction kit, and each snippet's file on its own, as the site publishes them; each
    claimed in ``owners`` by what it comes from. The atlas's data comes only from the records of the
    snippets in ``atlases`` (those an ``::: atlas`` directive names; every record when None)."""
    owners = owners or site_files.Owners()
    offered = [s for s in catalog.snippets.values() if reproduce_kit.offered(s)]
    for s in offered:
        owners.claim(source_url(s.id), f"snippets/{s.id}.py", s.path.read_bytes())
    for standing in catalog.standings.values():  # the atlas's data, fetched by its detail view
        if standing.usable and standing.record is not None and (atlases is None or standing.record.snippet in atlases):
            try:
                published = atlas.data_files(standing.record, catalog.layout.root)
            except atlas.Refused:  # its page already says why, as a problem; nothing of it is published
                continue
            for name, text in published.items():
                owners.claim(name, f"the record of {standing.record.snippet} ({standing.record.device})", text.encode())
    for name, diff in drift_files.files(catalog.layout.root).items():
        owners.claim(name, f"the drift report {name.split('/')[1]}", diff.encode())
    for folder in sorted({s.id.split("/")[0] for s in offered}):
        owners.claim(
            reproduce_kit.url(folder), f"the reproduction kit of snippets/{folder}", reproduce_kit.kit(catalog, folder)
        )
    return {k: v if isinstance(v, bytes) else v.encode() for k, v in owners.content.items()}
