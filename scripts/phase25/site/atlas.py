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
from collections import Counter
from typing import Any

from ..core.records import Record
from .directives import Directive
from .markup import admonition, escape
from .page import Page, Problem, Rendered
from .strings import STRINGS, number, text

DATA = "atlas/"  # the artifacts of the atlas snippet: atlas/<shard>.jsonl
BACKEND_KEYS = ("CPU", "CUDA", "Meta")


COMPOSITES = ("implicit", "explicit", "explicit-non-functional", "none")
INDUCTOR = (
    "composite",
    "decomposed",
    "lowered",
    "fallback",
    "implicit_fallback",
    "lowered_declined",
    "fallback_declined",
    "implicit_fallback_declined",
    "none",
)
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
    "registered_by": lambda v: isinstance(v, str),
}
# Fields an overload may lack (no sample reaches it, or it has no schema): checked when present.
_OPTIONAL: dict[str, Any] = {
    "grad_fn": lambda v: v is None or isinstance(v, str),
    "sample": lambda v: isinstance(v, str),
}


class Refused(ValueError):
    """A line of the atlas's record that is not an overload as the atlas reads one."""


def entries(record: Record) -> dict[str, list[dict[str, Any]]]:
    """shard -> its overloads, from a record's artifacts. Every line is checked before use, whatever produced
    it: :class:`Refused` names the artifact, the line and what is wrong (not JSON, a field missing, of another
    type, or a value the atlas does not know)."""
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


def data_url(record: Record, shard: str) -> str:
    """Where the site publishes one shard of the atlas, for the detail view to fetch."""
    return f"atlas-data/{record.device}/{shard}.json"


def data_files(record: Record) -> dict[str, str]:
    """The published data of the atlas: each shard as one JSON object, name -> overload."""
    return {
        data_url(record, shard): json.dumps({e["name"]: e for e in items}, ensure_ascii=False, sort_keys=True)
        for shard, items in entries(record).items()
    }


def has_autograd_kernel(entry: dict[str, Any]) -> bool:
    """A derivative formula of its own: the autograd key's row of its table is an autograd kernel (registered
    under the Autograd alias or at the key), not a math kernel nor the shared fallback."""
    return entry["table"].get("AutogradCPU", ["", ""])[0] in ("autograd kernel", "kernel")


def _item(entry: dict[str, Any], shard: str, lang: str) -> str:
    name, kernels = entry["name"], entry["kernels"]
    attributes = {
        "shard": shard,
        "composite": entry["composite"],
        "cpu": "1" if "CPU" in kernels else "0",
        "inductor": entry["inductor"],
        "backward": "1" if has_autograd_kernel(entry) else "0",
        "observed": "1" if entry["walked"] == "observed" else "0",
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


def _summary(found: dict[str, list[dict[str, Any]]], record: Record, lang: str) -> str:
    every = [e for items in found.values() for e in items]
    namespaces = Counter(e["name"].split("::")[0] for e in every)
    kernels = {key: sum(key in e["kernels"] for e in every) for key in BACKEND_KEYS}
    stages = Counter(e["registered_by"] for e in every)
    counts = text(
        lang,
        "atlas_summary",
        overloads=number(lang, len(every), 0),
        namespaces=len(namespaces),
        aten=number(lang, namespaces.get("aten", 0), 0),
        torch=record.provenance.get("torch", "?"),
        stages=", ".join(text(lang, "atlas_stage", stage=s, n=number(lang, n, 0)) for s, n in stages.items()),
        cpu=number(lang, kernels["CPU"], 0),
        meta=number(lang, kernels["Meta"], 0),
    )
    observed = [e for e in every if e["walked"] == "observed"]
    sampled = text(
        lang,
        "atlas_observed",
        observed=number(lang, len(observed), 0),
        walks=number(lang, sum(len(e["walks"]) for e in observed), 0),
        inferred=number(lang, len(every) - len(observed), 0),
    )
    return f'<p class="atlas-summary">{escape(counts)}</p><p class="atlas-summary">{escape(sampled)}</p>'


def _legend(found: dict[str, list[dict[str, Any]]], lang: str) -> str:
    """Each label's definition, from upstream's, with the number of overloads it applies to here."""
    every = [e for items in found.values() for e in items]
    composites, treatments = Counter(e["composite"] for e in every), Counter(e["inductor"] for e in every)

    def block(title: str, rows: str) -> str:
        return f'<details class="atlas-legend"><summary>{escape(title)}</summary><dl>{rows}</dl></details>'

    def row(label: str, n: int, definition: str) -> str:
        counted = text(lang, "atlas_count", n=number(lang, n, 0))
        return f"<dt>{escape(label)} · {escape(counted)}</dt><dd>{escape(definition)}</dd>"

    kinds = "".join(
        row(text(lang, "atlas_composite_" + k), composites[k], text(lang, "atlas_define_" + k)) for k in COMPOSITES
    )
    ways = "".join(
        row(
            text(lang, "atlas_inductor_" + k),
            treatments[k],
            text(lang, "atlas_explain_" + k.removesuffix("_declined"))
            + (" " + text(lang, "atlas_explain_declined") if k.endswith("_declined") else ""),
        )
        for k in INDUCTOR
        if treatments[k]
    )
    return block(text(lang, "atlas_legend_composite"), kinds) + block(text(lang, "atlas_legend_inductor"), ways)


def _cuda_line(page: Page, snippet_id: str) -> str:
    standing = page.catalog.standing(snippet_id, "cuda") if (snippet_id, "cuda") in page.catalog.standings else None
    if standing is None or not standing.usable or standing.record is None:
        return f'<p class="atlas-cuda">{escape(text(page.lang, "atlas_cuda_missing"))}</p>'
    version = standing.record.provenance.get("torch", "?")
    return f'<p class="atlas-cuda">{escape(text(page.lang, "atlas_cuda", torch=version))}</p>'


def _controls(lang: str) -> str:
    kinds = "".join(f'<option value="{k}">{escape(text(lang, "atlas_composite_" + k))}</option>' for k in COMPOSITES)
    checks = "".join(
        f'<label><input type="checkbox" data-filter="{k}"> {escape(text(lang, "atlas_filter_" + k))}</label>'
        for k in ("cpu", "decomposed", "backward", "observed")
    )
    return (
        f'<div class="atlas-controls" hidden><label>{escape(text(lang, "atlas_search"))} '
        f'<input type="search" class="atlas-search" autocomplete="off"></label> '
        f'<label>{escape(text(lang, "atlas_composite"))} <select class="atlas-kind"><option value="">'
        f"{escape(text(lang, 'atlas_any'))}</option>{kinds}</select></label> {checks} "
        '<output class="atlas-count" aria-live="polite"></output></div>'
    )


def render(directive: Directive, page: Page) -> Rendered:
    """The atlas of the snippet the directive names, from its current CPU record."""
    snippet_id = directive.arg or ""
    if (snippet_id, "cpu") not in page.catalog.standings:
        return Rendered("", [Problem(directive.line, f"::: atlas {snippet_id}: no such snippet with a CPU record")])
    standing = page.catalog.standing(snippet_id, "cpu")
    if not standing.usable or standing.record is None:
        problem = Problem(
            directive.line, f"::: atlas {snippet_id}: its CPU record is {standing.verdict}: {standing.why()}"
        )
        return Rendered(admonition("failure", "Atlas", escape(problem.message)), [problem])
    record = standing.record
    try:
        found = entries(record)
    except Refused as exc:
        problem = Problem(directive.line, f"::: atlas {snippet_id}: its CPU record is refused: {exc}")
        return Rendered(admonition("failure", "Atlas", escape(problem.message)), [problem])
    items = "".join(_item(e, shard, page.lang) for shard, group in found.items() for e in group)
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
        f"<div class=\"atlas\" data-atlas='{escape(config)}'>{_summary(found, record, page.lang)}"
        f"{_legend(found, page.lang)}{_cuda_line(page, snippet_id)}{_controls(page.lang)}"
        f'<ul class="atlas-list">{items}</ul><div class="atlas-detail" hidden></div></div>'
        f'<script src="{page.site_root}assets/javascripts/atlas.js" defer></script>'
    )
    return Rendered(html)
