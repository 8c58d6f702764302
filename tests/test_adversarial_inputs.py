"""The folders and files the build reads, each entry judged before any is read (principle 3 and its neighbours).

``docs/``, ``overrides/``, ``records/``, ``reports/`` (the build), ``snippets/`` (every command) and everything a
copy of the project takes (``core/paths.py:BUILD_INPUTS``, ``scripts/minigpt``'s data and ``mkdocs.yml``
included) may hold folders and regular files with names that are text, nothing else: a FIFO would make a read
wait forever, a socket or a device is no file, a name that is not UTF-8 cannot be named in a message or a URL,
a file far past any the project holds would be read whole. Each is refused naming the entry, never a traceback,
before a page is built; a file of ``records/`` that no snippet asks for is named too, never kept unseen.
"""

from __future__ import annotations

import os
from pathlib import Path
from types import SimpleNamespace

import pytest
from mkdocs.exceptions import PluginError
from phase25.core import limits, names, paths, records, snippets
from phase25.core.catalog import Catalog
from phase25.core.errors import SourceError
from phase25.site.hosts import adapter


def _fifo(path: Path) -> str:
    os.mkfifo(path)
    return "is not a regular file (a FIFO, a socket or a device, which a read could wait on forever)"


def _huge(path: Path) -> str:
    with path.open("wb") as handle:  # sparse: no disk is spent
        handle.truncate(limits.MAX_INPUT_BYTES + 1)
    return f"holds {limits.MAX_INPUT_BYTES + 1} bytes, more than a file the build reads may ({limits.MAX_INPUT_BYTES})"


def _outside(path: Path) -> str:
    path.symlink_to("/etc/passwd")
    return "is a symbolic link: nothing reached through a link is read, packed or published"


ODD = {"a-fifo": _fifo, "a-huge-file": _huge, "a-link-out": _outside}
# Names a file system allows that a page, a message or a URL cannot carry: bytes that are no UTF-8, a terminal escape.
BAD_NAMES = {
    "not-utf-8": (b"caf\xe9.md", "caf\\xe9.md", "has a name that is not UTF-8 text: rename it"),
    "an-escape": (b"a\x1b[31m.md", "a\x1b[31m.md", "has a name that holds a control character"),
}


def _project(root: Path) -> Path:
    for name in paths.BUILD_INPUTS:
        (root / name).mkdir(parents=True) if "." not in name else (root / name).write_text("")
    (root / "docs" / "en").mkdir()
    (root / "docs" / "en" / "index.md").write_text("# Home\n")
    return root


def _build(root: Path, monkeypatch) -> str:
    """The message a build of ``root`` stops with (its first step, before any page)."""
    monkeypatch.setattr(adapter, "_CURRENT", None)
    config = SimpleNamespace(config_file_path=str(root / "mkdocs.yml"), docs_dir=str(root / "docs"), plugins={})
    with pytest.raises(PluginError) as caught:
        adapter.on_pre_build(config)  # type: ignore[arg-type]
    return str(caught.value)


@pytest.mark.parametrize(
    "where", ["docs/assets/x.json", "overrides/partials/x.html", "records/page/x.cpu.json", "reports/drift/x.json",
              "requirements.txt"],
)  # fmt: skip
@pytest.mark.parametrize("odd", ODD)
def test_an_entry_the_build_must_not_read_stops_it_naming_the_entry(tmp_path, monkeypatch, where, odd):
    root = _project(tmp_path / "project")
    (root / where).parent.mkdir(parents=True, exist_ok=True)
    why = ODD[odd](root / where)
    assert _build(root, monkeypatch) == f"{where}: {why}"


@pytest.mark.parametrize("folder", ["docs/en", "overrides", "records/page", "reports"])
@pytest.mark.parametrize("bad", BAD_NAMES)
def test_a_name_that_is_not_text_stops_the_build_named_with_its_bytes_escaped(tmp_path, monkeypatch, folder, bad):
    root = _project(tmp_path / "project")
    (root / folder).mkdir(parents=True, exist_ok=True)
    raw, shown, why = BAD_NAMES[bad]
    os.close(os.open(os.fsencode(root / folder) + b"/" + raw, os.O_CREAT | os.O_WRONLY))
    message = _build(root, monkeypatch)
    assert message == f"{folder}/{shown}: {why}"
    message.encode("utf-8")  # it can be printed: no lone surrogate reaches a terminal or a log


@pytest.mark.parametrize("odd", ["a-fifo", "a-huge-file", "not-utf-8"])
def test_every_command_refuses_an_odd_entry_among_the_snippets_before_reading_one(toy, odd):
    toy.add("page/a", "print(1)\n")
    where = toy.root / "snippets" / "page"
    if odd in ODD:
        why = ODD[odd](where / "b.py")
        shown = "snippets/page/b.py"
    else:
        raw, name, why = BAD_NAMES[odd]
        os.close(os.open(os.fsencode(where) + b"/" + raw, os.O_CREAT | os.O_WRONLY))
        shown = f"snippets/page/{name}"
    with pytest.raises(SourceError) as caught:
        snippets.discover(toy.layout)  # a FIFO named like a snippet would hang it here, reading
    assert (caught.value.path, caught.value.message) == (shown, why)


@pytest.mark.parametrize("where", ["mkdocs.yml", "scripts/minigpt/weights.pt", "snippets/page/data.bin"])
@pytest.mark.parametrize("odd", ["a-fifo", "a-huge-file"])
def test_copying_the_project_refuses_an_odd_file_wherever_the_build_reads_and_copies_nothing(tmp_path, where, odd):
    source = _project(tmp_path / "source")
    (source / where).parent.mkdir(parents=True, exist_ok=True)
    (source / where).unlink(missing_ok=True)
    why = ODD[odd](source / where)
    with pytest.raises(SourceError) as caught:
        paths.copy_project(tmp_path / "copy", source)
    assert (caught.value.path, caught.value.message) == (where, why)
    assert not (tmp_path / "copy").exists()


def test_a_file_of_records_no_snippet_asks_for_is_named_never_kept_unseen(toy):
    toy.add("page/a", "print(1)\n")
    toy.run()
    kept = records.record_path(toy.layout, "page/a", "cpu")
    extra = {
        "records/page/gone.cpu.json": kept.read_text(),  # a snippet renamed: its old record stays behind
        "records/page/a.cuda.json": kept.read_text(),  # a device its header does not declare
        "records/notes.txt": "a note\n",
    }
    for name, text in extra.items():
        (toy.root / name).write_text(text)
    problems = Catalog(toy.layout).problems()
    assert [p.split(":")[0] for p in problems] == sorted(extra)
    assert all(p.endswith("no snippet asks for this record (a snippet renamed or removed, "
                          "or a device dropped from its header): remove it") for p in problems)  # fmt: skip
    for name in extra:
        (toy.root / name).unlink()
    assert Catalog(toy.layout).problems() == []


def test_the_repositorys_own_inputs_hold_nothing_the_check_refuses():
    """The limits are hard, and the project itself is inside them with room: the largest input is under half."""
    root = paths.REPO_ROOT
    for name in (*paths.BUILD_INPUTS, "reports", "releases.toml"):
        names.refuse_unreadable(root / name, root)
    largest = max(
        path.stat().st_size for name in ("records", "reports", "docs") for path in names.regular_files(root / name)[0]
    )
    assert largest < limits.MAX_INPUT_BYTES / 2
    assert Catalog(paths.DEFAULT_LAYOUT).strays() == []  # every committed record is one a snippet asks for


@pytest.mark.parametrize("dep", ["scripts/minigpt", "scripts/minigpt/weights.pt"], ids=["in-a-folder", "named"])
@pytest.mark.parametrize("odd", ["a-fifo", "a-huge-file"])
def test_a_dependency_the_runner_must_not_read_is_refused_naming_the_snippet_and_the_file(toy, dep, odd):
    """A dependency is hashed into the record's key and copied into each run: a FIFO among scripts/minigpt's data
    was left out without a word (in a folder) or called missing (named), a huge checkpoint read whole each time."""
    (toy.root / "scripts" / "minigpt").mkdir(parents=True)
    (toy.root / "scripts" / "minigpt" / "model.py").write_text("x = 1\n")
    why = ODD[odd](toy.root / "scripts" / "minigpt" / "weights.pt")
    toy.add("page/a", "print(1)\n", extra=f'deps = ["{dep}"]')
    [snippet] = snippets.discover(toy.layout)
    with pytest.raises(SourceError) as caught:
        snippets.dependency_files(snippet, toy.layout)
    assert caught.value.path == "snippets/page/a.py"
    assert caught.value.message == f"declares a dependency the runner must not read: scripts/minigpt/weights.pt {why}"


@pytest.mark.parametrize("odd", ["a-fifo", "a-huge-file", "a-link-out"])
def test_an_odd_releases_toml_is_refused_by_name_before_it_is_read(tmp_path, odd):
    from phase25.tools import releases

    why = ODD[odd](tmp_path / "releases.toml")
    with pytest.raises(SourceError) as caught:
        releases.read(tmp_path)  # a FIFO would make this wait forever
    assert (caught.value.path, caught.value.message) == ("releases.toml", why)
