"""What one record shows in its device tab: its streams (or one tab per rank), the files it wrote, what it
published, its provenance line and how a reader reproduces it; and what a note on it may quote.

Kept apart from the directive (:mod:`snippet_html`), which decides the tabs and what a tab without a record says.
"""

from __future__ import annotations

import re

from ...core import compare
from ...core.devices import in_kit
from ...core.records import OMITTED, Record
from ..downloads import picture_words, reproduce_kit
from ..downloads.published import MANY, outside_files, published_url, source_url
from ..lang.provenance_text import provenance_line
from ..lang.strings import count, text
from ..page.context import Page
from ..page.markup import escape, inline_code
from . import diagrams, long_output

NARROW_COLUMNS = 80  # an output this wide fits the content column at the normal size
MAX_FITTED_COLUMNS = 120  # up to this width, an output fits a 1400 px screen without a scroll bar
PHONE_COLUMNS = 40  # up to this width, an output fits a 390 px phone's column: its box never scrolls


def _scroll_box(widest: int, name: str) -> str:
    """A box that may scroll sideways (at some screen width) is a named region a keyboard can reach and scroll.
    It is the code element that scrolls; Material keeps its tabindex only where it does scroll on this screen."""
    if widest <= PHONE_COLUMNS or not name:
        return ""
    return f' tabindex="0" role="region" aria-label="{escape(name)}"'


def _lines_html(lines: list[str], volatile: tuple[str, ...], lang: str) -> list[str]:
    """Each line escaped, a volatile one marked, the runner's omitted-lines marker said in the page's language."""
    patterns = [re.compile(p) for p in volatile]

    def omitted(match: re.Match[str]) -> str:
        return f'<span class="snippet-omitted">{escape(text(lang, "omitted", lines=match.group("lines")))}</span>'

    return [
        OMITTED.sub(omitted, f'<span class="snippet-volatile">{escape(line)}</span>')
        if any(p.search(line) for p in patterns)
        else OMITTED.sub(omitted, escape(line))
        for line in lines
    ]


def output_block(
    output: str,
    lang: str,
    label: str | None = None,
    volatile: tuple[str, ...] = (),
    *,
    name: str = "",
    quotes: tuple[str, ...] = (),
) -> str:
    """One stream, escaped, its volatile lines marked; ``name`` (which output it is) names its box if it scrolls.
    A long one shows the lines the page quotes (``quotes``), the whole stream folded under it (long_output)."""
    lines = output.rstrip("\n").split("\n")
    shown = _lines_html(lines, volatile, lang)
    widest = max(len(line) for line in lines)
    # A wide output (a key-set table) shrinks its font to fit the column, down to a floor (see snippets.css).
    wide = f' snippet-wide" style="--cols: {min(widest, MAX_FITTED_COLUMNS)}' if widest > NARROW_COLUMNS else ""
    caption = f'<p class="snippet-stream">{escape(label)}</p>' if label else ""

    def block(body: str, box_name: str) -> str:
        box = _scroll_box(widest, box_name)
        return f'<div class="highlight snippet-output{wide}"><pre><code{box}>{body}</code></pre></div>'

    region = " · ".join(filter(None, (name, label)))
    if not long_output.is_long(lines):
        return caption + block("\n".join(shown), region)
    cut = block(long_output.excerpt(shown, long_output.kept(lines, quotes), lang), region)
    everything = text(lang, "whole_output", lines=len(lines))
    full = block("\n".join(shown), f"{region} · {everything}" if region else "")
    return caption + cut + long_output.whole(full, lang, len(lines))


def _stream_blocks(
    stdout: str, stderr: str, page: Page, volatile: tuple[str, ...], *, name: str, snippet: str
) -> list[str]:
    """stdout and stderr, each labelled when both exist; a long one cut to what the page quotes of it."""
    pieces = []
    quotes = page.quotes.get(snippet, ())
    has_out, has_err = bool(stdout.strip()), bool(stderr.strip())
    if has_out:
        label = text(page.lang, "stdout") if has_err else None
        pieces.append(output_block(stdout, page.lang, label, volatile, name=name, quotes=quotes))
    if has_err:
        pieces.append(output_block(stderr, page.lang, text(page.lang, "stderr"), volatile, name=name, quotes=quotes))
    return pieces


def _calls(rank: dict) -> str:
    """A rank's counted calls as its tab says them: 'all_gather × 1, all_reduce × 1'."""  # noqa: RUF002
    return ", ".join(f"{name} × {n}" for name, n in sorted(rank["collectives"].items()))


def _ranks(record: Record, page: Page, volatile: tuple[str, ...], name: str) -> str:
    """One tab per rank of a multi-rank run: its own output and the collective calls it made."""
    lang, group = page.lang, f"__ranks_{page.count}_{record.device}"
    inputs, labels, blocks = [], [], []
    for index, rank in enumerate(record.ranks):
        inputs.append(f'<input {"checked " if index == 0 else ""}id="{group}_{index}" name="{group}" type="radio" />')
        rank_name = text(lang, "rank", rank=index)
        labels.append(f'<label for="{group}_{index}">{escape(rank_name)}</label>')
        shown = _stream_blocks(
            rank["stdout"], rank["stderr"], page, volatile, name=f"{name} · {rank_name}", snippet=record.snippet
        ) or [f"<p>{escape(text(lang, 'rank_no_output'))}</p>"]
        calls = _calls(rank)
        summary = text(lang, "collectives", calls=calls) if calls else text(lang, "no_collectives")
        shown.append(f'<p class="snippet-collectives">{inline_code(summary)}</p>')
        blocks.append(f'<div class="tabbed-block">{"".join(shown)}</div>')
    return (
        f'<div class="tabbed-set tabbed-alternate snippet-ranks">{"".join(inputs)}'
        f'<div class="tabbed-labels">{"".join(labels)}</div><div class="tabbed-content">{"".join(blocks)}</div></div>'
    )


def _streams(record: Record, page: Page) -> list[str]:
    """stdout and stderr (or one tab per rank), the volatile-lines note, or a word that there is none."""
    lang = page.lang
    volatile = page.catalog.snippets[record.snippet].header.volatile
    pieces = []
    if record.expected_error:
        label = text(lang, "expected_error", type=record.expected_error["type"])
        pieces.append(f'<p class="snippet-expected">{escape(label)}</p>')
    name = text(lang, "output_region", id=record.snippet, device=text(lang, f"device_{record.device}"))
    pieces += _stream_blocks(record.stdout, record.stderr, page, volatile, name=name, snippet=record.snippet)
    if record.ranks:
        pieces.append(_ranks(record, page, volatile, name))
    if volatile and 'class="snippet-volatile"' in "".join(pieces):
        machine = record.provenance.get("device_name", "?")
        pieces.append(f'<p class="snippet-volatile-note">{escape(text(lang, "volatile", machine=machine))}</p>')
    if not pieces:
        pieces.append(f"<p>{escape(text(lang, 'no_output'))}</p>")
    return pieces


MANY_FILES = MANY  # beyond this, the files a snippet wrote are one line of links (the atlas writes 48)


def _artifacts(record: Record, page: Page) -> list[str]:
    """The files the snippet wrote: a diagram drawn, a small file folded, a big one linked."""
    lang, pieces = page.lang, []
    if len(record.artifacts) > MANY_FILES:
        links = ", ".join(
            f'<a href="{escape(page.site_root + published_url(record, n + ".txt"))}">{escape(n)}</a>'
            for n in sorted(record.artifacts)
        )
        count_ = escape(text(lang, "artifacts_many", files=count(lang, len(record.artifacts), "file")))
        return [f'<p class="snippet-artifact">{count_} {links}</p>']
    for name, content in sorted(record.artifacts.items()):
        if name.endswith(".mmd"):  # a diagram the snippet drew from what it saw: drawn here, shown, not folded
            where = f"records/{record.snippet}.{record.device}.json: {name}"
            pieces.append(diagrams.svg(content, name, lang, where, f"{record.snippet}-{record.device}-{name}"))
            continue
        summary = escape(text(lang, "artifact", name=name, lines=len(content.splitlines())))
        outside = published_url(record, f"{name}.txt")
        if outside in outside_files(record):  # kept off the page: it would weigh on every reader
            link = f'<a href="{escape(page.site_root + outside)}">{escape(text(lang, "open_file", name=name))}</a>'
            pieces.append(f'<p class="snippet-artifact">{summary}: {link}</p>')
            continue
        pieces.append(
            f'<details class="quote snippet-artifact"><summary>{summary}</summary>'
            f"{page.highlighter.block(content, name)}</details>"
        )
    return pieces


_SVG_SIZE = re.compile(r'<svg\b[^>]*?\bwidth="(?P<w>\d+)"[^>]*?\bheight="(?P<h>\d+)"')


def _picture(record: Record, page: Page, name: str) -> str:
    """A picture the snippet drew, at its own size, where its text is the size it was drawn at (12 px): wider
    than the column (a phone), it scrolls in its frame, which a keyboard reaches; a link opens it alone."""
    src = escape(page.site_root + published_url(record, picture_words.picture_name(name, page.lang)))
    alt = escape(text(page.lang, "figure", name=name))
    size = _SVG_SIZE.search(str(record.published[name]))
    box = f' width="{size["w"]}" height="{size["h"]}"' if size else ""
    link = f'<a href="{src}">{escape(text(page.lang, "open_full_size", name=name))}</a>'
    return (
        f'<figure class="snippet-figure"><div class="snippet-picture" tabindex="0" role="region" aria-label="{alt}">'
        f'<img src="{src}" alt="{alt}"{box} loading="lazy"></div>'
        f"<figcaption data-search-exclude>{link}</figcaption></figure>"
    )


def _published(record: Record, page: Page) -> list[str]:
    """Pictures the snippet published, shown; every published file counted and the main one linked."""
    lang, pieces = page.lang, []
    for name in sorted(n for n in record.published if n.endswith(".svg")):  # a picture the snippet drew: shown
        pieces.append(_picture(record, page, name))
    if record.published:
        main = [n for n in sorted(record.published) if n.endswith("index.html")] or sorted(record.published)[:1]
        links = ", ".join(
            f'<a href="{escape(page.site_root + published_url(record, n))}">{escape(n)}</a>' for n in main
        )
        files = escape(text(lang, "published", files=count(lang, len(record.published), "file")))
        pieces.append(f'<p class="snippet-published">{files} {links}</p>')
    return pieces


def _reproduce(record: Record, page: Page) -> str:
    """How a reader runs this snippet on their machine and compares with this record (CPU outputs)."""
    snippet = page.catalog.snippets[record.snippet]
    if not in_kit(record.device) or not reproduce_kit.offered(snippet):
        return ""
    folder = record.snippet.split("/")[0]
    size = max(1, len(reproduce_kit.kit(page.catalog, folder)) // 1024)
    kit = f'<a href="{escape(page.site_root + reproduce_kit.url(folder))}" download>reproduce-{escape(folder)}.zip</a>'
    source = f'<a href="{escape(page.site_root + source_url(record.snippet))}" download>{escape(record.snippet)}.py</a>'
    body = inline_code(text(page.lang, "reproduce", kit="@@KIT@@", size=size, source="@@SRC@@", id=record.snippet))
    return f'<p class="snippet-reproduce">{body.replace("@@KIT@@", kit).replace("@@SRC@@", source)}</p>'


def record_body(record: Record, page: Page) -> str:
    """A record's output: streams, files it wrote, published reports, provenance, how to reproduce it."""
    provenance = f'<p class="snippet-provenance">{escape(provenance_line(record, page.lang))}</p>'
    pieces = [*_streams(record, page), *_artifacts(record, page), *_published(record, page), provenance]
    return "".join([*pieces, _reproduce(record, page)])


def shown_text(record: Record, volatile: tuple[str, ...] = ()) -> list[str]:
    """What a note may quote of a record: streams, each rank's streams and calls, files, but no volatile line.

    A volatile line is one the snippet declares to change with the machine (an autotuner's timings, the
    instruction set oneDNN picks when uncapped). A note must hold wherever the record is re-made, so it
    may not quote one: on another CPU the line says something else, and the note would be refused there.
    """
    output = compare.comparable(record.output(), volatile)
    shown = [output["stdout"], output["stderr"]]
    for rank in output.get("ranks") or []:
        shown += [rank["stdout"], rank["stderr"], _calls(rank)]
    return shown + list(record.artifacts.values())
