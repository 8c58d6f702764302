"""Each page as Markdown with its recorded outputs (its twin), and llms.txt listing them.

The fast half renders twins in-process, from the real catalog and from toy records made for the hard cases (a
pending GPU tab, stderr alone, an output holding a fence, a notebook); the slow half reads the built site: every
page has its twin and links it, every fenced output of every twin is a record's stream byte for byte, each
llms.txt lists every twin of its language and each link resolves, and the Spanish twins speak Spanish.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import REPO
from markdown_it import MarkdownIt
from phase25.core.catalog import Catalog
from phase25.core.paths import DEFAULT_LAYOUT
from phase25.site.hosts.llms import OTHER, rebased
from phase25.site.hosts.markdown_snippet import OUTPUT, Where, fence
from phase25.site.hosts.markdown_twins import Links, notebook_twin, page_twin
from phase25.site.lang.provenance_text import provenance_line

CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def fences(markdown: str, info: str = OUTPUT) -> list[str]:
    """The content of every fenced block of ``info`` as a CommonMark parser reads it (its last newline dropped)."""
    tokens = MarkdownIt("commonmark").parse(markdown)
    return [t.content.removesuffix("\n") for t in tokens if t.type == "fence" and t.info.strip() == info]


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog(DEFAULT_LAYOUT)


def twin_of(markdown: str, catalog: Catalog, lang: str = "en") -> str:
    source = f"{lang}/page.md"
    return page_twin(markdown, Where(lang, catalog, "../"), Links({source: "page/index.md"}, source), source)


def test_a_snippet_becomes_its_code_and_its_records_output_with_the_provenance_line(catalog):
    record = catalog.standing("theory-01/key_sets", "cpu").record
    assert record is not None
    twin = twin_of("# Keys\n\nProse.\n\n::: snippet theory-01/key_sets\n\nMore prose.\n", catalog)
    assert fences(twin) == [record.stdout.rstrip("\n")]
    assert fences(twin, "python") and "C._dispatch_keys(W)" in "".join(fences(twin, "python"))
    assert f"*{provenance_line(record, 'en')}*" in twin and "torch " in provenance_line(record, "en")
    assert "::: snippet" not in twin and twin.startswith("# Keys\n") and "More prose." in twin


def test_a_spanish_twin_writes_its_provenance_in_spanish(catalog):
    twin = twin_of("# Claves\n\n::: snippet theory-01/key_sets\n", catalog, "es")
    assert "Ejecutado en CPU" in twin and "Ran on" not in twin


def test_every_language_of_the_site_has_its_own_words():
    """The twins' words are strings of each language (chrome_strings_<lang>.py), not the default's copied."""
    from phase25.site.lang import strings

    for key in ("llms_intro", "llms_twin_link"):
        said = [strings.text(lang, key) for lang in strings.LANGUAGES]
        assert len(set(said)) == len(said), key


def test_links_lead_to_the_other_pages_twin_and_files_to_the_site(catalog):
    pages = {"en/theory/a.md": "theory/a/index.md", "en/index.md": "index.md", "es/theory/a.md": "es/theory/a/index.md"}
    links = Links(pages, "en/theory/a.md")
    assert links.rewrite("see [home](../index.md#map) and ![x](img/p.svg)") == (
        "see [home](../../index.md#map) and ![x](../img/p.svg)"
    )
    assert links.rewrite("[up](https://pytorch.org) [here](#x)") == "[up](https://pytorch.org) [here](#x)"
    assert Links(pages, "es/theory/a.md").rewrite("[inicio](../index.md)") == "[inicio](../../index.md)"
    assert links.rewrite("second line of a link's text](../index.md) goes on") == (
        "second line of a link's text](../../index.md) goes on"
    )


@pytest.fixture(scope="module")
def toy_catalog(tmp_path_factory) -> Catalog:
    """Records of the hard cases, made by the runner: a fence in the output, stderr alone, a GPU tab pending."""
    from conftest import ToyProject

    toy = ToyProject(tmp_path_factory.mktemp("llms") / "project")
    toy.add("toy/fenced", 'print("before\\n```\\nfenced ``` and ````\\n```\\nafter")\n')
    toy.add("toy/stderr_only", 'import sys\nprint("only on stderr", file=sys.stderr)\n')
    toy.add("toy/gpu_too", 'print("cpu side")\n', devices='["cpu", "cuda"]')
    outcome, _ = toy.run()
    assert not outcome.failures
    return toy.catalog()


def test_an_output_holding_fences_stays_one_block_byte_for_byte(toy_catalog):
    record = toy_catalog.standing("toy/fenced", "cpu").record
    twin = twin_of("# T\n\n::: snippet toy/fenced\n", toy_catalog)
    assert fences(twin) == [record.stdout.rstrip("\n")]
    assert "`````output" in twin  # longer than the longest run of backticks inside
    assert fence("a ``` b", "text").startswith("````text\n")


def test_stderr_alone_is_fenced_under_its_label(toy_catalog):
    record = toy_catalog.standing("toy/stderr_only", "cpu").record
    twin = twin_of("# T\n\n::: snippet toy/stderr_only\n", toy_catalog)
    assert record.stdout == "" and fences(twin) == ["only on stderr"]
    assert "stderr:\n\n```output\nonly on stderr\n```" in twin


def test_a_pending_gpu_tab_says_why_and_carries_its_pending_text(toy_catalog):
    page = "# T\n\n::: snippet toy/gpu_too\n\n::: pending toy/gpu_too cuda\n    Once captured, it will print the GPU.\n"
    twin = twin_of(page, toy_catalog)
    assert fences(twin) == ["cpu side"]  # the CPU output only: no record, no fence
    assert "**CUDA · not captured yet**" in twin and "Once captured, it will print the GPU." in twin
    assert "::: pending" not in twin and twin.count("Once captured") == 1


def test_a_notebook_becomes_its_cells_with_their_recorded_outputs():
    path = REPO / "docs/en/labs/01-autograd-by-hand.ipynb"
    notebook = json.loads(path.read_text(encoding="utf-8"))
    outputs = [
        "".join(o["text"]).rstrip("\n")
        for c in notebook["cells"]
        for o in c.get("outputs", [])
        if "".join(o["text"]).strip()
    ]
    codes = [c for c in notebook["cells"] if c["cell_type"] == "code"]
    source = "en/labs/01-autograd-by-hand.ipynb"
    twin = notebook_twin(path.read_text(encoding="utf-8"), Links({source: "labs/01/index.md"}, source), source)
    assert outputs and fences(twin) == outputs
    assert len(fences(twin, "python")) == len(codes)
    assert not CONTROL.search(twin)


# The built site.


def twins_in(site: Path) -> list[Path]:
    return sorted(p for p in site.rglob("index.md"))


def html_pages(site: Path) -> list[Path]:
    """Every page of the built site: an index.html that is no published report's (snippet-files/...)."""
    return sorted(p for p in site.rglob("index.html") if not p.relative_to(site).as_posix().startswith("snippet-files"))


@pytest.mark.slow
def test_every_page_has_its_twin_and_links_it(built_site):
    pages = html_pages(built_site)
    assert len(pages) >= 2 * 14
    for page in pages:
        assert page.with_suffix(".md").is_file(), page
        assert 'href="index.md" rel="alternate" type="text/markdown"' in page.read_text(encoding="utf-8"), page
    assert len(twins_in(built_site)) == len(pages)


@pytest.mark.slow
def test_every_fenced_output_of_every_twin_is_a_records_stream_byte_for_byte(built_site):
    catalog = Catalog(DEFAULT_LAYOUT)
    streams = set()
    for standing in catalog.standings.values():
        if standing.record is not None:
            record = standing.record
            for out in [record.stdout, record.stderr, *(r[k] for r in record.ranks for k in ("stdout", "stderr"))]:
                streams.add(out.rstrip("\n"))
    checked = 0
    for twin in twins_in(built_site):
        text = twin.read_text(encoding="utf-8")
        assert not CONTROL.search(text), twin
        for output in fences(text):
            # A lab's cell prints a part of its snippet's record (the runner splits it per cell).
            lab = "/labs/" in f"/{twin.relative_to(built_site).as_posix()}"
            assert output in streams or (lab and any(output in s for s in streams)), (twin, output[:200])
            checked += 1
    assert checked > 100


def hrefs(markdown: str) -> list[str]:
    """Every link and image a CommonMark parser finds in a twin (fenced code holds none)."""
    found = []
    for token in MarkdownIt("commonmark").parse(markdown):
        for child in token.children or []:
            found += [str(v) for k, v in (child.attrs or {}).items() if k in ("href", "src")]
    return found


@pytest.mark.slow
def test_every_link_of_every_twin_leads_to_a_file_of_the_site(built_site):
    broken = []
    for twin in twins_in(built_site):
        for href in hrefs(twin.read_text(encoding="utf-8")):
            path = href.split("#")[0]
            if path and not re.match(r"^[a-z]+:", path) and not (twin.parent / path).resolve().is_file():
                broken.append(f"{twin.relative_to(built_site)}: {href}")
    assert broken == []


def llms_links(index: str) -> list[tuple[str, str]]:
    return re.findall(r"^- \[(?P<title>[^\]]+)\]\((?P<href>[^)]+)\)$", index, re.M)


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "es"])
def test_llms_txt_lists_every_twin_of_its_language_and_each_link_resolves(built_site, lang):
    root = built_site if lang == "en" else built_site / "es"
    index = (root / "llms.txt").read_text(encoding="utf-8")
    assert re.match(r"# .+\n\n> .+\n", index) and not CONTROL.search(index)
    sections = index.split("\n## ")[1:]
    assert sections and all(line.startswith("- [") for part in sections for line in part.strip().split("\n")[2:])
    listed = llms_links(index)
    mine = {
        p.relative_to(root).as_posix() for p in twins_in(root) if lang == "es" or "es" != p.relative_to(root).parts[0]
    }
    assert {href for _, href in listed} == mine and len(listed) == len(mine)
    for title, href in listed:
        twin = (root / href).read_text(encoding="utf-8")
        assert title in twin.split("\n", 1)[0], href
    full = (root / "llms-full.txt").read_text(encoding="utf-8")
    folder = "" if lang == "en" else f"{lang}/"  # llms-full.txt holds each twin with its links rebased to the folder
    assert all(rebased((root / h).read_text(encoding="utf-8"), folder + h, folder) in full for _, h in listed)
    assert len(full.encode()) < 2_000_000  # measured: about 0.6 MB in each language
    assert f"\n## {OTHER}\n" not in index  # every page is in the navigation


@pytest.mark.slow
def test_spanish_twins_carry_spanish_prose_and_provenance(built_site):
    spanish = (built_site / "es/theory/01-dispatcher-and-aten/index.md").read_text(encoding="utf-8")
    english = (built_site / "theory/01-dispatcher-and-aten/index.md").read_text(encoding="utf-8")
    assert "Ejecutado en CPU" in spanish and "Ran on CPU" not in spanish and "Ran on CPU" in english
    assert "# 01 — El dispatcher y aten" in spanish and "despacho" not in spanish.lower()
    assert "Esta página en Markdown" in (built_site / "es/index.html").read_text(encoding="utf-8")


def test_llms_full_rebases_each_twins_links_and_leaves_code_and_outputs_as_printed() -> None:
    """llms-full.txt sits at the language's root: a twin's relative links are rewritten from there; a fenced output
    (indented in a note too) and a code span keep their text byte for byte, whatever looks like a link in them."""
    from phase25.site.hosts.llms import prose_lines, rebased

    text = (
        "See [the atlas](../../reference/dispatcher-atlas/index.md#op) and [c](https://x.org/a.md), `f(x)(y)`.\n"
        "```output\n[printed](../../kept.md)\n```\n"
        "    ````text\n    [in a note](../kept.md)\n    ````\n"
        "Then [next](../02-custom-operators/index.md) and [here](#local).\n"
    )
    moved = rebased(text, "es/theory/02-autograd-and-custom-ops/index.md", "es/")
    assert "[the atlas](reference/dispatcher-atlas/index.md#op)" in moved
    assert "[next](theory/02-custom-operators/index.md)" in moved and "[here](#local)" in moved
    assert "[printed](../../kept.md)" in moved and "[in a note](../kept.md)" in moved and "`f(x)(y)`" in moved
    assert [n for n, _ in prose_lines(moved)] == [1, 8]
