"""One build of the site, whatever engine runs it: what it knows (the catalog, the pages being prepared, the
labs), made once and shared by every language, and what it adds to the built site (each file claimed by its one
owner, the labs' downloads, the sitemaps, the 404 page). The MkDocs adapter only hands its events here.
"""

from __future__ import annotations

import logging
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...core.catalog import Catalog, archived, judged_torch
from ...core.devices import LOCAL
from ...core.errors import Interrupted, SourceError
from ...core.names import refuse_unreadable
from ...core.paths import Layout
from ...core.records import Record
from ...run import plan, pool
from ..downloads import lab_header, labs, picture_words
from ..downloads.published import outside_files, published_url
from ..kinds import assemble
from ..lang import languages, strings, translations
from ..page import directives
from ..page.highlight import Highlighter
from . import llms, search_index, site_files
from .files import reproduce_files
from .quirks import i18n

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig

log = logging.getLogger("mkdocs.plugins.phase25")


class Refused(Exception):
    """Why a build cannot go on: one line, which the host turns into its own error."""


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

    @classmethod
    def start(cls, config: MkDocsConfig) -> Build:
        """The catalog, the stale runs executed (``PHASE25_EXECUTE=1``), the labs and the translations checked:
        once per build. Problems are logged as warnings, which a strict build refuses."""
        layout = Layout.of(Path(config.config_file_path).parent)
        local = os.environ.get("PHASE25_EXECUTE") == "1"
        if local and archived():
            raise Refused(
                "an archived version is built from its committed records: it never executes (PHASE25_EXECUTE)"
            )
        docs = Path(config.docs_dir)
        try:
            # pages, assets and theme files (published), records and reports (shown), the pins (an archive's torch)
            read = ("overrides", "records", "reports", "requirements.txt")
            for entry in (docs, *(layout.root / name for name in read)):  # each judged before anything is read
                refuse_unreadable(entry, layout.root)
            catalog = Catalog(layout, judged_torch(layout.root))
            if local:
                _execute(catalog)
                for path in labs.write_all(catalog, docs):  # a local build brings the notebooks up to date
                    log.info("phase25: regenerated %s", path.relative_to(docs))
            # An archived version's notebooks are as its own machinery wrote them: today's may word them otherwise.
            issues = [*([] if archived() else labs.stale(catalog, docs)), *map(str, translations.parity(docs))]
        except (SourceError, KeyError, Interrupted, labs.LabError) as exc:
            raise Refused(str(exc)) from None
        except OSError as exc:
            raise Refused(f"{exc.filename or 'a file'}: {exc.strerror or exc}") from None
        for issue in issues:
            log.warning("%s", issue)
        for problem in catalog.problems():
            log.warning("record: %s", problem)
        for outdated in translations.outdated(docs):
            log.info("translation outdated: %s", outdated)
        build = cls(config, catalog, Highlighter(layout.root / ".cache" / "phase25" / "highlight"))
        build.downloads = {lab.notebook.relative_to(docs).as_posix(): lab for lab in labs.find(docs)}
        return build

    def bundle(self, src_uri: str) -> bytes:
        if src_uri not in self.bundles:
            self.bundles[src_uri] = labs.bundle(self.downloads[src_uri], self.catalog)
        return self.bundles[src_uri]

    def lab_download(self, output: str, src_uri: str, lang: str) -> str:
        """A lab page offers its downloads (the zip written after the build, the notebook beside the page) and,
        where the site names its repository, the notebook's source and a Colab link, right under its title."""
        lab = self.downloads.get(src_uri)
        if lab is None:
            return output
        files = lab_header.LabFiles(
            lang=lang,
            name=lab.notebook.stem,
            zip_name=labs.download_name(lab),
            zip_size=len(self.bundle(src_uri)),
            notebook_name=lab.notebook.name,
            notebook_size=lab.notebook.stat().st_size,
        )
        notice = lab_header.header(files, self.config.repo_url)
        return re.sub(r"(</h1>)", lambda m: m.group(1) + notice, output, count=1)

    def claims(self) -> site_files.Owners:
        """Every file this package adds to the site, each claimed by its one owner, MkDocs' own files first."""
        owners = site_files.Owners()
        for name, source in self.mkdocs_files.items():
            owners.claim(name, source)
        for standing in self.catalog.standings.values():
            if standing.state == "current" and standing.record is not None:
                record = standing.record
                owner = f"the record of {record.snippet} ({record.device})"
                for n, c in record.published.items():
                    owners.claim(published_url(record, n), f"{owner}, its published {n}", c)
                _pictures_in_each_language(record, owners, owner)
                for path, content in outside_files(record).items():
                    owners.claim(path, f"{owner}, its artifact {path.rsplit('/', 1)[1].removesuffix('.txt')}", content)
        reproduce_files(self.catalog, owners, atlases(Path(self.config.docs_dir)))
        for src_uri, lab in self.downloads.items():  # next to the lab's page: "<lang>/labs/<name>/<name>.zip"
            folder = Path(src_uri.removeprefix(f"{strings.DEFAULT}/")).with_suffix("")
            owners.claim(
                f"{folder.as_posix()}/{labs.download_name(lab)}", f"the lab docs/{src_uri}", self.bundle(src_uri)
            )
        llms.claim(owners, self.mkdocs_files, self.catalog, self.config)  # each page's Markdown twin, llms.txt
        return owners

    def notebooks(self) -> list[dict[str, str]]:
        """Each lab's notebook page in every language it has: language -> its address below the site's root."""
        found = []
        for src_uri in sorted(self.downloads):
            lang, rel = src_uri.split("/", 1)
            if lang == strings.DEFAULT:
                path = Path(rel).with_suffix("").as_posix() + "/"
                found.append(
                    {
                        code: languages.prefix(code) + path
                        for code in strings.LANGUAGES
                        if f"{code}/{rel}" in self.downloads
                    }
                )
        return found

    def publish(self, site: Path, site_url: Any) -> None:
        """What the site gets after every language is built: the files claimed (nothing is written unless every
        name has one owner), the search index and the sitemaps per language, the 404 page."""
        self.claims().write_all(site)
        llms.link_pages(site, self.mkdocs_files)
        i18n.split_search_index(site)
        search_index.complete(site)
        i18n.sitemap_per_language(site, site_url, self.notebooks())
        if self.not_found:
            site_files.write(site, "404.html", self.not_found)


def _pictures_in_each_language(record: Record, owners: site_files.Owners, owner: str) -> None:
    """Each picture the record published, its labels said in every other language (downloads/picture_words)."""
    for name in (n for n in sorted(record.published) if n.endswith(".svg")):
        for lang in strings.LANGUAGES[1:]:
            said, missing = picture_words.translated(str(record.published[name]), lang)
            for label in missing:
                log.warning(
                    "snippets/%s.py publishes %s, whose label %r has no words in %s: add 'picture: %s' to the "
                    "language's strings",
                    record.snippet,
                    name,
                    label,
                    lang,
                    label,
                )
            where = published_url(record, picture_words.picture_name(name, lang))
            owners.claim(where, f"{owner}, its {name} in {lang}", said)


def atlases(docs: Path) -> set[str]:
    """The snippets whose records own the atlas's data: those an ``::: atlas`` directive of a page names."""
    return {snippet for page in directives.in_pages(docs).values() for snippet in directives.shown(page, "atlas")}


def _execute(catalog: Catalog) -> None:
    """Every stale run this machine can make (the CPU and the emulated devices): a build after every record went
    stale (a new machine, an upgrade) re-makes them all before the labs, which show the emulated ones, are written."""
    todo, _ = plan.jobs(catalog, list(LOCAL))
    if not todo:
        return
    log.info("phase25: executing %d stale run(s) of this machine (%s)", len(todo), ", ".join(LOCAL))
    outcome = pool.run(catalog, todo, workers=os.cpu_count() or 1)
    for note in outcome.notes:
        log.info("phase25: %s", note)
    for intrusion in outcome.intrusions:
        log.warning("phase25: %s", intrusion)
    for record in outcome.failures:
        log.warning("snippet %s (%s) %s: %s", record.snippet, record.device, record.status, record.error)
