"""Bringing a GPU capture back: an archive's CUDA records checked one by one before any reaches records/.

``tar xzf`` would write whatever an archive holds wherever its names point. This reads the archive as
data instead: every member must be a regular file named ``records/<page>/<name>.cuda.json`` (no link,
no ``..``, no other device), hold a record whose digest matches its content, made on a GPU (its
provenance names the device and its compute capability), from the snippet's sources and environment
as they are now. One bad member refuses the whole archive and nothing is written.

What this does not do: tell a record the capture made from one forged by someone who ran this code
themselves. The archive's attestation does that (see the README: verify it before unpacking).
"""

from __future__ import annotations

import re
import tarfile
from pathlib import Path

from ..core import limits, records
from ..core.atomic import write_atomic
from ..core.catalog import Catalog, standing_of
from ..core.errors import SourceError
from ..core.paths import Layout

_MEMBER = re.compile(r"records/(?P<id>[a-z0-9][a-z0-9-]*/[A-Za-z][A-Za-z0-9_]*)\.(?P<device>cuda)\.json")


def _members(archive: Path) -> list[tuple[str, bytes]]:
    found = []
    try:
        with tarfile.open(archive, "r:gz") as tar:
            for member in tar.getmembers():
                if member.isdir():
                    continue
                if not member.isfile() or not _MEMBER.fullmatch(member.name):
                    raise SourceError(
                        str(archive),
                        f"holds {member.name!r}: an archive brings CUDA records only, "
                        "as regular files named records/<page>/<name>.cuda.json",
                    )
                if member.size > limits.MAX_RECORD_BYTES:
                    raise SourceError(str(archive), f"{member.name}: larger than a record may be")
                handle = tar.extractfile(member)
                assert handle is not None
                found.append((member.name, handle.read()))
    except (tarfile.TarError, OSError, EOFError) as exc:
        raise SourceError(str(archive), f"not a readable .tar.gz: {exc}") from None
    return found


def unpack(archive: Path, layout: Layout) -> list[str]:
    """Check every record of the archive, then write them all into records/; the ids written."""
    catalog = Catalog(layout)
    problems, chosen, seen = [], [], set()
    for name, data in _members(archive):
        match = _MEMBER.fullmatch(name)
        assert match is not None
        snippet_id = match.group("id")
        if name in seen:
            problems.append(f"{name}: twice in the archive")
        seen.add(name)
        try:
            record = records.parse(data.decode("utf-8"), f"{archive}:{name}")
        except (records.RecordError, UnicodeDecodeError) as exc:
            problems.append(f"{name}: {exc}")
            continue
        snippet = catalog.snippets.get(snippet_id)
        if snippet is None or "cuda" not in snippet.header.devices or record.snippet != snippet_id:
            problems.append(f"{name}: no snippet {snippet_id} that runs on CUDA holds this record")
            continue
        if record.device != "cuda" or not record.provenance.get("compute_capability"):
            problems.append(f"{name}: its provenance names no GPU (device {record.device})")
            continue
        standing = standing_of(snippet, "cuda", catalog.digests[snippet_id], record, None)
        if standing.state != "current":
            problems.append(f"{name}: {standing.reason}")
            continue
        chosen.append(record)
    if problems:
        raise SourceError(str(archive), "refused, nothing written: " + "; ".join(problems))
    for record in chosen:
        path = records.record_path(layout, record.snippet, "cuda")
        write_atomic(path, record.to_json(), shown_as=records.display(layout, path))
    return [r.snippet for r in chosen]
