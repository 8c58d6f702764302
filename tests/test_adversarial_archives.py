"""A GPU capture's archive is hostile until checked, and checking it is bounded.

The archive comes back from a machine this one does not control. Every member is judged by its header (type,
name, size) before its content is read, the stream is judged as it expands (members, bytes, ratio to its
compressed size, one read at a time), and the archive must end where tar says it ends: whatever it declares,
``unpack`` holds about one record in memory, refuses with one line naming the archive, and writes nothing.
"""

from __future__ import annotations

import gzip
import io
import os
import tarfile
import tracemalloc
from collections.abc import Iterable
from pathlib import Path

import pytest
from phase25 import cli
from phase25.core import environment, limits, records
from phase25.core.catalog import Catalog
from phase25.core.errors import SourceError
from phase25.run.travel import unpack

NAME = "records/page/a.cuda.json"
MiB = 1024 * 1024


def header(name: str, size: int = 0, kind: bytes = tarfile.REGTYPE, link: str = "", fmt: int = tarfile.GNU_FORMAT):
    """One tar header as bytes, declaring whatever it is told to."""
    info = tarfile.TarInfo(name)
    info.size, info.type, info.linkname = size, kind, link
    return info.tobuf(format=fmt)


def padded(data: bytes) -> bytes:
    return data + b"\0" * (-len(data) % tarfile.BLOCKSIZE)


def member(name: str, data: bytes, **kwargs) -> bytes:
    return header(name, len(data), **kwargs) + padded(data)


END = b"\0" * (2 * tarfile.BLOCKSIZE)


def write(path: Path, parts: Iterable[bytes]) -> Path:
    """A .tar.gz of these raw parts, compressed as they come (a bomb is never held whole here either)."""
    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=1, mtime=0) as gz:
        for part in parts:
            gz.write(part)
    return path


def repeated(block: bytes, size: int) -> Iterable[bytes]:
    while size > 0:
        yield block[:size]
        size -= len(block)


def refused(toy, archive: Path, capsys) -> str:
    """The one line unpack prints when it refuses ``archive``; nothing may have been written."""
    capsys.readouterr()
    assert cli.main(["--root", str(toy.root), "unpack", str(archive)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err, err
    assert str(archive) in err
    assert not (toy.root / "records" / "page" / "a.cuda.json").exists()
    return err


def peak_while_refusing(toy, archive: Path) -> int:
    """Bytes Python held at most while unpack refused ``archive``."""
    tracemalloc.start()
    try:
        with pytest.raises(SourceError):
            unpack.unpack(archive, toy.layout)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.fixture
def captured(toy) -> tuple[object, bytes]:
    """A toy project with a CUDA snippet and a record of it that unpack accepts (as a GPU would have made it)."""
    toy.add("page/a", "print('y.shape: (2, 600)')\n", devices='["cpu", "cuda"]')
    [record] = toy.run()[0].executed
    good = records.Record(**{**vars(record), "device": "cuda"})
    good.provenance = {**record.provenance, "device_name": "NVIDIA H200", "compute_capability": "sm_90"}
    good.env_key = environment.env_key(Catalog(toy.layout).snippets["page/a"], "cuda")
    return toy, good.to_json().encode()


# -- what a header declares is judged before its content is read ---------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "link"),
    [
        (tarfile.SYMTYPE, "/etc/passwd"),
        (tarfile.LNKTYPE, "records/page/b.cuda.json"),
        (tarfile.CHRTYPE, ""),
        (tarfile.BLKTYPE, ""),
        (tarfile.FIFOTYPE, ""),
    ],
    ids=["symlink", "hardlink", "char-device", "block-device", "fifo"],
)
def test_a_member_that_is_not_a_regular_file_is_refused(toy, tmp_path, capsys, kind, link):
    archive = write(tmp_path / "a.tar.gz", [header(NAME, 0, kind, link), END])
    assert "regular files named records/<page>/<name>.cuda.json" in refused(toy, archive, capsys)


@pytest.mark.parametrize(
    "name",
    [
        "/records/page/a.cuda.json",
        "records/../../escaped.cuda.json",
        "records/page/../../../a.cuda.json",
        "records\\page\\a.cuda.json",
        "records/page/a.cuda.json\nrecords/page/b",
        "records/page/a.cuda.json/",
        "records/page/a.cpu.json",
        "records/page/a.cuda.json.sh",
        "records/pаge/a.cuda.json",  # a Cyrillic a
        "x" * 300,
    ],
    ids=["absolute", "dotdot", "inner-dotdot", "backslash", "newline", "slash", "cpu", "suffix", "homoglyph", "long"],
)
def test_a_member_named_other_than_a_cuda_record_is_refused_and_named_as_data(toy, tmp_path, capsys, name):
    archive = write(tmp_path / "a.tar.gz", [member(name, b"{}", fmt=tarfile.PAX_FORMAT), END])
    err = refused(toy, archive, capsys)
    assert repr(name)[:60] in err  # named as a Python literal: a newline in it cannot split the line


def test_a_member_declaring_more_than_a_record_may_hold_is_refused_unread(toy, tmp_path, capsys):
    archive = write(tmp_path / "a.tar.gz", [header(NAME, 100 * 1024**3)])  # 100 GiB declared, none there
    assert "larger than a record may be" in refused(toy, archive, capsys)


def test_a_name_twice_in_the_archive_is_refused(toy, tmp_path, capsys):
    archive = write(tmp_path / "a.tar.gz", [member(NAME, b"{}"), member(NAME, b"{}"), END])
    assert "twice in the archive" in refused(toy, archive, capsys)


# -- memory stays bounded whatever the archive declares ---------------------------------------------------------------


@pytest.mark.parametrize("kind", [tarfile.GNUTYPE_LONGNAME, tarfile.XHDTYPE], ids=["gnu-long-name", "pax-header"])
def test_a_header_that_declares_tens_of_megabytes_is_refused_before_it_is_read(toy, tmp_path, capsys, kind):
    """tarfile reads a long name or a pax header whole, before the member it describes: 64 MiB of it, from an
    archive of 64 KiB, was held in memory before any check could see the member."""
    size = 64 * MiB
    bomb = write(tmp_path / "bomb.tar.gz", [header("././@LongLink", size, kind), *repeated(b"a" * MiB, size)])
    assert os.path.getsize(bomb) < size // 100
    assert peak_while_refusing(toy, bomb) < 8 * MiB
    assert "bytes at once" in refused(toy, bomb, capsys)


def test_members_are_judged_one_at_a_time_never_held_together(toy, tmp_path):
    """Six members of 12 MiB each (under a record's limit, barely compressible): all of them were read into
    memory before the first was judged (over 72 MiB); now one is held at a time, whatever their number."""
    block = os.urandom(64 * 1024)  # longer than gzip's window: it does not compress
    size = 12 * MiB
    parts: list[bytes] = []
    for i in range(6):
        parts.append(header(f"records/page/m{i}.cuda.json", size))
        parts.extend(repeated(block, size))
    archive = write(tmp_path / "big.tar.gz", [*parts, END])
    # One member, its copy in the decoding error, the reader's buffers: about 4 members' worth, a little over it
    # after some earlier tests of this module; holding the six together would take more than 6.
    assert peak_while_refusing(toy, archive) < 5 * size


def test_an_archive_that_expands_far_more_than_records_do_is_refused(toy, tmp_path, capsys):
    """Records compress about 18 times; an archive expanding over 100 times past one record's size is a bomb."""
    size = 15 * MiB
    parts = [header(f"records/page/z{i}.cuda.json", size) for i in range(3)]
    zeros = [b"".join(repeated(b"\0" * MiB, size))]
    archive = write(tmp_path / "zeros.tar.gz", [parts[0], *zeros, parts[1], *zeros, parts[2], *zeros, END])
    assert f"expands more than {limits.MAX_ARCHIVE_RATIO} times" in refused(toy, archive, capsys)


def test_an_archive_that_expands_past_its_cap_is_refused(toy, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(limits, "MAX_ARCHIVE_BYTES", 4 * MiB)
    block = os.urandom(64 * 1024)
    parts = [header(f"records/page/m{i}.cuda.json", 2 * MiB) + b"".join(repeated(block, 2 * MiB)) for i in range(3)]
    archive = write(tmp_path / "big.tar.gz", [*parts, END])
    assert "expands past 4194304 bytes" in refused(toy, archive, capsys)


def test_an_archive_of_thousands_of_members_is_refused_at_the_limit(toy, tmp_path, capsys):
    folders = [header(f"records/d{i}/", kind=tarfile.DIRTYPE) for i in range(limits.MAX_ARCHIVE_MEMBERS + 500)]
    archive = write(tmp_path / "many.tar.gz", [*folders, END])
    assert f"more than {limits.MAX_ARCHIVE_MEMBERS} members" in refused(toy, archive, capsys)


# -- an archive ends where tar says it ends ---------------------------------------------------------------------------


def test_a_member_that_streams_more_than_it_declares_is_refused(captured, tmp_path, capsys):
    """What follows the declared size is read as the next header: tarfile took a non-header for the end."""
    toy, record = captured
    archive = write(tmp_path / "a.tar.gz", [header(NAME, len(record)), padded(record), b"more bytes" * 300, END])
    assert "end-of-archive" in refused(toy, archive, capsys)


def test_bytes_after_the_end_of_the_archive_are_refused(captured, tmp_path, capsys):
    """A member hidden after the end marker: another tool reading past it (tar -i) would see it."""
    toy, record = captured
    archive = write(tmp_path / "a.tar.gz", [member(NAME, record), END, member("records/page/b.cuda.json", b"x"), END])
    assert "after its end-of-archive marker" in refused(toy, archive, capsys)


def test_a_truncated_tar_is_refused(captured, tmp_path, capsys):
    toy, record = captured
    whole = member(NAME, record) + END
    for cut in (len(whole) - len(END), len(whole) - len(END) + 100):
        archive = write(tmp_path / "a.tar.gz", [whole[:cut]])
        assert "end-of-archive" in refused(toy, archive, capsys)


def test_a_well_formed_capture_still_lands(captured, tmp_path, capsys):
    toy, record = captured
    archive = tmp_path / "capture.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:  # as archive.pack writes it: pax headers, a folder, the end
        folder = tarfile.TarInfo("records/page")
        folder.type = tarfile.DIRTYPE
        tar.addfile(folder)
        info = tarfile.TarInfo(NAME)
        info.size, info.mtime = len(record), 1.5  # a float mtime: a pax header, as tar.add of a file writes
        tar.addfile(info, io.BytesIO(record))
    assert cli.main(["--root", str(toy.root), "unpack", str(archive)]) == 0
    assert records.load(toy.layout, "page/a", "cuda").provenance["compute_capability"] == "sm_90"


# -- what is no archive is said in one line -------------------------------------------------------------------------


def _corrupt(tmp_path: Path) -> Path:
    good = write(tmp_path / "good.tar.gz", [member(NAME, os.urandom(200_000).hex().encode()), END])
    data = bytearray(good.read_bytes())
    data[len(data) // 2 : len(data) // 2 + 64] = b"\xff" * 64
    return write_raw(tmp_path / "corrupt.tar.gz", bytes(data))


def write_raw(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


@pytest.mark.parametrize(
    "make",
    [
        lambda p: write_raw(p / "empty.tar.gz", b""),
        lambda p: write_raw(p / "text.tar.gz", b"not an archive\n"),
        lambda p: write_raw(p / "text.tar.gz", gzip.compress(b"a gzip, but of no tar\n" * 100)),
        lambda p: write_raw(p / "plain.tar.gz", member(NAME, b"{}") + END),
        lambda p: write_raw(
            p / "cut.tar.gz", write(p / "w.tar.gz", [member(NAME, b"{}" * 5000), END]).read_bytes()[:300]
        ),
        _corrupt,
        lambda p: p,
        lambda p: p / "missing.tar.gz",
    ],
    ids=["empty", "text", "gzip-of-text", "uncompressed", "cut-gzip", "corrupt-deflate", "a-folder", "missing"],
)
def test_what_is_no_readable_tar_gz_is_one_line(toy, tmp_path, capsys, make):
    refused(toy, make(tmp_path), capsys)


# -- the downloads the site builds for readers hold nothing from outside the repository ------------------------------


def test_a_helper_that_links_out_of_the_repository_never_reaches_a_reproduce_kit(toy, tmp_path):
    """A `_helper.py` beside the snippets, linked to a file outside: the kit carried that file to every reader."""
    from phase25.site.downloads import reproduce_kit

    toy.add("page/a", "print(1)\n")
    secret = tmp_path / "secret.txt"
    secret.write_text("SECRET")
    (toy.root / "snippets" / "page" / "_helper.py").symlink_to(secret)
    with pytest.raises(SourceError, match=r"_helper\.py: is a (symbolic link|link to a file outside)"):
        reproduce_kit.kit(Catalog(toy.layout), "page")


def test_a_record_that_links_out_of_the_repository_never_reaches_a_reproduce_kit(toy, tmp_path):
    from phase25.site.downloads import reproduce_kit

    toy.add("page/a", "print(1)\n")
    secret = tmp_path / "secret.json"
    secret.write_text('{"secret": true}')
    (toy.root / "records" / "page").mkdir(parents=True)
    (toy.root / "records" / "page" / "a.cpu.json").symlink_to(secret)
    with pytest.raises(SourceError, match=r"is a (symbolic link|link to a file outside)"):
        reproduce_kit.kit(Catalog(toy.layout), "page")


def test_what_a_download_may_hold_is_read_only_inside_its_root(tmp_path):
    """The one check both downloads (the lab zip, the reproduce kit) read their files through."""
    from phase25.core.names import read_inside

    root = tmp_path / "repo"
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "lab.ipynb").write_text("{}")
    (root / "docs" / "inner.ipynb").symlink_to(root / "docs" / "lab.ipynb")
    (tmp_path / "outside.ipynb").write_text("SECRET")
    (root / "docs" / "outer.ipynb").symlink_to(tmp_path / "outside.ipynb")
    assert read_inside(root / "docs" / "inner.ipynb", root) == b"{}"
    with pytest.raises(SourceError, match=r"outer\.ipynb: is a link to a file outside"):
        read_inside(root / "docs" / "outer.ipynb", root)
