"""A ``::: snippet`` directive as plain Markdown: the code the page shows, then each device's output as the record
holds it, its provenance line in words, and the notes tied to it.

The Markdown twin of a page (:mod:`markdown_twins`) is what an assistant quotes, so every output here is the
record's own text, fenced as it is: the same record, the same provenance line and the same strings as the HTML
tab (:mod:`..kinds.snippet_html` decides what a tab without a record says; this module follows its rules).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...core.catalog import Catalog, Standing
from ...core.devices import in_kit
from ...core.records import Record
from ...core.sections import excerpt, line_count
from ..downloads import reproduce_kit
from ..downloads.published import outside_files, published_url, source_url
from ..kinds.record_html import _calls
from ..kinds.snippet_code import _ranges
from ..kinds.snippet_html import pending
from ..lang.provenance_text import provenance_line
from ..lang.strings import count, text

_TICKS = re.compile(r"`+")
OUTPUT = "output"  # the info string of a fence that holds a recorded output, as the record holds it


def fence(content: str, info: str = "") -> str:
    """A fenced block that holds ``content`` as it is: its fence is longer than any run of backticks inside."""
    longest = max((len(run) for run in _TICKS.findall(content)), default=0)
    ticks = "`" * max(3, longest + 1)
    return f"{ticks}{info}\n{content}\n{ticks}"


def shown(stream: str) -> str:
    """An output stream as the page shows it (record_html.output_block): its final newlines dropped."""
    return stream.rstrip("\n")


@dataclass
class Where:
    """The page a twin is written for: its language, the catalog, the way back to the site's root, and the
    bodies of its ``note`` and ``pending`` directives, keyed by (kind, snippet, device)."""

    lang: str
    catalog: Catalog
    site_root: str = ""
    bodies: dict[tuple[str, str, str], list[str]] = field(default_factory=dict)


def _streams(stdout: str, stderr: str, lang: str) -> list[str]:
    """stdout and stderr, each labelled when both exist (as the HTML tab labels them)."""
    has_out, has_err = bool(stdout.strip()), bool(stderr.strip())
    blocks = []
    if has_out:
        blocks.append((f"{text(lang, 'stdout')}:\n\n" if has_err else "") + fence(shown(stdout), OUTPUT))
    if has_err:
        blocks.append(f"{text(lang, 'stderr')}:\n\n" + fence(shown(stderr), OUTPUT))
    return blocks


def _files(record: Record, where: Where) -> list[str]:
    """What the run wrote and published: a small file fenced, a big one and a published one linked."""
    root, blocks = where.site_root, []
    outside = outside_files(record)
    for name, content in sorted(record.artifacts.items()):
        caption = text(where.lang, "artifact", name=name, lines=len(content.splitlines()))
        url = published_url(record, f"{name}.txt")
        if url in outside:
            blocks.append(f"{caption}: [{name}]({root}{url})")
        else:
            blocks.append(f"{caption}:\n\n" + fence(content.rstrip("\n"), "mermaid" if name.endswith(".mmd") else ""))
    if record.published:
        links = ", ".join(f"[{n}]({root}{published_url(record, n)})" for n in sorted(record.published))
        files = count(where.lang, len(record.published), "file")
        blocks.append(f"{text(where.lang, 'published', files=files)} {links}")
    return blocks


def record_markdown(record: Record, where: Where) -> list[str]:
    """One record's blocks: streams (or each rank's), files, the provenance line, how to reproduce it."""
    lang, volatile = where.lang, where.catalog.snippets[record.snippet].header.volatile
    blocks = []
    if record.expected_error:
        blocks.append(text(lang, "expected_error", type=record.expected_error["type"]))
    blocks += _streams(record.stdout, record.stderr, lang)
    for index, rank in enumerate(record.ranks):
        calls = _calls(rank)
        said = text(lang, "collectives", calls=calls) if calls else text(lang, "no_collectives")
        streams = _streams(rank["stdout"], rank["stderr"], lang) or [text(lang, "rank_no_output")]
        blocks += [f"**{text(lang, 'rank', rank=index)}**", *streams, said]
    if not blocks:
        blocks.append(text(lang, "no_output"))
    marked = [re.compile(p) for p in volatile]
    printed = [record.stdout, record.stderr, *(r[s] for r in record.ranks for s in ("stdout", "stderr"))]
    if any(p.search(line) for p in marked for out in printed for line in out.split("\n")):
        blocks.append(text(lang, "volatile", machine=record.provenance.get("device_name", "?")))
    blocks += _files(record, where)
    blocks.append(f"*{provenance_line(record, lang)}*")
    snippet = where.catalog.snippets[record.snippet]
    if in_kit(record.device) and reproduce_kit.offered(snippet):
        folder = record.snippet.split("/")[0]
        kit = f"[reproduce-{folder}.zip]({where.site_root}{reproduce_kit.url(folder)})"
        size = max(1, len(reproduce_kit.kit(where.catalog, folder)) // 1024)
        source = f"[{record.snippet}.py]({where.site_root}{source_url(record.snippet)})"
        blocks.append(text(lang, "reproduce", kit=kit, size=size, source=source, id=record.snippet))
    return blocks


def _device(snippet_id: str, device: str, standing: Standing, where: Where) -> list[str]:
    """One device's part: its output, or what its tab says instead; then the notes tied to it."""
    lang = where.lang
    name = text(lang, f"device_{device}")
    if pending(device, standing):
        return [
            f"**{text(lang, 'pending_label', device=name)}**",
            text(lang, "pending_tab"),
            *where.bodies.get(("pending", snippet_id, device), []),
        ]
    head = [f"**{name}**"]
    if standing.state == "corrupt" or standing.record is None:
        why = standing.reason if standing.state == "corrupt" else text(lang, "missing", device=name)
        return [*head, f"{text(lang, 'corrupt_title' if standing.state == 'corrupt' else 'missing_title')}: {why}"]
    if standing.state == "stale":
        head.append(text(lang, "stale", reason=standing.reason))
    if standing.record.status != "ok":
        head.append(f"{text(lang, 'failed_title')}: {standing.record.error or standing.record.status}")
    notes = where.bodies.get(("note", snippet_id, device), []) if standing.usable else []
    return [*head, *record_markdown(standing.record, where), *notes]


def snippet_markdown(snippet_id: str, where: Where) -> str:
    """The directive ``::: snippet <id>`` as Markdown: the code the page shows, then one part per device."""
    snippet = where.catalog.snippets.get(snippet_id)
    if snippet is None:
        return f"`{snippet_id}`"
    if snippet.sections:
        ranges = _ranges(where.lang, snippet.sections)  # the caption's words, as the HTML's
        caption = text(where.lang, "shown_lines", ranges=ranges, total=line_count(snippet.source))
        code = [fence(excerpt(snippet.source, s).rstrip("\n"), "python") for s in snippet.sections]
    else:
        caption = text(where.lang, "header_lines", last=snippet.code_line - 1)
        code = [fence(snippet.code.rstrip("\n"), "python")]
    name = f"snippets/{snippet_id}.py"
    link = f"[`{name}`]({where.site_root}{source_url(snippet_id)})" if reproduce_kit.offered(snippet) else f"`{name}`"
    blocks = [f"{link} · {caption}", *code]
    for device in snippet.header.devices:
        blocks += _device(snippet_id, device, where.catalog.standing(snippet_id, device), where)
    return "\n\n".join(blocks)
