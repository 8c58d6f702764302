"""Where the files a record publishes, and the artifacts too big to inline, live in the built site."""

from __future__ import annotations

from ...core.records import Record

INLINE_ARTIFACT_BYTES = 8 * 1024  # a bigger file a snippet wrote is a page of its own, opened from a link
MANY = 6  # a record with more files than this lists them all as links (see record_html.MANY_FILES)


def published_url(record: Record, name: str) -> str:
    """Where a published file of a record lives in the built site, from its root."""
    return f"snippet-files/{record.snippet}/{record.device}/{name}"


def outside_files(record: Record) -> dict[str, str]:
    """The artifacts too big to inline: site path (a .txt a browser shows as it is) -> content."""
    return {
        published_url(record, f"{name}.txt"): content
        for name, content in sorted(record.artifacts.items())
        if not name.endswith(".mmd") and (len(content.encode()) > INLINE_ARTIFACT_BYTES or len(record.artifacts) > MANY)
    }


def source_url(snippet_id: str) -> str:
    """Where a snippet's file is published for a reader to download."""
    return f"snippet-files/{snippet_id}/{snippet_id.split('/')[1]}.py"
