"""The sentences above the atlas's list: its counts, the legend of its labels and what changed since the last
upgrade, each counted from the record (nothing typed by hand)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from ...core.records import Record
from ..lang.strings import number, text
from ..page.markup import escape

BACKEND_KEYS = ("CPU", "CUDA", "Meta")
# The registration stages the atlas snippet names (its ids in the record): the page says each in its language,
# through the strings ``atlas_js_stage_<id>``; a record with another stage is refused, not shown in English.
STAGES = ("import torch", "+ torch._dynamo", "+ torch._inductor", "+ OpInfo's samples run")
COMPOSITES = ("implicit", "explicit", "explicit-non-functional", "none")
INDUCTOR = (
    "composite",
    "functionalized",
    "decomposed",
    "decomposed_some",
    "decomposition_table",
    "lowered",
    "fallback",
    "implicit_fallback",
    "lowered_declined",
    "fallback_declined",
    "implicit_fallback_declined",
    "functionalized_declined",
    "none",
)


def summary(found: dict[str, list[dict[str, Any]]], record: Record, lang: str) -> str:
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
        stages=", ".join(
            text(lang, "atlas_stage", stage=text(lang, f"atlas_js_stage_{s}"), n=number(lang, n, 0))
            for s, n in stages.items()
        ),
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
        no_kernel=number(lang, sum(1 for e in every if "no_kernel" in e), 0),
        seen=number(lang, sum(1 for e in every if e.get("inductor_how") == "observed"), 0),
        read=number(lang, sum(1 for e in every if e.get("inductor_how") != "observed"), 0),
    )
    return f'<p class="atlas-summary">{escape(counts)}</p><p class="atlas-summary">{escape(sampled)}</p>'


def legend(found: dict[str, list[dict[str, Any]]], lang: str) -> str:
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


def since_line(before: str, changes: dict[str, dict[str, Any]], removed: list[str], lang: str) -> str:
    if not before:
        return ""
    added = sum(1 for c in changes.values() if c.get("added"))
    said = text(
        lang,
        "atlas_since",
        torch=before,
        added=number(lang, added, 0),
        removed=number(lang, len(removed), 0),
        changed=number(lang, len(changes) - added, 0),
        names=", ".join(removed[:12]) + (" …" if len(removed) > 12 else ""),
    )
    return f'<p class="atlas-summary">{escape(said)}</p>'
