"""What an assistant reads of the built site: each page's Markdown twin (:mod:`markdown_twins`), one ``llms.txt``
per language that lists them (the llms.txt format: an H1 with the site's name, a blockquote summary, then one
section of links per part of the navigation, one line each), an ``llms-full.txt`` with every twin of the language
in the navigation's order, and on every HTML page a link to its twin.

Every name is claimed through :class:`site_files.Owners`, like any file this package adds. The links of
``llms.txt`` are relative to it, so they hold wherever the site is served (a preview, the offline copy).
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from ...core.catalog import Catalog
from ..lang import languages, strings
from ..page.markup import escape
from . import site_files
from .markdown_snippet import Where
from .markdown_twins import Links, notebook_twin, page_twin, title, twin_name

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig

OTHER = "Optional"  # llms.txt's name for a section an assistant may skip: the pages outside the navigation


@dataclass(frozen=True)
class Twin:
    name: str  # its name in the site: "es/theory/01-x/index.md"
    source: str  # its page's source below docs/: "es/theory/01-x.md"
    lang: str
    title: str
    text: str


def pages(mkdocs_files: dict[str, str], site: Path) -> dict[str, str]:
    """Each page the build wrote, by its source below docs/ (``en/theory/01-x.md``) -> its twin's name in the
    site. MkDocs' file list also names what it did not write (a lab's ``.lab.md``, excluded): the page must be
    there."""
    found = {}
    for name, source in mkdocs_files.items():
        if source.endswith(".ipynb") and source.startswith("docs/"):  # a notebook's page (quirks.i18n, #198)
            lang, rel = source.removeprefix("docs/").split("/", 1)
            page = f"{languages.prefix(lang)}{rel.removesuffix('.ipynb')}/index.html"
            if (site / page).is_file():
                found[source.removeprefix("docs/")] = twin_name(page)
        elif name.endswith(".html") and source.startswith("docs/") and source.endswith(".md"):
            if name != "404.html" and (site / name).is_file():
                found[source.removeprefix("docs/")] = twin_name(name)
    return found


def twins(mkdocs_files: dict[str, str], catalog: Catalog, docs: Path, site: Path) -> list[Twin]:
    """Every page's twin, rendered from its source and the catalog's records."""
    found = pages(mkdocs_files, site)
    made = []
    for source, name in sorted(found.items()):
        lang = source.split("/", 1)[0]
        text = (docs / source).read_text(encoding="utf-8")
        links = Links(found, source)
        depth = name.count("/")  # the site's root, where the published files are, whatever the language
        if source.endswith(".ipynb"):
            twin = notebook_twin(text, links, f"docs/{source}")
        else:
            twin = page_twin(text, Where(lang, catalog, "../" * depth), links, f"docs/{source}")
        made.append(Twin(name, source, lang, title(twin) or source, twin))
    return made


def _config(config_file: Path) -> dict[str, Any]:
    loaded = yaml.load(config_file.read_text(encoding="utf-8"), Loader=languages._Tolerant)  # its tags as values
    return loaded if isinstance(loaded, dict) else {}


def _sections(nav: list[Any], translated: dict[str, str]) -> list[tuple[str, list[str]]]:
    """The navigation's top entries as (section title, the sources under it, in order)."""

    def sources(entry: Any) -> list[str]:
        if isinstance(entry, str):
            return [entry]
        if isinstance(entry, list):
            return [s for item in entry for s in sources(item)]
        return [s for value in entry.values() for s in sources(value)] if isinstance(entry, dict) else []

    return [(translated.get(str(key), str(key)), sources(value)) for item in nav or [] for key, value in item.items()]


FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})")  # a fence, indented too (in a list, a note)
LINK = re.compile(r"(\]\()([^)\s]+)(\))")
CODE_SPAN = re.compile(r"(`+[^`]*`+)")


def rebased(text: str, name: str, folder: str) -> str:
    """A twin's text as ``folder``'s llms-full.txt holds it (``""`` or ``"es/"``): its relative links, written from
    the twin's folder, made relative to ``folder``; fenced blocks (code, recorded outputs) are left as they are."""
    here = posixpath.dirname(name)
    out, fence = [], ""
    for line in text.splitlines(keepends=True):
        opened = FENCE.match(line)
        if fence:
            mark = opened[1] if opened else ""
            closes = mark[:1] == fence[0] and len(mark) >= len(fence) and not line.strip()[len(mark) :].strip()
            fence = "" if closes else fence
            out.append(line)
        elif opened:
            fence = opened[1]
            out.append(line)
        else:
            spans = CODE_SPAN.split(line)  # a code span's text is code, never a link: odd pieces are left alone
            moved = (
                LINK.sub(lambda m: m[1] + _from(here, folder, m[2]) + m[3], s) if i % 2 == 0 else s
                for i, s in enumerate(spans)
            )
            out.append("".join(moved))
    return "".join(out)


def prose_lines(text: str) -> list[tuple[int, str]]:
    """(number, line) of each line outside fenced blocks, its code spans taken out: where a link can be."""
    found, fence = [], ""
    for number, line in enumerate(text.splitlines(), 1):
        opened = FENCE.match(line)
        mark = opened[1] if opened else ""
        if fence:
            if mark[:1] == fence[0] and len(mark) >= len(fence) and not line.strip()[len(mark) :].strip():
                fence = ""
        elif mark:
            fence = mark
        else:
            found.append((number, CODE_SPAN.sub("", line)))
    return found


def _from(here: str, folder: str, target: str) -> str:
    if re.match(r"[a-z][a-z0-9+.-]*:|#|/", target):
        return target  # an address of its own, an anchor of the same twin, or from the site's root
    path, hash_, anchor = target.partition("#")
    moved = posixpath.relpath(posixpath.normpath(posixpath.join(here, path)), folder.rstrip("/") or ".")
    return moved + (path.endswith("/") and not moved.endswith("/")) * "/" + hash_ + anchor


def index(lang: str, made: list[Twin], config_file: Path) -> tuple[str, str]:
    """(llms.txt, llms-full.txt) of one language: its twins by navigation section, the rest under Optional."""
    data = _config(config_file)
    plugin: dict[str, Any] = next(
        (p["i18n"] for p in data.get("plugins", []) if isinstance(p, dict) and "i18n" in p), {}
    )
    entry: dict[str, Any] = next((e for e in (plugin or {}).get("languages", []) if e.get("locale") == lang), {})
    name = entry.get("site_name") or data.get("site_name", "")
    summary = " ".join(str(entry.get("site_description") or data.get("site_description", "")).split())
    mine = {t.source.split("/", 1)[1]: t for t in made if t.lang == lang}
    prefix = languages.prefix(lang)
    head = f"# {name}\n\n> {summary}\n\n{strings.text(lang, 'llms_intro')}\n"
    listed, full = [head], [head]
    left = dict(mine)
    groups = [*_sections(data.get("nav", []), entry.get("nav_translations") or {}), (OTHER, sorted(mine))]
    for section, sources in groups:
        chosen = [left.pop(s) for s in sources if s in left]
        if chosen:
            rows = "".join(f"- [{t.title}]({t.name.removeprefix(prefix)})\n" for t in chosen)
            listed.append(f"\n## {section}\n\n{rows}")
            full += [f"\n{rebased(t.text, t.name, prefix)}" for t in chosen]
    return "".join(listed), "".join(full)


def claim(owners: site_files.Owners, mkdocs_files: dict[str, str], catalog: Catalog, config: MkDocsConfig) -> None:
    """Claim every twin, and each language's llms.txt and llms-full.txt, for the build to write."""
    config_file = Path(config.config_file_path)
    made = twins(mkdocs_files, catalog, Path(config.docs_dir), Path(config.site_dir))
    for twin in made:
        owners.claim(twin.name, f"the Markdown twin of docs/{twin.source}", twin.text)
    for lang in strings.LANGUAGES:
        listed, full = index(lang, made, config_file)
        prefix = languages.prefix(lang)
        owners.claim(f"{prefix}llms.txt", f"the Markdown twins in {lang}", listed)
        owners.claim(f"{prefix}llms-full.txt", f"the Markdown twins in {lang}", full)


_ARTICLE_END = re.compile(r"</article>")


def link_pages(site: Path, mkdocs_files: dict[str, str]) -> None:
    """Each HTML page links its twin at the end of its article. Not a ``<link rel="alternate">`` in the head:
    Material's script requests ``sitemap.xml`` beside every such link (a 404 on every page but the homes)."""
    for source, twin in pages(mkdocs_files, site).items():
        page = site / (twin.removesuffix(".md") + ".html")
        if not page.is_file():
            continue
        lang = source.split("/", 1)[0]
        html = page.read_text(encoding="utf-8")
        if 'class="md-twin"' in html:  # static-i18n calls the build's last hook once per language
            continue
        anchor = (
            f'<p class="md-twin"><a href="{escape(Path(twin).name)}" rel="alternate" type="text/markdown">'
            f"{escape(strings.text(lang, 'llms_twin_link'))}</a></p>"
        )
        site_files.write(site, page.relative_to(site).as_posix(), _ARTICLE_END.sub(anchor + "</article>", html, 1))
