"""The MkDocs adapter: MkDocs' events, each handed to the module that does the work.

mkdocs-static-i18n builds each language by running MkDocs' build again with the
same config object, so everything costly (the catalog, the execution of stale
runs, the labs and translation checks) happens once per config object and is
reused by every language. Pages only ever read records. Every problem is logged
as a warning naming the page and line, so ``mkdocs build --strict`` refuses it.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

from ...core.errors import SourceError
from ..kinds import assemble
from ..lang import languages, strings, translations
from ..page.context import Page
from ..page.page_source import FRONT_MATTER
from . import search_input
from .build import Build, Refused
from .quirks import i18n, jupyter, material

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files
    from mkdocs.structure.pages import Page as MkDocsPage

log = logging.getLogger("mkdocs.plugins.phase25")


_CURRENT: Build | None = None


def _fail(message: str) -> PluginError:
    return PluginError(message)


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
    jupyter.keep_notebook_cache(config)
    search_input.lighter_search_input(config)
    if _CURRENT is not None and _CURRENT.config is config:
        return  # another language of the same build
    try:
        _CURRENT = Build.start(config)
    except Refused as exc:
        raise _fail(str(exc)) from None


def _build() -> Build:
    """The build under way: every event after on_pre_build has one (MkDocs calls them in that order)."""
    if _CURRENT is None:
        raise _fail("an event of the build came before on_pre_build: no build under way")
    return _CURRENT


@event_priority(-200)  # after mkdocs-static-i18n has rebuilt the file list
def on_files(files: Files, config: MkDocsConfig) -> Files:
    files = i18n.notebooks_as_pages(files, config)
    for file in files:  # each language's pass: what MkDocs will write, and from which source
        source = f"docs/{file.src_uri}" if file.abs_src_path else f"{file.generated_by or 'MkDocs'}: {file.src_uri}"
        held = _build().mkdocs_files.setdefault(file.dest_uri, source)
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
    build, where = _build(), f"docs/{page.file.src_uri}"
    view = Page(_lang(page), where, build.catalog, build.highlighter, "../" * page.url.count("/"))
    try:
        prepared = assemble.prepare(markdown, view)
    except SourceError as exc:
        offset = _front_matter_lines(page)
        raise _fail(f"{where}:{(exc.line or 0) + offset}: {exc.message}") from None
    build.prepared[page.file.src_uri] = (prepared, _front_matter_lines(page))
    return prepared.markdown


def on_page_content(html: str, page: MkDocsPage, config: MkDocsConfig, files: Files) -> str:
    prepared, offset = _build().prepared.pop(page.file.src_uri)
    html, late = assemble.finish(html, prepared)
    for problem in sorted(prepared.problems + late, key=lambda p: p.line):
        line = f":{problem.line + offset}" if problem.line else ""
        log.warning("docs/%s%s: %s", page.file.src_uri, line, problem.message)
    if notice := translations.notice(Path(config.docs_dir), page.file.src_uri, page.url):
        end = html.find("</h1>")
        at = end + len("</h1>") if end >= 0 else 0
        html = html[:at] + notice + html[at:]
    return html


def on_post_page(output: str, page: MkDocsPage, config: MkDocsConfig) -> str:
    output = _build().lab_download(output, page.file.src_uri, _lang(page))
    output = i18n.search_base(output, _lang(page))
    output = material.alternates_in_sitemaps_only(output)
    output = material.accessible(output, _lang(page))
    output = material.localized(output, _lang(page))
    output = jupyter.notebook_prompts(output)
    return output


def on_post_template(output: str, template_name: str, config: MkDocsConfig) -> str:
    """The 404 page: static-i18n renders it in every language pass, each overwriting the last; the
    default language's version is kept and written back after the last pass."""
    if template_name != "404.html":
        return output
    output = i18n.not_found_content(i18n.not_found_page(output, config.site_url))
    output = material.accessible(output, strings.DEFAULT)
    if config.theme.get("language") == strings.DEFAULT:
        _build().not_found = output
    return output


@event_priority(-200)  # after static-i18n has built every language and merged the search index
def on_post_build(config: MkDocsConfig) -> None:
    try:
        _build().publish(Path(config.site_dir), config.site_url)
    except SourceError as exc:
        raise _fail(str(exc)) from None
