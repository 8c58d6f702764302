"""The dispatcher atlas: every registered operator, read from the atlas snippet's record, listed and searchable.

``::: atlas <snippet>`` renders the list of every overload the record holds (its JSON lines, one per
overload): a name, its composite kind and what Inductor does with it, as plain HTML that a reader can
search with the browser's find, without JavaScript. A small script adds a search box, filters and a
detail view, whose data (the record's lines, one file per shard) it fetches when an operator is opened,
so the page stays light. The CUDA column comes from the CUDA record once it is captured; until then it
says so, like every CUDA tab. Nothing on the page is typed by hand: every number is counted here from
the record, and the record is the atlas's only source.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ...core import atlas_drift, atlas_history, drift
from ...core.catalog import archived
from ...core.devices import CAPTURED, REFERENCE
from ...core.records import Record
from ..lang.strings import STRINGS, text
from ..page.context import Page, Problem, Rendered
from ..page.directives import Directive
from ..page.markup import admonition, escape
from .atlas_text import COMPOSITES, INDUCTOR, STAGES, legend, since_line, summary

DATA = "atlas/"  # the artifacts of the atlas snippet: atlas/<shard>.jsonl


CONTEXTS = ("call", "autocast", "inference_mode", "meta")


def _walks(value: Any) -> bool:
    return isinstance(value, dict) and all(
        k in CONTEXTS and isinstance(path, list) and all(isinstance(key, str) for key in path)
        for k, path in value.items()
    )


def _table(value: Any) -> bool:
    return isinstance(value, dict) and all(
        isinstance(row, list) and len(row) == 2 and all(isinstance(x, str) for x in row) for row in value.values()
    )


# What a page and the detail view read of an overload: its field -> the check it must pass.
_FIELDS: dict[str, Any] = {
    "name": lambda v: isinstance(v, str) and "::" in v,
    "kernels": lambda v: isinstance(v, dict) and all(isinstance(k, str) and isinstance(f, str) for k, f in v.items()),
    "composite": lambda v: v in COMPOSITES,
    "inductor": lambda v: v in INDUCTOR,
    "tags": lambda v: isinstance(v, list) and all(isinstance(t, str) for t in v),
    "table": _table,
    "walks": _walks,
    "walked": lambda v: v in ("observed", "inferred"),
    "registered_by": lambda v: v in STAGES,
}
# Fields an overload may lack (no sample reaches it, or it has no schema): checked when present.
_OPTIONAL: dict[str, Any] = {
    "grad_fn": lambda v: v is None or isinstance(v, str),
    "sample": lambda v: isinstance(v, str),
    "arguments": lambda v: isinstance(v, str),
    "inductor_how": lambda v: v in ("observed", "table"),
    "no_kernel": lambda v: isinstance(v, dict) and all(k in CONTEXTS and isinstance(x, str) for k, x in v.items()),
    "degenerate": lambda v: v is True,
    "fallback_set": lambda v: v is True,
}


class Refused(ValueError):
    """A line of the atlas's record that is not an overload as the atlas reads one."""


def entries(record: Record) -> dict[str, list[dict[str, Any]]]:
    """shard -> its overloads, from a record's artifacts. Every line is checked before use, whatever produced
    it: :class:`Refused` names the artifact, the line and what is wrong (not JSON, a field missing, of another
    type, or a value the atlas does not know)."""
    artifacts = record.artifacts
    key = (id(record), id(artifacts), tuple((name, len(text)) for name, text in sorted(artifacts.items())))
    if not _PARSED or _PARSED[0][0] != key or _PARSED[0][1] is not record:
        _PARSED[:] = [(key, record, _parse(record))]  # one record at a time: the memory of one atlas
    return _PARSED[0][2]


# A build renders the atlas on a page of each language and publishes its data: each reads the same record, and
# checking 3,700 lines takes seconds. The record object the catalog holds is parsed once, not once per reader.
_PARSED: list[tuple[tuple[object, ...], Record, dict[str, list[dict[str, Any]]]]] = []


def _parse(record: Record) -> dict[str, list[dict[str, Any]]]:
    found = {}
    for name, content in sorted(record.artifacts.items()):
        if name.startswith(DATA) and name.endswith(".jsonl"):
            shard = name.removeprefix(DATA).removesuffix(".jsonl")
            found[shard] = [
                _checked(line, f"{name}, line {number}")
                for number, line in enumerate(content.splitlines(), 1)
                if line.strip()
            ]
    return found


def _checked(line: str, where: str) -> dict[str, Any]:
    try:
        entry = json.loads(line)
    except ValueError as exc:
        raise Refused(f"{where} is not JSON ({exc})") from None
    if not isinstance(entry, dict):
        raise Refused(f"{where} is not an object")
    for field, valid in _FIELDS.items():
        if field not in entry:
            raise Refused(f"{where} has no {field!r}")
        if not valid(entry[field]):
            raise Refused(f"{where}: {field!r} cannot be {str(entry[field])[:60]!r}")
    for field, valid in _OPTIONAL.items():
        if field in entry and not valid(entry[field]):
            raise Refused(f"{where}: {field!r} cannot be {str(entry[field])[:60]!r}")
    if entry["walked"] == "observed" and "sample" not in entry:
        raise Refused(f"{where}: a walk called observed names no sample it was observed on")
    return entry


def since(root: Path, record: Record) -> tuple[str, dict[str, dict[str, Any]], list[str]]:
    """Per overload, what it registers differently from the torch of the last upgrade (see
    :func:`atlas_drift.registry_changes`): (that torch build, name -> change, the names it no longer has)."""
    torch = record.provenance.get("torch", "")
    reports = root / drift.REPORTS
    before_torch, before = atlas_history.previous(reports, torch) if torch else ("", None)
    if before is None:
        return "", {}, []
    now = {e["name"]: e for items in entries(record).values() for e in items}
    changes, removed = atlas_drift.registry_changes(before, now, cpu_only=before_torch.endswith("+cpu"))
    return before_torch, changes, removed


def data_url(record: Record, shard: str) -> str:
    """Where the site publishes one shard of the atlas, for the detail view to fetch."""
    return f"atlas-data/{record.device}/{shard}.json"


def data_files(record: Record, root: Path | None = None) -> dict[str, str]:
    """The published data of the atlas: each shard as one JSON object, name -> overload; with ``root``, each
    overload carries what changed since the torch of the last upgrade (``since``)."""
    before, changes, _ = since(root, record) if root is not None else ("", {}, [])

    def published(entry: dict[str, Any]) -> dict[str, Any]:
        change = changes.get(entry["name"])
        return {**entry, "since": {"torch": before, **change}} if change is not None else entry

    return {
        data_url(record, shard): json.dumps(
            {e["name"]: published(e) for e in items}, ensure_ascii=False, sort_keys=True
        )
        for shard, items in entries(record).items()
    }


def has_autograd_kernel(entry: dict[str, Any]) -> bool:
    """A kernel of its own at AutogradCPU (registered under the Autograd alias or at the key), not a math kernel
    nor the shared fallback. Not "a derivative formula": some such kernels record no node (outputs that are not
    differentiable) or raise."""
    return entry["table"].get("AutogradCPU", ["", ""])[0] in ("autograd kernel", "kernel")


def _item(entry: dict[str, Any], shard: str, lang: str, changed: bool = False) -> str:
    name, kernels = entry["name"], entry["kernels"]
    attributes = {
        "shard": shard,
        "composite": entry["composite"],
        "cpu": "1" if "CPU" in kernels else "0",
        "inductor": entry["inductor"],
        "backward": "1" if has_autograd_kernel(entry) else "0",
        "observed": "1" if entry["walked"] == "observed" else "0",
        "changed": "1" if changed else "0",
        "tags": " ".join(entry["tags"]),
    }
    data = " ".join(f'data-{k}="{escape(v)}"' for k, v in attributes.items())
    facts = (
        f"{text(lang, 'atlas_composite_' + entry['composite'])} · {text(lang, 'atlas_inductor_' + entry['inductor'])}"
    )
    return (
        f'<li {data}><button type="button" class="atlas-op" aria-expanded="false">{escape(name)}</button> '
        f'<span class="atlas-facts" data-search-exclude>{escape(facts)}</span></li>'
    )


def _cuda_line(page: Page, snippet_id: str) -> str:
    found = [page.catalog.standing(snippet_id, d) for d in CAPTURED if (snippet_id, d) in page.catalog.standings]
    standing = found[0] if found else None
    if standing is None or not standing.usable or standing.record is None:
        return f'<p class="atlas-cuda">{escape(text(page.lang, "atlas_cuda_missing"))}</p>'
    version = standing.record.provenance.get("torch", "?")
    return f'<p class="atlas-cuda">{escape(text(page.lang, "atlas_cuda", torch=version))}</p>'


def _controls(lang: str, before: str = "") -> str:
    kinds = "".join(f'<option value="{k}">{escape(text(lang, "atlas_composite_" + k))}</option>' for k in COMPOSITES)
    filters = ("cpu", "decomposed", "backward", "observed") + (("changed",) if before else ())
    checks = "".join(
        f'<label><input type="checkbox" data-filter="{k}"> {escape(text(lang, f"atlas_filter_{k}", torch=before))}'
        "</label>"
        for k in filters
    )
    return (
        f'<div class="atlas-controls" hidden><label>{escape(text(lang, "atlas_search"))} '
        f'<input type="search" class="atlas-search" autocomplete="off"></label> '
        f'<label>{escape(text(lang, "atlas_composite"))} <select class="atlas-kind"><option value="">'
        f"{escape(text(lang, 'atlas_any'))}</option>{kinds}</select></label> {checks} "
        '<output class="atlas-count" aria-live="polite"></output></div>'
    )


def _earlier_format(record: Record) -> list[tuple[str, list[str]]] | None:
    """(name, keys with a kernel of their own) of each overload of a record an earlier atlas snippet made, or None
    when the record is not one: every line an object with a name and a table of kernels, and no walk observed."""
    found = []
    for name, content in sorted(record.artifacts.items()):
        if not (name.startswith(DATA) and name.endswith(".jsonl")):
            continue
        for line in content.splitlines():
            try:
                entry = json.loads(line) if line.strip() else None
            except ValueError:
                return None
            if entry is None:
                continue
            if not (isinstance(entry, dict) and _FIELDS["name"](entry.get("name")) and "walked" not in entry):
                return None
            if not _FIELDS["kernels"](entry.get("kernels")):
                return None
            found.append((entry["name"], sorted(entry["kernels"])))
    return found or None


def _earlier_list(earlier: list[tuple[str, list[str]]], record: Record, lang: str) -> str:
    """An archived release's atlas, made by an earlier atlas snippet: only what that version read off the registry
    (the names and the keys with a kernel of their own), and why the rest is not shown."""
    note = text(lang, "atlas_earlier", overloads=len(earlier), torch=record.provenance.get("torch", "?"))
    items = "".join(
        f'<li><code class="atlas-op">{escape(name)}</code> '
        f'<span class="atlas-facts">{escape(", ".join(keys))}</span></li>'
        for name, keys in earlier
    )
    return f'<div class="atlas">{admonition("note", "Atlas", escape(note))}<ul class="atlas-list">{items}</ul></div>'


def render(directive: Directive, page: Page) -> Rendered:
    """The atlas of the snippet the directive names, from its current CPU record."""
    snippet_id = directive.arg or ""
    if (snippet_id, REFERENCE) not in page.catalog.standings:
        return Rendered("", [Problem(directive.line, f"::: atlas {snippet_id}: no such snippet with a CPU record")])
    standing = page.catalog.standing(snippet_id, REFERENCE)
    if not standing.usable or standing.record is None:
        problem = Problem(
            directive.line, f"::: atlas {snippet_id}: its CPU record is {standing.verdict}: {standing.why()}"
        )
        return Rendered(admonition("failure", "Atlas", escape(problem.message)), [problem])
    record = standing.record
    try:
        found = entries(record)
    except Refused as exc:
        if archived() and (earlier := _earlier_format(record)) is not None:
            return Rendered(_earlier_list(earlier, record, page.lang))
        problem = Problem(directive.line, f"::: atlas {snippet_id}: its CPU record is refused: {exc}")
        return Rendered(admonition("failure", "Atlas", escape(problem.message)), [problem])
    before, changes, removed = since(page.layout.root, record)
    items = "".join(_item(e, shard, page.lang, e["name"] in changes) for shard, group in found.items() for e in group)
    labels = {
        k.removeprefix("atlas_js_").removeprefix("atlas_"): v
        for k, v in STRINGS[page.lang].items()
        if k.startswith(("atlas_js_", "atlas_inductor_", "atlas_explain_", "atlas_define_"))
    }
    config = json.dumps(
        {"base": page.site_root + "atlas-data/cpu/", "torch": record.provenance.get("torch", ""), "labels": labels},
        ensure_ascii=False,
    )
    html = (
        f"<div class=\"atlas\" data-atlas='{escape(config)}'>{summary(found, record, page.lang)}"
        f"{since_line(before, changes, removed, page.lang)}{legend(found, page.lang)}"
        f"{_cuda_line(page, snippet_id)}{_controls(page.lang, before)}"
        f'<ul class="atlas-list">{items}</ul><div class="atlas-detail" hidden></div></div>'
        f'<script src="{page.site_root}assets/javascripts/atlas.js" defer></script>'
    )
    return Rendered(html)
