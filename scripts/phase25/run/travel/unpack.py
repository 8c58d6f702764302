"""Bringing a GPU capture back: an archive's CUDA records checked one by one before any reaches records/.

``tar xzf`` would write whatever an archive holds wherever its names point. This reads the archive as
data instead: every member must be a regular file named ``records/<page>/<name>.cuda.json`` (no link,
no ``..``, no other device), hold a record whose digest matches its content, made on a GPU (its
provenance names the device and its compute capability), from the snippet's sources and environment
as they are now. One bad member refuses the whole archive and nothing is written.

The archive is hostile until checked, and checking it is bounded: each member is judged by its header
(type, name, size) before its content is read, and the stream is judged as it expands (:class:`Expanding`):
no read larger than :data:`~phase25.core.limits.MAX_ARCHIVE_READ` (tarfile would read a long name or a pax
header whole), no more than ``MAX_ARCHIVE_MEMBERS`` members or ``MAX_ARCHIVE_BYTES`` bytes, no expansion
past ``MAX_ARCHIVE_RATIO`` times its compressed size, and nothing but zeros after the end-of-archive marker.
Memory holds one member's content at a time, and the records accepted so far, whatever the archive declares.

What this does not do: tell a record the capture made from one forged by someone who ran this code
themselves. The archive's attestation does that (maintaining/gpu-and-emulation.md: verify it before unpacking).
"""

from __future__ import annotations

import gzip
import re
import stat
import tarfile
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from ...core import limits, records
from ...core.atomic import write_atomic
from ...core.catalog import Catalog, standing_of
from ...core.devices import captured
from ...core.errors import SourceError
from ...core.paths import Layout

_MEMBER = re.compile(r"records/(?P<id>[a-z0-9][a-z0-9-]*/[A-Za-z][A-Za-z0-9_]*)\.(?P<device>cuda)\.json")
_CHUNK = 64 * 1024  # how a member's content is read: never in one piece
_END = b"\0" * tarfile.BLOCKSIZE  # tar's end-of-archive block


class Expanding:
    """The decompressed stream of a .tar.gz as tarfile reads it: forward only, refused past the archive's caps."""

    def __init__(self, archive: Path, raw: BinaryIO) -> None:
        self.archive, self.raw = archive, raw
        self.gz = gzip.GzipFile(fileobj=raw, mode="rb")
        self.position = 0
        self.last = b""  # the last read: the block that ended tarfile's reading, once it has stopped

    def refuse(self, why: str) -> SourceError:
        return SourceError(str(self.archive), f"refused, nothing written: {why}")

    def read(self, size: int = -1) -> bytes:
        if not 0 <= size <= limits.MAX_ARCHIVE_READ:  # tarfile reads a long name or a pax header in one piece
            raise self.refuse(
                f"a header at byte {self.position} asks for {size} bytes at once "
                f"(more than {limits.MAX_ARCHIVE_READ}): no capture's member needs it"
            )
        data = self.gz.read(size)
        self.position += len(data)
        self.last = data
        if self.position > limits.MAX_ARCHIVE_BYTES:
            raise self.refuse(f"expands past {limits.MAX_ARCHIVE_BYTES} bytes")
        if self.position > limits.MAX_RECORD_BYTES + limits.MAX_ARCHIVE_RATIO * self.raw.tell():
            raise self.refuse(f"expands more than {limits.MAX_ARCHIVE_RATIO} times its compressed size")
        return data

    def tell(self) -> int:
        return self.position

    def seek(self, offset: int, whence: int = 0) -> int:
        """Forward only, by reading (and counting) what is skipped."""
        if whence != 0 or offset < self.position:
            raise self.refuse(f"a member asks to go back to byte {offset}")
        while self.position < offset and self.read(min(_CHUNK, offset - self.position)):
            pass
        return self.position

    def write(self, data: bytes) -> int:
        raise OSError("an archive being unpacked is read, never written")

    def close(self) -> None:
        self.gz.close()

    def finish(self) -> None:
        """tarfile stopped at a block: the end marker, followed by nothing but zeros, or the archive is refused."""
        if self.last != _END:
            raise self.refuse(
                f"no end-of-archive marker at byte {self.position - len(self.last)}: the archive is truncated, "
                "or a member holds more than its header declares"
            )
        while chunk := self.read(_CHUNK):
            if chunk.strip(b"\0"):
                raise self.refuse(f"holds data after its end-of-archive marker (by byte {self.position})")


def _content(tar: tarfile.TarFile, member: tarfile.TarInfo) -> bytearray:
    """A member's content, read in chunks into a buffer of its declared size (already judged)."""
    handle = tar.extractfile(member)
    assert handle is not None
    data = bytearray(member.size)
    view, got = memoryview(data), 0
    while got < member.size:
        read = handle.readinto(view[got : got + _CHUNK])  # type: ignore[attr-defined]
        if not read:
            raise tarfile.ReadError("unexpected end of data")
        got += read
    return data


def _members(archive: Path) -> Iterator[tuple[str, bytearray]]:
    """Each record of the archive, its header judged before its content is read; one held at a time."""
    try:
        if not stat.S_ISREG(archive.stat().st_mode):
            raise SourceError(str(archive), "is not a file")
        with archive.open("rb") as raw:
            stream = Expanding(archive, raw)
            with tarfile.TarFile(fileobj=stream, mode="r") as tar:
                for count, member in enumerate(tar, 1):
                    if count > limits.MAX_ARCHIVE_MEMBERS:
                        raise stream.refuse(f"more than {limits.MAX_ARCHIVE_MEMBERS} members")
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
                    yield member.name, _content(tar, member)
            stream.finish()
    except (tarfile.TarError, OSError, EOFError, zlib.error) as exc:
        raise SourceError(str(archive), f"not a readable .tar.gz: {exc}") from None


def _judged(archive: Path, catalog: Catalog, name: str, data: bytearray) -> records.Record | str:
    """The record a member holds, or why it cannot land."""
    match = _MEMBER.fullmatch(name)
    assert match is not None
    snippet_id = match.group("id")
    try:
        record = records.parse(data.decode("utf-8"), f"{archive}:{name}")
    except (records.RecordError, UnicodeDecodeError) as exc:
        return f"{name}: {exc}"
    snippet = catalog.snippets.get(snippet_id)
    if snippet is None or not any(map(captured, snippet.header.devices)) or record.snippet != snippet_id:
        return f"{name}: no snippet {snippet_id} that runs on CUDA holds this record"
    if not captured(record.device) or not record.provenance.get("compute_capability"):
        return f"{name}: its provenance names no GPU (device {record.device})"
    standing = standing_of(snippet, record.device, catalog.digests[snippet_id], record, None)
    if standing.state != "current":
        return f"{name}: {standing.reason}"
    return record


def unpack(archive: Path, layout: Layout) -> list[str]:
    """Check every record of the archive, then write them all into records/; the ids written."""
    catalog = Catalog(layout)
    problems: list[str] = []
    chosen: list[records.Record] = []
    seen: set[str] = set()
    for name, data in _members(archive):
        if name in seen:
            problems.append(f"{name}: twice in the archive")
        seen.add(name)
        judged = _judged(archive, catalog, name, data)
        del data  # the member's bytes go before the next member's are read
        if isinstance(judged, str):
            problems.append(judged)
        else:
            chosen.append(judged)
    if problems:
        raise SourceError(str(archive), "refused, nothing written: " + "; ".join(problems))
    for record in chosen:
        path = records.record_path(layout, record.snippet, "cuda")
        write_atomic(path, record.to_json(), shown_as=records.display(layout, path))
    return [r.snippet for r in chosen]
