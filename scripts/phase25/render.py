"""Turn a snippet and its records into HTML: Material content tabs Code | CPU | CUDA.

Pure functions, no MkDocs: the hook calls them, the tests call them directly.
The HTML is inserted after Markdown has run, and every output is escaped, so
an output holding ``` fences, ``<script>`` or ``{{ }}`` stays plain text.
"""

from __future__ import annotations

import functools
import hashlib
import html
from dataclasses import dataclass, field
from pathlib import Path

import pygments
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer, TextLexer, get_lexer_for_filename
from pygments.util import ClassNotFound

from .i18n import text
from .records import Freshness, Record

LONG_OUTPUT_LINES = 100
DEVICE_LABELS = {"cpu": "CPU", "cuda": "CUDA"}


@dataclass
class Problem:
    """Something a strict build must refuse; the hook names page, snippet and device."""

    device: str
    message: str


@dataclass
class Rendered:
    html: str
    problems: list[Problem] = field(default_factory=list)


def escape(value: str) -> str:
    """HTML-escape, and neutralise characters later stages might read as syntax."""
    return html.escape(value, quote=True).replace("{", "&#123;").replace("}", "&#125;").replace("`", "&#96;")


# Set by the MkDocs hook: highlighted blocks are kept on disk between builds, keyed by
# their content, so a warm rebuild does not run Pygments again. None: no disk cache.
HIGHLIGHT_CACHE: Path | None = None


@functools.lru_cache(maxsize=1024)  # each language renders the same code and artifacts: highlight once
def _code_block(source: str, filename: str | None = None, classes: str = "") -> str:
    if HIGHLIGHT_CACHE is None:
        return _highlight(source, filename, classes)
    key = hashlib.sha256(f"{pygments.__version__}\0{filename}\0{classes}\0{source}".encode()).hexdigest()
    cached = HIGHLIGHT_CACHE / f"{key}.html"
    if cached.exists():
        return cached.read_text(encoding="utf-8")
    block = _highlight(source, filename, classes)
    HIGHLIGHT_CACHE.mkdir(parents=True, exist_ok=True)
    cached.write_text(block, encoding="utf-8")
    return block


def _highlight(source: str, filename: str | None, classes: str) -> str:
    if filename:
        try:
            lexer = get_lexer_for_filename(filename)
        except ClassNotFound:
            lexer = TextLexer()
    else:
        lexer = PythonLexer()
    body = highlight(source, lexer, HtmlFormatter(nowrap=True))
    body = body.replace("{", "&#123;").replace("}", "&#125;").replace("`", "&#96;")
    return f'<div class="highlight {classes}"><pre><span></span><code>{body}</code></pre></div>'


def _output_block(output: str, lang: str, label: str | None = None) -> str:
    lines = output.rstrip("\n").split("\n")
    block = f'<div class="highlight snippet-output"><pre><code>{escape(output.rstrip(chr(10)))}</code></pre></div>'
    caption = f'<p class="snippet-stream">{escape(label)}</p>' if label else ""
    if len(lines) > LONG_OUTPUT_LINES:
        summary = escape(text(lang, "long", lines=len(lines)))
        return f'{caption}<details class="quote snippet-long"><summary>{summary}</summary>{block}</details>'
    return caption + block


def _admonition(kind: str, title: str, body_html: str) -> str:
    return f'<div class="admonition {kind}"><p class="admonition-title">{escape(title)}</p><p>{body_html}</p></div>'


def _inline_md(value: str) -> str:
    """Escape, then turn `code` spans of our own UI strings into <code>."""
    parts = html.escape(value).split("`")
    return "".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(parts))


def provenance_line(record: Record, lang: str) -> str:
    """One line: where, with what and when this output was produced."""
    p, run = record.provenance, record.run
    if record.device == "cuda":
        where = f"{text(lang, 'captured_on')} {p.get('device_name', 'CUDA')}"
        if p.get("compute_capability"):
            where += f" ({p['compute_capability']})"
        parts = [where, f"torch {p.get('torch', '?')}", f"CUDA {p.get('cuda', '?')}"]
        if p.get("triton"):
            parts.append(f"Triton {p['triton']}")
    else:
        where = f"{text(lang, 'ran_on')} CPU · {p.get('device_name', '?')}"
        extras = [e for e in (p.get("cpu_capability"), p.get("threads") and text(lang, "threads", n=p["threads"])) if e]
        if extras:
            where += f" ({', '.join(str(e) for e in extras)})"
        parts = [where, f"torch {p.get('torch', '?')}"]
    parts += [f"Python {p.get('python', '?')}", str(run.get("date", "?")), f"{run.get('wall_s', 0):.1f} s"]
    if run.get("git_commit"):
        parts.append(f"{text(lang, 'commit')} {run['git_commit'][:7]}")
    return " · ".join(parts)


def published_url(record: Record, name: str) -> str:
    """Where a published file of a record lives in the built site, from its root."""
    return f"snippet-files/{record.snippet}/{record.device}/{name}"


def _record_body(record: Record, lang: str, site_root: str = "") -> str:
    pieces = []
    if record.expected_error:
        pieces.append(
            f'<p class="snippet-expected">{escape(text(lang, "expected_error", type=record.expected_error["type"]))}'
            "</p>"
        )
    has_out, has_err = bool(record.stdout.strip()), bool(record.stderr.strip())
    if has_out:
        pieces.append(_output_block(record.stdout, lang, text(lang, "stdout") if has_err else None))
    if has_err:
        pieces.append(_output_block(record.stderr, lang, text(lang, "stderr")))
    if not has_out and not has_err:
        pieces.append(f"<p>{escape(text(lang, 'no_output'))}</p>")
    for name, content in sorted(record.artifacts.items()):
        if name.endswith(".mmd"):  # a diagram the snippet drew from what it saw: shown, not folded
            pieces.append(f'<pre class="mermaid snippet-diagram"><code>{escape(content)}</code></pre>')
            continue
        summary = escape(text(lang, "artifact", name=name, lines=len(content.splitlines())))
        pieces.append(
            f'<details class="quote snippet-artifact"><summary>{summary}</summary>'
            f"{_code_block(content, name)}</details>"
        )
    if record.published:
        reports = [n for n in sorted(record.published) if n.endswith("index.html")] or sorted(record.published)[:1]
        links = ", ".join(
            f'<a href="{escape(site_root + published_url(record, n))}">{escape(n)}</a>' for n in reports
        )
        count = len(record.published)
        pieces.append(f'<p class="snippet-published">{escape(text(lang, "published", files=count))} {links}</p>')
    pieces.append(f'<p class="snippet-provenance">{escape(provenance_line(record, lang))}</p>')
    return "".join(pieces)


def device_panel(device: str, fresh: Freshness, lang: str, site_root: str = "") -> tuple[str, list[Problem]]:
    """The content of one device tab, and what a strict build must refuse in it."""
    problems: list[Problem] = []
    if fresh.state == "corrupt":
        problems.append(Problem(device, f"record cannot be read: {fresh.reason}"))
        return _admonition("failure", text(lang, "corrupt_title"), escape(fresh.reason)), problems
    if fresh.state == "missing":
        if device == "cuda":
            return _admonition(
                "info", text(lang, "not_captured_title"), _inline_md(text(lang, "not_captured"))
            ), problems
        problems.append(Problem(device, "no record (run `make records`)"))
        return _admonition(
            "failure", text(lang, "missing_title"), _inline_md(text(lang, "missing", device=DEVICE_LABELS[device]))
        ), problems
    record = fresh.record
    assert record is not None
    banner = ""
    if fresh.state == "stale":
        problems.append(Problem(device, f"stale record: {fresh.reason}"))
        banner = _admonition("warning", text(lang, "stale_title"), escape(text(lang, "stale", reason=fresh.reason)))
    if record.status != "ok":
        problems.append(Problem(device, f"the recorded run {record.status}: {record.error}"))
        banner += _admonition("failure", text(lang, "failed_title"), escape(record.error or record.status))
    return banner + _record_body(record, lang, site_root), problems


def tab_label(device: str, fresh: Freshness) -> str:
    if device == "cuda" and fresh.record and fresh.record.provenance.get("device_name"):
        return f"CUDA ({fresh.record.provenance['device_name']})"
    return DEVICE_LABELS[device]


def render_snippet(
    snippet_id: str, code: str, views: list[tuple[str, Freshness]], lang: str, index: int, *, site_root: str = ""
) -> Rendered:
    """Tabs for one snippet: its code, then one tab per device it declares."""
    name = f"__snippet_{index}"
    labels = [text(lang, "code"), *(tab_label(device, fresh) for device, fresh in views)]
    panels = [_code_block(code, classes="language-python")]
    problems: list[Problem] = []
    for device, fresh in views:
        panel, found = device_panel(device, fresh, lang, site_root)
        panels.append(panel)
        problems += found
    checked = 'checked="checked" '
    inputs = "".join(
        f'<input {checked if i == 1 else ""}id="{name}_{i}" name="{name}" type="radio" />'
        for i in range(1, len(labels) + 1)
    )
    label_html = "".join(f'<label for="{name}_{i}">{escape(label)}</label>' for i, label in enumerate(labels, 1))
    blocks = "".join(f'<div class="tabbed-block">{panel}</div>' for panel in panels)
    source_link = f'<p class="snippet-source"><code>snippets/{escape(snippet_id)}.py</code></p>'
    return Rendered(
        html=(
            f'<div class="snippet" data-snippet="{escape(snippet_id)}">{source_link}'
            f'<div class="tabbed-set tabbed-alternate" data-tabs="{index}:{len(labels)}">{inputs}'
            f'<div class="tabbed-labels">{label_html}</div><div class="tabbed-content">{blocks}</div></div></div>'
        ),
        problems=problems,
    )
