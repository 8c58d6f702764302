"""MkDocs hook: execute what is stale once per build, then render pages from records.

mkdocs-static-i18n builds each language by calling MkDocs' build again with the
same config object, so everything costly (discovering snippets, hashing them,
reading records, executing stale runs) happens once per config object and is
reused by every language. Pages only ever read records.
"""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from types import SimpleNamespace

from . import drift, header, i18n, labs, pages, records, render, runner, translations
from .paths import DEFAULT_LAYOUT, Layout

try:
    from mkdocs.plugins import event_priority
except ImportError:  # the runner side never imports this module, but keep it importable

    def event_priority(priority):  # type: ignore[no-redef]
        return lambda f: f


log = logging.getLogger("mkdocs.plugins.phase25")
SLOT = "<!--phase25-slot-{}-->"
SLOT_RE = re.compile(r"(?:<p>)?<!--phase25-slot-(\d+)-->(?:</p>)?")


@dataclass
class BuildState:
    """What one build knows about snippets and records, shared by all languages."""

    config: object
    layout: Layout
    snippets: dict[str, records.Snippet]
    views: dict[tuple[str, str], records.Freshness]
    executed: int = 0
    slots: dict[str, dict[int, str]] = field(default_factory=dict)


_STATE: BuildState | None = None


def state() -> BuildState | None:
    """The current build's state (the benchmark reads ``executed``)."""
    return _STATE


def _execute_stale(layout: Layout) -> int:
    """Run the stale CPU jobs before any page is rendered; returns how many ran."""
    todo, _ = runner.plan(layout, ["cpu"], torch_version=runner.installed_torch())
    if not todo:
        return 0
    log.info("phase25: executing %d stale CPU run(s)", len(todo))
    outcome = runner.run(layout, todo, workers=os.cpu_count() or 1)
    for record in outcome.failures:
        log.warning("snippet %s (cpu) %s: %s", record.snippet, record.status, record.error)
    return len(outcome.executed)


def _keep_notebook_cache(config) -> None:
    """Stop each language pass from evicting the other languages' rendered notebooks.

    mkdocs-jupyter caches each rendered notebook and, after a build, deletes the
    entries that build did not use. static-i18n builds one language per pass, so
    every pass deleted the other language's entries and nothing was ever reused.
    Declaring every notebook of every language as used keeps the cache warm.
    """
    plugin = config.plugins.get("mkdocs-jupyter")
    if plugin is None or not plugin.config.get("cache"):
        return
    from mkdocs_jupyter.plugin import _compute_cache_key, _get_cache_path

    execute = plugin.config["execute"]
    for notebook in Path(config.docs_dir).rglob("*.ipynb"):
        key = _compute_cache_key(str(notebook), plugin.config, execute)
        plugin._used_cache_paths.add(_get_cache_path(plugin.config["cache_dir"], key))


def on_pre_build(config) -> None:
    global _STATE  # noqa: PLW0603 - MkDocs hooks are module functions; one state per build
    _keep_notebook_cache(config)
    if _STATE is not None and _STATE.config is config:
        return  # another language of the same build
    layout = Layout.of(Path(config.config_file_path).parent) if config.config_file_path else DEFAULT_LAYOUT
    render.HIGHLIGHT_CACHE = layout.root / ".cache" / "phase25-highlight"
    executed = _execute_stale(layout) if os.environ.get("PHASE25_EXECUTE") == "1" else 0
    try:
        snippets = {s.id: s for s in records.discover(layout)}
    except header.HeaderError as exc:
        from mkdocs.exceptions import PluginError

        raise PluginError(str(exc)) from None
    torch_version = runner.installed_torch()
    views = {
        (s.id, device): records.freshness(layout, s, device, torch_version if device == "cpu" else None)
        for s in snippets.values()
        for device in s.header.devices
    }
    _STATE = BuildState(config=config, layout=layout, snippets=snippets, views=views, executed=executed)
    docs = Path(config.docs_dir)
    if os.environ.get("PHASE25_EXECUTE") == "1":  # a local build: bring the notebooks up to date
        for path in labs.write_all(layout, docs):
            log.info("phase25: regenerated %s", path.relative_to(docs))
    for problem in labs.stale(layout, docs):
        log.warning("lab: %s", problem)
    for issue in translations.parity(docs):
        log.warning("translation: %s", issue)
    for issue in translations.outdated(docs):
        log.info("translation outdated: %s", issue)


@event_priority(-200)  # after mkdocs-static-i18n has rebuilt the file list
def on_files(files, config):
    """Hand the lab notebooks back to mkdocs-jupyter as pages.

    mkdocs-static-i18n recreates every File as a plain one, so the notebooks
    that mkdocs-jupyter had marked as pages become static files, copied as raw
    JSON (mkdocs-static-i18n issue #198). Each is replaced by a page File that
    keeps the language's output path and static-i18n's attributes; mkdocs-jupyter
    recognizes it by its path and renders it.
    """
    plugin = config.plugins.get("mkdocs-jupyter")
    if plugin is None:
        return files
    from mkdocs.structure.files import File

    class NotebookPage(File):
        def is_documentation_page(self) -> bool:
            return True

    for notebook in [f for f in files if f.src_uri.endswith(".ipynb") and plugin.should_include(f)]:
        stem = PurePosixPath(notebook.dest_uri).with_suffix("")  # labs/... in English, es/labs/... in Spanish
        dest = f"{stem}/index.html" if config.use_directory_urls else f"{stem}.html"
        page = NotebookPage(
            notebook.src_uri, notebook.src_dir, config.site_dir, config.use_directory_urls, dest_uri=dest
        )
        page.__dict__.update({k: v for k, v in vars(notebook).items() if k not in vars(page)})
        # static-i18n links alternates for Markdown pages only: give the language
        # switcher the same notebook in each language.
        rel = PurePosixPath(notebook.src_uri.split("/", 1)[1]).with_suffix("")
        page.alternates = {
            lang: SimpleNamespace(url=f"{'' if lang == i18n.DEFAULT else lang + '/'}{rel}/")
            for lang in i18n.LANGUAGES
            if (Path(config.docs_dir) / lang / notebook.src_uri.split("/", 1)[1]).exists()
        }
        files.remove(notebook)  # in place: the Files object is static-i18n's own subclass
        files.append(page)
    return files


def _page_lang(page) -> str:
    first = page.file.src_uri.split("/", 1)[0]
    return first if first in i18n.LANGUAGES else i18n.DEFAULT


def on_page_markdown(markdown: str, page, config, files) -> str:
    assert _STATE is not None
    lang = _page_lang(page)
    where = f"docs/{page.file.src_uri}"
    slots: dict[int, str] = {}
    lines = markdown.split("\n")
    for number, directive in enumerate(pages.directives(markdown)):
        if directive.kind == "snippet":
            fragment = _render_snippet(directive.arg, lang, where, number, "../" * page.url.count("/"))
        elif directive.kind == "drift-report":
            fragment = _render_drift(directive.arg, lang, where)
        else:
            fragment = _render_report(lang)
        slots[number] = fragment
        lines[directive.line - 1] = directive.indent + SLOT.format(number)
    _STATE.slots[page.file.src_uri] = slots
    return "\n".join(lines)


def _render_snippet(snippet_id: str | None, lang: str, where: str, index: int, site_root: str) -> str:
    assert _STATE is not None
    snippet = _STATE.snippets.get(snippet_id or "")
    if snippet is None:
        log.warning("%s: unknown snippet %r (expected snippets/<page>/<name>.py)", where, snippet_id)
        return render._admonition("failure", "Unknown snippet", render.escape(str(snippet_id)))
    _, code = header.split(snippet.source)
    views = [(device, _STATE.views[(snippet.id, device)]) for device in snippet.header.devices]
    rendered = render.render_snippet(snippet.id, code, views, lang, index + 1, site_root=site_root)
    for problem in rendered.problems:
        log.warning("%s: snippet %s (%s): %s", where, snippet.id, problem.device, problem.message)
    return rendered.html


def _render_report(lang: str) -> str:
    """The execution report: every (snippet, device), its status and provenance."""
    assert _STATE is not None
    t = lambda key, **kw: i18n.text(lang, key, **kw)  # noqa: E731
    head = "".join(
        f"<th>{render.escape(t(k))}</th>"
        for k in (
            "report_snippet",
            "report_device",
            "report_status",
            "report_wall",
            "report_torch",
            "report_where",
            "report_date",
        )
    )
    rows, counts = [], {"ok": 0, "missing": 0, "bad": 0}
    for (snippet_id, device), fresh in sorted(_STATE.views.items()):
        rec = fresh.record
        state_key = fresh.verdict
        status = f"status_{state_key}"
        bucket = "ok" if state_key == "current" else "bad" if fresh.is_problem(device) else "missing"
        counts[bucket] += 1
        cells = [
            f"<code>{render.escape(snippet_id)}</code>",
            render.DEVICE_LABELS[device],
            t(status),
            f"{rec.run.get('wall_s', 0):.1f} s" if rec else "—",
            rec.provenance.get("torch", "—") if rec else "—",
            rec.provenance.get("device_name", "—") if rec else "—",
            rec.run.get("date", "—") if rec else "—",
        ]
        rows.append(
            f'<tr class="report-{state_key}">'
            + "".join(f"<td>{c if c.startswith('<code>') else render.escape(c)}</td>" for c in cells)
            + "</tr>"
        )
    summary = t("report_summary", total=len(_STATE.views), snippets=len(_STATE.snippets), **counts)
    return (
        f'<p class="execution-summary">{render.escape(summary)}</p>'
        f'<table class="execution-report"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'
    )


def _render_drift(name: str | None, lang: str, where: str) -> str:
    """A drift report: one row per snippet, the diff of each changed output one click away."""
    assert _STATE is not None
    try:
        report = drift.load(_STATE.layout.root, name or "")
    except (OSError, ValueError) as exc:
        log.warning("%s: drift report %r cannot be read: %s", where, name, exc)
        return render._admonition("failure", "Drift report", render.escape(str(exc)))
    for problem in drift.problems(report):
        log.warning("%s: drift report %s: %s", where, name, problem)
    t = lambda key, **kw: i18n.text(lang, key, **kw)  # noqa: E731
    states = [e["state"] for e in report["entries"]]
    summary = t(
        "drift_summary",
        total=len(states),
        a=report["a"].get("build") or report["a"]["torch"],
        a_date=report["a"]["date"],
        b=report["b"].get("build") or report["b"]["torch"],
        b_date=report["b"]["date"],
        changed=states.count("changed"),
        unchanged=states.count("unchanged"),
        other=len(states) - states.count("changed") - states.count("unchanged"),
    )
    rows, details = [], []
    for entry in report["entries"]:
        snippet = _STATE.snippets.get(entry["snippet"])
        edited = snippet is not None and entry["source_sha256"]["a"] not in (
            None,
            records.source_sha256(snippet, _STATE.layout),
        )
        note = f" ({t('drift_edited')})" if edited else ""
        rows.append(
            f'<tr class="drift-{entry["state"]}"><td><code>{render.escape(entry["snippet"])}</code></td>'
            f"<td>{render.escape(t('drift_' + entry['state']) + note)}</td></tr>"
        )
        if entry["diff"]:
            details.append(
                f'<details class="quote"><summary>{render.escape(t("drift_diff"))}: '
                f"<code>{render.escape(entry['snippet'])}</code></summary>"
                f'<div class="highlight"><pre><code>{render.escape(entry["diff"])}</code></pre></div></details>'
            )
    head = f"<th>{render.escape(t('report_snippet'))}</th><th>{render.escape(t('report_status'))}</th>"
    return (
        f'<p class="drift-summary">{render.escape(summary)}</p><table class="drift-report"><thead><tr>{head}'
        f"</tr></thead><tbody>{''.join(rows)}</tbody></table>{''.join(details)}"
    )


def _translation_notice(page, config) -> str:
    """HTML for an outdated Spanish page, linking to its English original."""
    rel = page.file.src_uri.split("/", 1)[1]
    reason = translations.freshness(Path(config.docs_dir), rel)
    if reason is None:
        return ""
    log.info("%s: outdated translation (%s)", page.file.src_uri, reason)
    # Built after Markdown, so static-i18n does not localize the link back to Spanish.
    english_url = "../" * page.url.count("/") + page.url.split("/", 1)[1]
    body = i18n.text(translations.TARGET, "outdated", english_url="@@URL@@")
    body_html = render.escape(body).replace("[", '<a hreflang="en" href="' + english_url + '">', 1)
    body_html = re.sub(r"\]\(@@URL@@\)", "</a>", body_html)
    return render._admonition("warning", i18n.text(translations.TARGET, "outdated_title"), body_html)


def on_page_content(html: str, page, config, files) -> str:
    assert _STATE is not None
    slots = _STATE.slots.pop(page.file.src_uri, {})
    seen: set[int] = set()

    def fill(match: re.Match[str]) -> str:
        number = int(match.group(1))
        seen.add(number)
        return slots.get(number, "")

    html = SLOT_RE.sub(fill, html)
    if _page_lang(page) == translations.TARGET and (notice := _translation_notice(page, config)):
        title_end = html.find("</h1>")
        at = title_end + len("</h1>") if title_end >= 0 else 0
        html = html[:at] + notice + html[at:]
    lost = set(slots) - seen
    if lost:
        log.warning(
            "docs/%s: %d snippet directive(s) did not survive Markdown (inside raw HTML?)", page.file.src_uri, len(lost)
        )
    return html


# --- One search index per language -------------------------------------------
# mkdocs-static-i18n stacks every language into site/search/search_index.json,
# so a Spanish reader gets English hits too. Each alternate language gets its
# own index under site/<lang>/search/, and its pages look there for it.

_BASE = re.compile(r'("base": ")((?:\.\./)*\.\.)(")')


def on_post_page(output: str, page, config) -> str:
    lang = _page_lang(page)
    if lang == i18n.DEFAULT:
        return output
    # "base" points from the page to the site root; make it point to /<lang>/.
    return _BASE.sub(lambda m: m.group(1) + (m.group(2)[3:] or ".") + m.group(3), output, count=1)


@event_priority(-200)  # after static-i18n has built every language and merged the index
def on_post_build(config) -> None:
    site = Path(config.site_dir)
    _write_published(site)
    merged = site / "search" / "search_index.json"
    if not merged.exists():
        return
    index = json.loads(merged.read_text(encoding="utf-8"))
    prefixes = {lang: f"{lang}/" for lang in i18n.LANGUAGES if lang != i18n.DEFAULT}
    default_docs = [d for d in index["docs"] if not d["location"].startswith(tuple(prefixes.values()))]
    for lang, prefix in prefixes.items():
        docs = [
            {**d, "location": d["location"][len(prefix) :]} for d in index["docs"] if d["location"].startswith(prefix)
        ]
        if docs:
            target = site / lang / "search" / "search_index.json"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(json.dumps({**index, "docs": docs}, ensure_ascii=False), encoding="utf-8")
    merged.write_text(json.dumps({**index, "docs": default_docs}, ensure_ascii=False), encoding="utf-8")
    # Material's language selector reads <base>/sitemap.xml to find the same page
    # in the other language; with the moved base it must be found there too.
    for lang in prefixes:
        for name in ("sitemap.xml", "sitemap.xml.gz"):
            if (site / name).exists() and (site / lang).is_dir():
                shutil.copyfile(site / name, site / lang / name)


def _write_published(site: Path) -> None:
    """Files that snippets publish (reports such as tlparse's) go into the site as they are."""
    if _STATE is None:
        return
    for fresh in _STATE.views.values():
        record = fresh.record
        if fresh.state != "current" or record is None:
            continue
        for name, content in record.published.items():
            target = site / render.published_url(record, name)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(content, encoding="utf-8")
