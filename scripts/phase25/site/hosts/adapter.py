"""The MkDocs adapter: MkDocs' events, each handed to the module that does the work.

mkdocs-static-i18n builds each language by running MkDocs' build again with the
same config object, so everything costly (the catalog, the execution of stale
runs, the labs and translation checks) happens once per config object and is
reused by every language. Pages only ever read records. Every problem is logged
as a warning naming the page and line, so ``mkdocs build --strict`` refuses it.
"""

from __future__ import annotations

import logging
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

from ...core.catalog import Catalog, archived, judged_torch
from ...core.errors import Interrupted, SourceError
from ...core.names import refuse_links
from ...core.paths import Layout
from ...run import plan, pool
from ..downloads import labs
from ..downloads.published import outside_files, published_url
from ..kinds import assemble
from ..lang import languages, strings, translations
from ..page import directives
from ..page.context import Page
from ..page.highlight import Highlighter
from ..page.markup import admonition, escape
from ..page.page_source import FRONT_MATTER
from . import search_input, site_files, workarounds
from .files import reproduce_files

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files
    from mkdocs.structure.pages import Page as MkDocsPage

log = logging.getLogger("mkdocs.plugins.phase25")


@dataclass
class Build:
    """What one build knows, shared by all its languages."""

    config: MkDocsConfig
    catalog: Catalog
    highlighter: Highlighter
    prepared: dict[str, tuple[assemble.Prepared, int]] = field(default_factory=dict)
    not_found: str = ""  # the 404 page in the default language
    downloads: dict[str, labs.Lab] = field(default_factory=dict)  # notebook src_uri -> its lab
    bundles: dict[str, bytes] = field(default_factory=dict)  # notebook src_uri -> its download
    mkdocs_files: dict[str, str] = field(default_factory=dict)  # site name -> the docs/ file MkDocs makes it from


_CURRENT: Build | None = None


def _fail(message: str) -> PluginError:
    return PluginError(message)


def _execute(catalog: Catalog) -> None:
    todo, _ = plan.jobs(catalog, ["cpu"])
    if not todo:
        return
    log.info("phase25: executing %d stale CPU run(s)", len(todo))
    outcome = pool.run(catalog, todo, workers=os.cpu_count() or 1)
    for note in outcome.notes:
        log.info("phase25: %s", note)
    for intrusion in outcome.intrusions:
        log.warning("phase25: %s", intrusion)
    for record in outcome.failures:
        log.warning("snippet %s (cpu) %s: %s", record.snippet, record.status, record.error)


def _strict_sees_warnings(config: MkDocsConfig) -> None:
    """Under ``--strict``, warnings are logged whatever the log level.

    MkDocs fails a strict build on the warnings it counts as it logs them. ``--quiet`` sets the level
    to ERROR, so nothing was logged, nothing counted, and ``mkdocs build --strict --quiet`` passed with
    a stale output, a quote the output does not show, a dead link. Strict wins over quiet."""
    logger = logging.getLogger("mkdocs")
    if getattr(config, "strict", False) and not logger.isEnabledFor(logging.WARNING):
        logger.setLevel(logging.WARNING)


@event_priority(100)  # before mkdocs-static-i18n reads the selector's entries (it keeps ones a config gives)
def on_config(config: MkDocsConfig) -> MkDocsConfig:
    """The language selector's home pages, from the languages declared once (site/lang/languages.py), each given
    relative to the site's root: each page links them relative to itself, so the selector holds wherever the site
    is served (static-i18n would write absolute paths from site_url; it still points every other page at its
    own translation)."""
    config.extra["alternate"] = languages.selector()
    return config


def on_pre_build(config: MkDocsConfig) -> None:
    global _CURRENT  # noqa: PLW0603 - MkDocs hooks are module functions; one state per build
    _strict_sees_warnings(config)
    workarounds.keep_notebook_cache(config)
    search_input.lighter_search_input(config)
    if _CURRENT is not None and _CURRENT.config is config:
        return  # another language of the same build
    layout = Layout.of(Path(config.config_file_path).parent)
    local = os.environ.get("PHASE25_EXECUTE") == "1"
    if local and archived():
        raise _fail("an archived version is built from its committed records: it never executes (PHASE25_EXECUTE)")
    try:
        for folder in (Path(config.docs_dir), layout.root / "overrides"):  # pages, assets, theme files: published
            refuse_links(folder, layout.root)
        catalog = Catalog(layout, judged_torch(layout.root))
        if local:
            _execute(catalog)
        docs = Path(config.docs_dir)
        if local:  # a local build brings the notebooks up to date
            for path in labs.write_all(catalog, docs):
                log.info("phase25: regenerated %s", path.relative_to(docs))
        # An archived version's notebooks are as its own machinery wrote them: today's may word them otherwise.
        issues = [*([] if archived() else labs.stale(catalog, docs)), *(str(i) for i in translations.parity(docs))]
    except (SourceError, KeyError, Interrupted) as exc:
        raise _fail(str(exc)) from None
    except OSError as exc:
        raise _fail(f"{exc.filename or 'a file'}: {exc.strerror or exc}") from None
    for issue in issues:
        log.warning("%s", issue)
    for problem in catalog.problems():
        log.warning("record: %s", problem)
    for outdated in translations.outdated(docs):
        log.info("translation outdated: %s", outdated)
    _CURRENT = Build(config, catalog, Highlighter(layout.root / ".cache" / "phase25" / "highlight"))
    _CURRENT.downloads = {lab.notebook.relative_to(docs).as_posix(): lab for lab in labs.find(docs)}


@event_priority(-200)  # after mkdocs-static-i18n has rebuilt the file list
def on_files(files: Files, config: MkDocsConfig) -> Files:
    files = workarounds.notebooks_as_pages(files, config)
    if _CURRENT is not None:  # each language's pass: what MkDocs will write, and from which source
        for file in files:
            source = f"docs/{file.src_uri}" if file.abs_src_path else f"{file.generated_by or 'MkDocs'}: {file.src_uri}"
            held = _CURRENT.mkdocs_files.setdefault(file.dest_uri, source)
            if held != source:
                raise _fail(f"site/{file.dest_uri}: two sources publish this file: {held} and {source}")
    return files


def _lang(page: MkDocsPage) -> str:
    first = page.file.src_uri.split("/", 1)[0]
    return first if first in strings.LANGUAGES else strings.DEFAULT


def _front_matter_lines(page: MkDocsPage) -> int:
    try:
        raw = Path(page.file.abs_src_path or "").read_text(encoding="utf-8")
    except (OSError, TypeError):
        return 0
    match = FRONT_MATTER.match(raw)
    return match.group(0).count("\n") if match else 0


def on_page_markdown(markdown: str, page: MkDocsPage, config: MkDocsConfig, files: Files) -> str:
    assert _CURRENT is not None
    where = f"docs/{page.file.src_uri}"
    view = Page(_lang(page), where, _CURRENT.catalog, _CURRENT.highlighter, "../" * page.url.count("/"))
    try:
        prepared = assemble.prepare(markdown, view)
    except SourceError as exc:
        offset = _front_matter_lines(page)
        raise _fail(f"{where}:{(exc.line or 0) + offset}: {exc.message}") from None
    _CURRENT.prepared[page.file.src_uri] = (prepared, _front_matter_lines(page))
    return prepared.markdown


def on_page_content(html: str, page: MkDocsPage, config: MkDocsConfig, files: Files) -> str:
    assert _CURRENT is not None
    prepared, offset = _CURRENT.prepared.pop(page.file.src_uri)
    html, late = assemble.finish(html, prepared)
    for problem in sorted(prepared.problems + late, key=lambda p: p.line):
        line = f":{problem.line + offset}" if problem.line else ""
        log.warning("docs/%s%s: %s", page.file.src_uri, line, problem.message)
    if notice := translations.notice(Path(config.docs_dir), page.file.src_uri, page.url):
        end = html.find("</h1>")
        at = end + len("</h1>") if end >= 0 else 0
        html = html[:at] + notice + html[at:]
    return html


def _bundle(src_uri: str) -> bytes:
    assert _CURRENT is not None
    if src_uri not in _CURRENT.bundles:
        _CURRENT.bundles[src_uri] = labs.bundle(_CURRENT.downloads[src_uri], _CURRENT.catalog)
    return _CURRENT.bundles[src_uri]


def _lab_download(output: str, page: MkDocsPage) -> str:
    """A lab page offers its download (written by on_post_build) right under its title."""
    assert _CURRENT is not None
    lab = _CURRENT.downloads.get(page.file.src_uri)
    if lab is None:
        return output
    lang = _lang(page)
    name, size = labs.download_name(lab), len(_bundle(page.file.src_uri)) // 1024
    body = escape(strings.text(lang, "lab_download", file="@@FILE@@", size=size))
    body = body.replace("@@FILE@@", f'<a href="{name}" download>{escape(name)}</a>')
    notice = admonition("tip", strings.text(lang, "lab_download_title"), body)
    return re.sub(r"(</h1>)", lambda m: m.group(1) + notice, output, count=1)


def on_post_page(output: str, page: MkDocsPage, config: MkDocsConfig) -> str:
    output = _lab_download(output, page)
    output = workarounds.search_base(output, _lang(page))
    output = workarounds.alternates_in_sitemaps_only(output)
    output = workarounds.accessible(output, _lang(page))
    output = workarounds.localized(output, _lang(page))
    output = workarounds.notebook_prompts(output)
    return output


def on_post_template(output: str, template_name: str, config: MkDocsConfig) -> str:
    """The 404 page: static-i18n renders it in every language pass, each overwriting the last; the
    default language's version is kept and written back after the last pass."""
    if template_name != "404.html":
        return output
    output = workarounds.not_found_content(workarounds.not_found_page(output, config.site_url))
    output = workarounds.accessible(output, strings.DEFAULT)
    if _CURRENT is not None and config.theme.get("language") == strings.DEFAULT:
        _CURRENT.not_found = output
    return output


@event_priority(-200)  # after static-i18n has built every language and merged the search index
def on_post_build(config: MkDocsConfig) -> None:
    try:
        _post_build(config)
    except SourceError as exc:
        raise _fail(str(exc)) from None


def _atlases(docs: Path) -> set[str]:
    """The snippets whose records own the atlas's data: those an ``::: atlas`` directive of a page names."""
    found = [directives.parse(p.read_text(encoding="utf-8"), f"docs/{p.relative_to(docs)}") for p in docs.rglob("*.md")]
    return {snippet for page in found for snippet in directives.shown(page, "atlas")}


def _claims(build: Build) -> site_files.Owners:
    """Every file this package adds to the site, each claimed by its one owner, MkDocs' own files claimed first."""
    owners = site_files.Owners()
    for name, source in build.mkdocs_files.items():
        owners.claim(name, source)
    for standing in build.catalog.standings.values():
        if standing.state == "current" and standing.record is not None:
            record = standing.record
            owner = f"the record of {record.snippet} ({record.device})"
            for n, c in record.published.items():
                owners.claim(published_url(record, n), f"{owner}, its published {n}", c)
            for path, content in outside_files(record).items():
                owners.claim(path, f"{owner}, its artifact {path.rsplit('/', 1)[1].removesuffix('.txt')}", content)
    reproduce_files(build.catalog, owners, _atlases(Path(build.config.docs_dir)))
    for src_uri, lab in build.downloads.items():  # next to the lab's page: "<lang>/labs/<name>/<name>.zip"
        folder = Path(src_uri.removeprefix(f"{strings.DEFAULT}/")).with_suffix("")
        owners.claim(f"{folder.as_posix()}/{labs.download_name(lab)}", f"the lab docs/{src_uri}", _bundle(src_uri))
    return owners


def _post_build(config: MkDocsConfig) -> None:
    site = Path(config.site_dir)
    if _CURRENT is not None:
        _claims(_CURRENT).write_all(site)  # nothing is written unless every name has one owner
    workarounds.split_search_index(site)
    notebooks = []
    if _CURRENT is not None:
        for src_uri in sorted(_CURRENT.downloads):
            lang, rel = src_uri.split("/", 1)
            if lang == strings.DEFAULT:
                path = Path(rel).with_suffix("").as_posix() + "/"
                notebooks.append(
                    {
                        code: (path if code == strings.DEFAULT else f"{code}/{path}")
                        for code in strings.LANGUAGES
                        if f"{code}/{rel}" in _CURRENT.downloads
                    }
                )
    workarounds.sitemap_per_language(site, config.site_url, notebooks)
    if _CURRENT is not None and _CURRENT.not_found:
        site_files.write(site, "404.html", _CURRENT.not_found)
