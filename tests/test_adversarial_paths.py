"""Adversarial tests: what the build reads, what it publishes, and what a run can reach.

Threats, one group each:

- links: a symbolic link anywhere the build reads or packs files (docs' assets, the theme's files,
  snippet helpers, ``deps``, records, a copied project) would make it read and publish the link's
  target, a secret outside the repository or a file of it under a second name. Every link is refused,
  naming it, wherever it points;
- owners: two sources that map to one name of the built site would leave whichever came last; each
  name has one owner, and a second one is refused with both named, before anything is written;
- reach: a run is given folders (TMPDIR, HOME, caches) that lead nowhere outside its scratch, and what
  it writes into the checkout's ignored folders (the caches the build trusts, ``site/``) is noticed.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from mkdocs.exceptions import PluginError
from phase25.core import bounded, names, paths, records, snippets
from phase25.core.errors import SourceError
from phase25.site.hosts import adapter, site_files
from phase25.site.page.highlight import Highlighter
from test_atlas import overload

SECRET = "THE-SECRET-LINE"


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    path = tmp_path / "outside" / "secret.txt"
    path.parent.mkdir()
    path.write_text(SECRET)
    return path


# -- 1. Nothing reached through a symbolic link is read, packed or published -----------------------------------------


@pytest.mark.parametrize("helper", ["_secret.py", "_alias.py"])
def test_a_snippet_helper_that_is_a_link_is_refused_before_a_kit_packs_it(toy, secret, helper):
    toy.add("page/a", "print(1)\n")
    target = secret if helper == "_secret.py" else toy.root / "snippets" / "page" / "a.py"
    (toy.root / "snippets" / "page" / helper).symlink_to(target)
    with pytest.raises(SourceError) as caught:
        toy.catalog()
    assert caught.value.path == f"snippets/page/{helper}" and "symbolic link" in caught.value.message


def test_a_snippet_folder_that_is_a_link_is_refused(toy, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "a.py").write_text("# /// snippet\n# ///\nprint(1)\n")
    (toy.root / "snippets" / "page").symlink_to(elsewhere, target_is_directory=True)
    with pytest.raises(SourceError, match=r"snippets/page: is a symbolic link"):
        snippets.discover(toy.layout)


@pytest.mark.parametrize(
    ("named", "said"),
    [
        ("data/alias.txt", r"is a symbolic link: data/alias\.txt"),
        ("data", r"holds a link \(to a file of the repository\): data/alias\.txt"),
    ],
    ids=["the-file", "its-folder"],
)
def test_a_dependency_that_is_a_link_to_a_file_of_the_repository_is_refused(toy, named, said):
    """Nothing reached through a link is read, wherever it points: named itself or inside a folder named."""
    (toy.root / "data").mkdir()
    (toy.root / "data" / "real.txt").write_text("600")
    (toy.root / "data" / "alias.txt").symlink_to(toy.root / "data" / "real.txt")
    toy.add("page/a", "print(1)\n", extra=f'deps = ["{named}"]')
    [snippet] = snippets.discover(toy.layout)
    with pytest.raises(SourceError, match=said):
        snippets.dependency_files(snippet, toy.layout)


def test_a_dependency_reached_through_a_linked_folder_is_refused(toy):
    (toy.root / "data").mkdir()
    (toy.root / "data" / "real.txt").write_text("600")
    (toy.root / "alias").symlink_to(toy.root / "data", target_is_directory=True)
    toy.add("page/a", "print(1)\n", extra='deps = ["alias/real.txt"]')
    [snippet] = snippets.discover(toy.layout)
    with pytest.raises(SourceError, match=r"alias/real\.txt \(alias\)"):
        snippets.source_sha256(snippet, toy.layout)


def test_a_record_reached_through_a_linked_folder_is_refused(toy, tmp_path):
    toy.add("page/a", "print(1)\n")
    toy.run()
    moved = tmp_path / "moved"
    (toy.root / "records" / "page").rename(moved)
    (toy.root / "records" / "page").symlink_to(moved, target_is_directory=True)
    with pytest.raises(records.RecordError, match=r"reached through a link \(records/page\)"):
        records.load(toy.layout, "page/a", "cpu")


def _project(root: Path) -> Path:
    for name in paths.BUILD_INPUTS:
        (root / name).mkdir(parents=True) if "." not in name else (root / name).write_text("")
    return root


@pytest.mark.parametrize("where", ["docs/assets/passwd", "overrides/partials/x.html", "scripts/pkg/x.py"])
def test_copying_a_project_refuses_a_link_and_copies_nothing(tmp_path, secret, where):
    source = _project(tmp_path / "source")
    (source / where).parent.mkdir(parents=True, exist_ok=True)
    (source / where).symlink_to(secret)
    target = tmp_path / "copy"
    with pytest.raises(SourceError) as caught:
        paths.copy_project(target, source)
    assert caught.value.path == where and not target.exists()


@pytest.mark.parametrize("where", ["docs/assets/passwd", "docs/en/notes.md", "overrides/main.html"])
@pytest.mark.parametrize("to", ["/etc/passwd", "docs/en/index.md"])
def test_a_build_refuses_a_link_among_docs_and_overrides_naming_it(tmp_path, monkeypatch, where, to):
    root = _project(tmp_path / "project")
    (root / "docs" / "en").mkdir(parents=True)
    (root / "docs" / "en" / "index.md").write_text("# Home\n")
    (root / where).parent.mkdir(parents=True, exist_ok=True)
    (root / where).symlink_to(to if to.startswith("/") else root / to)
    monkeypatch.setattr(adapter, "_CURRENT", None)
    config = SimpleNamespace(config_file_path=str(root / "mkdocs.yml"), docs_dir=str(root / "docs"), plugins={})
    with pytest.raises(PluginError) as caught:
        adapter.on_pre_build(config)  # type: ignore[arg-type]
    message = "is a symbolic link: nothing reached through a link is read, packed or published"
    assert str(caught.value) == f"{where}: {message}"


def test_linked_names_the_first_link_on_the_way_and_allows_a_linked_root(tmp_path):
    real = tmp_path / "real"
    (real / "a" / "b").mkdir(parents=True)
    (tmp_path / "root").symlink_to(real, target_is_directory=True)
    (real / "a" / "via").symlink_to(real / "a" / "b", target_is_directory=True)
    root = tmp_path / "root"
    assert names.linked(root / "a" / "b", root) is None
    assert names.linked(root / "a" / "via" / "x.txt", root) == root / "a" / "via"


# -- 2. One published name, one owner ----------------------------------------------------------------------------


def test_two_owners_of_one_name_are_refused_with_both_named_and_nothing_written(tmp_path):
    owners = site_files.Owners()
    owners.claim("a.txt", "the record of page/a (cpu)", "A")
    owners.claim("labs/x/x.zip", "the lab docs/en/labs/x.lab.md", b"zip")
    with pytest.raises(SourceError) as caught:
        owners.claim("labs/x/x.zip", "the lab docs/en/labs/x/index.lab.md", b"other")
    assert caught.value.path == "site/labs/x/x.zip"
    assert "docs/en/labs/x.lab.md" in caught.value.message and "docs/en/labs/x/index.lab.md" in caught.value.message
    assert not (tmp_path / "site").exists()


def _build(toy, docs: Path, standings: dict, mkdocs_files: dict[str, str]) -> adapter.Build:
    catalog = SimpleNamespace(snippets={}, standings=standings, layout=toy.layout) if standings else toy.catalog()
    config = SimpleNamespace(  # what a build's claims read of the config: the pages, where they go, the nav
        docs_dir=str(docs), site_dir=str(docs.parent / "site"), config_file_path=str(paths.REPO_ROOT / "mkdocs.yml")
    )
    return adapter.Build(config, catalog, Highlighter(), mkdocs_files=mkdocs_files)  # type: ignore[arg-type]


def test_a_docs_asset_named_like_a_reproduction_kit_is_refused_naming_both(toy, tmp_path):
    toy.add("page/a", "print(1)\n")
    docs = tmp_path / "docs"
    docs.mkdir()
    build = _build(toy, docs, {}, {"reproduce/page.zip": "docs/en/reproduce/page.zip"})
    with pytest.raises(SourceError) as caught:
        build.claims()
    assert caught.value.path == "site/reproduce/page.zip"
    assert "docs/en/reproduce/page.zip" in caught.value.message
    assert "the reproduction kit of snippets/page" in caught.value.message


def _record(snippet: str, **fields) -> SimpleNamespace:
    record = SimpleNamespace(
        snippet=snippet, device="cpu", published={}, artifacts={}, status="ok", provenance={}, **fields
    )
    return SimpleNamespace(state="current", usable=True, record=record)


def test_a_published_file_named_like_an_artifact_page_is_refused_naming_both(toy, tmp_path):
    standing = _record("page/a")
    standing.record.published = {"big.txt": "published"}
    standing.record.artifacts = {"big": "x" * 20_000}
    build = _build(toy, tmp_path, {("page/a", "cpu"): standing}, {})
    with pytest.raises(SourceError) as caught:
        build.claims()
    assert caught.value.path == "site/snippet-files/page/a/cpu/big.txt"
    assert "its published big.txt" in caught.value.message and "its artifact big" in caught.value.message


def test_atlas_data_comes_only_from_the_record_the_atlas_names(toy, tmp_path):
    docs = tmp_path / "docs"
    (docs / "en").mkdir(parents=True)
    (docs / "en" / "atlas.md").write_text("# Atlas\n\n::: atlas page/atlas\n")
    real, forged = _record("page/atlas"), _record("page/zz_forged")
    real.record.artifacts = {"atlas/ops.jsonl": json.dumps(overload("aten::add", real=True))}
    forged.record.artifacts = {
        "atlas/ops.jsonl": json.dumps(overload("aten::add", real=False)),
        "atlas/extra.jsonl": json.dumps(overload("aten::evil")),
    }
    standings = {("page/atlas", "cpu"): real, ("page/zz_forged", "cpu"): forged}
    owners = _build(toy, docs, standings, {}).claims()
    assert json.loads(owners.content["atlas-data/cpu/ops.json"])["aten::add"]["real"] is True
    assert "atlas-data/cpu/extra.json" not in owners.content


# -- 3. A run cannot reach the checkout or what the build trusts ----------------------------------------------------

REACH = """
import json, os
scratch = os.path.realpath(os.path.join(os.getcwd(), ".."))
named = {k: os.environ.get(k) for k in ("HOME", "TMPDIR", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME",
         "PWD", "OLDPWD", "TORCH_HOME", "TORCHINDUCTOR_CACHE_DIR", "TRITON_CACHE_DIR")}
named["~/.cache"] = os.path.expanduser("~/.cache")
out = sorted(k for k, v in named.items() if v and not os.path.realpath(v).startswith(scratch + os.sep))
print("outside:", out)
"""


def test_every_folder_a_run_is_told_leads_nowhere_outside_its_scratch(toy, monkeypatch):
    for name in ("HOME", "OLDPWD", "TORCH_HOME", "XDG_CACHE_HOME", "PWD"):
        monkeypatch.setenv(name, str(toy.root))  # the shell that started the runner stood in the checkout
    toy.add("page/a", REACH)
    [record] = toy.run()[0].executed
    assert record.status == "ok", record.output()
    assert record.output()["stdout"] == "outside: []\n"


@pytest.mark.parametrize(
    "target",
    [".cache/phase25/highlight/0123.html", "site/index.html", ".cache/phase25/inductor-headers/c1.h.gch"],
)
def test_a_run_that_writes_into_an_ignored_folder_of_the_checkout_is_blamed(toy, target):
    (toy.root / target).parent.mkdir(parents=True)
    (toy.root / target).write_text("as the build left it")
    toy.add("page/a", f"open({str(toy.root / target)!r}, 'w').write('<span>poisoned</span>')\nprint(1)\n")
    outcome = toy.run()[0]
    assert len(outcome.intrusions) == 1 and target in outcome.intrusions[0], outcome.intrusions
    assert "page/a" in outcome.intrusions[0]


def test_a_run_that_adds_a_startup_file_to_the_environment_is_blamed(toy):
    site_packages = toy.root / ".venv" / "lib" / "python3.11" / "site-packages"
    site_packages.mkdir(parents=True)
    toy.add("page/a", f"open({str(site_packages / 'evil.pth')!r}, 'w').write('import os')\nprint(1)\n")
    outcome = toy.run()[0]
    assert len(outcome.intrusions) == 1 and ".venv/lib/python3.11/site-packages/" in outcome.intrusions[0]


def test_in_a_git_checkout_the_guard_sees_the_ignored_folders_too(toy):
    bounded.run(["git", "init", "-q", str(toy.root)], timeout=60, check=True)
    (toy.root / ".gitignore").write_text("/.cache/\n/site/\n__pycache__/\n")
    target = toy.root / ".cache" / "phase25" / "highlight" / "0123.html"
    target.parent.mkdir(parents=True)
    target.write_text("as the build left it")
    toy.add("page/a", f"open({str(target)!r}, 'w').write('<span>poisoned</span>')\nprint(1)\n")
    outcome = toy.run()[0]
    assert len(outcome.intrusions) == 1 and ".cache/phase25/highlight/0123.html" in outcome.intrusions[0]


SOURCE = "x = {'a': 1}  # <b>\nprint(x)\n"


@pytest.mark.parametrize("first_line", [None, 7])
def test_a_highlight_cache_entry_a_run_rewrote_is_not_shown(tmp_path, first_line):
    """The key of a cached block is public (a hash of the code): a block that shows other text is not used."""
    cache = tmp_path / "highlight"
    honest = Highlighter(cache).block(SOURCE, classes="language-python", first_line=first_line)
    [entry] = cache.iterdir()
    entry.write_text(honest.replace("print", "steal").replace('<span class="n">x</span>', "<span>y</span>", 1))
    assert Highlighter(cache).block(SOURCE, classes="language-python", first_line=first_line) == honest
    kept = honest.replace('class="n"', 'class="nv"')  # same text, other colours: a hit is seen as this
    entry.write_text(kept)  # an entry that shows the code is used as it is (a cache that never hits is no cache)
    assert Highlighter(cache).block(SOURCE, classes="language-python", first_line=first_line) == kept


def test_every_snippet_of_the_site_highlights_into_a_block_the_cache_accepts(tmp_path):
    from phase25.core.paths import DEFAULT_LAYOUT
    from phase25.site.page import highlight

    for path in sorted(DEFAULT_LAYOUT.snippets.glob("*/*.py")):
        source = path.read_text(encoding="utf-8")
        for first_line in (None, 1):
            block = highlight._highlight(source, None, "language-python", first_line)
            stored = tmp_path / "entry.html"
            stored.write_text(block, encoding="utf-8")
            assert highlight._cached(stored, source) == block, path
