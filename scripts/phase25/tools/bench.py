"""``python -m phase25 bench``: build and execution figures, side by side in one run (not a test).

1. Warm rebuild: ``mkdocs build`` with nothing stale, against the same site whose
   outputs are pasted in as plain code blocks and its other directives as the HTML they render (no hook at
   all), the atlas and every page included. Target <= 1.05x.
2. Cold execution of every CPU snippet: fresh interpreters one at a time (the sum
   of single runs), fresh interpreters on all cores, and runs forked from warm
   interpreters on all cores. Targets: fresh on N cores <= 1.2x the sum / N;
   warm <= 0.75x fresh; warm records byte-identical to fresh ones, snippet by snippet.
3. Executions per build: none when nothing changed, one when one snippet changed,
   one per (snippet, device) when all are stale, never doubled by the two languages.

A failed run or build is a figure too: which one, and why. The others are still measured.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

from ..core import compare, records
from ..core.catalog import Catalog
from ..core.devices import REFERENCE
from ..core.paths import REPO_ROOT, Layout, copy_project
from ..run import plan, pool, progress
from ..site.page import directives
from . import build_site as sitebuild

EXECUTION_LINE = re.compile(r"^\[\d+/\d+\] ", re.MULTILINE)


def build(root: Path, *, execute: bool = True) -> tuple[float, str, int]:
    started = time.perf_counter()
    # a slow build is a figure, a hung one is not
    result = sitebuild.build(root, root / "site", execute=execute, timeout=4 * 3600)
    return time.perf_counter() - started, result.stderr, result.returncode


def why_it_failed(log: str, code: int) -> str:
    """The messages that made a build fail (its warnings and errors, which --strict turns into a failure),
    not the last line of its log, which is often an unrelated INFO."""
    lines = [line.strip() for line in log.splitlines() if line.lstrip().startswith(("WARNING", "ERROR"))]
    if not lines:
        return log.strip().splitlines()[-1] if log.strip() else f"exit status {code}"
    more = f" (and {len(lines) - 3} more)" if len(lines) > 3 else ""
    return "; ".join(lines[:3]) + more


def _fence(text: str) -> str:
    ticks = "`" * max(3, max((len(m) for m in re.findall(r"`+", text)), default=0) + 1)
    return f"{ticks}text\n{text.rstrip()}\n{ticks}\n"


def make_plain_copy(target: Path, *, others: bool = True) -> Path:
    """The same site with no hook: every snippet's code and outputs pasted in as plain code blocks, and what the
    other directives render (the atlas's list, the reports' tables) pasted in as the HTML they give, with the
    atlas's data beside it, so that both builds carry the same pages."""
    from ..site.kinds import atlas, renderers
    from ..site.lang.strings import DEFAULT
    from ..site.page.context import Page
    from ..site.page.highlight import Highlighter

    copy_project(target)
    catalog = Catalog(Layout.of(target))
    highlighter = Highlighter()
    for md in (target / "docs").rglob("*.md"):
        text = md.read_text(encoding="utf-8")
        lines = text.split("\n")
        where = md.relative_to(target).as_posix()
        lang = where.split("/")[1]
        depth = len(md.relative_to(target / "docs" / lang).parts) - (md.name == "index.md") + (lang != DEFAULT)
        for directive in reversed(directives.parse(text, str(md))):
            replacement = ""
            kind = directives.KINDS[directive.kind]
            if kind.shows_snippet and not kind.lab_only:
                snippet = catalog.snippets[directive.arg or ""]
                blocks = ["```python\n" + snippet.code.rstrip() + "\n```\n"]
                for device in snippet.header.devices:
                    record = catalog.standing(snippet.id, device).record
                    if record:
                        blocks.append(_fence(record.stdout + record.stderr))
                replacement = "\n".join(blocks)
            elif others and not kind.body and not kind.lab_only:
                page = Page(lang, where, catalog, highlighter, site_root="../" * depth)
                replacement = "\n" + renderers.render(directive, page).html + "\n"
            lines[directive.line - 1 : directive.end] = [replacement]
        md.write_text("\n".join(lines), encoding="utf-8")
    for standing in catalog.standings.values() if others else ():  # the atlas's data the real build publishes
        if standing.usable and standing.record is not None and standing.record.snippet == "atlas/operators":
            for name, content in atlas.data_files(standing.record, target).items():
                (target / "docs" / DEFAULT / name).parent.mkdir(parents=True, exist_ok=True)
                (target / "docs" / DEFAULT / name).write_text(content, encoding="utf-8")
    config = (target / "mkdocs.yml").read_text(encoding="utf-8")
    (target / "mkdocs.yml").write_text(
        re.sub(r"^hooks:\n(  - .*\n)+", "", config, flags=re.MULTILINE), encoding="utf-8"
    )
    return target


def warm_rebuild(work: Path, repeat: int) -> dict:
    """The real site rebuilt with nothing stale against the plain one (``ratio``), and against the plain one
    without the atlas's list and the reports (``ratio_snippets_only``, the figure earlier releases reported)."""
    real, plain = copy_project(work / "real"), make_plain_copy(work / "plain")
    bare = make_plain_copy(work / "bare", others=False)
    for root, execute in ((real, True), (plain, False), (bare, False)):  # warm the OS caches and .pyc files
        _, log, code = build(root, execute=execute)
        if code:
            return {"failed": f"the build of {root.name} failed: {why_it_failed(log, code)}"}
    times: dict[str, list[float]] = {"real": [], "plain": [], "bare": []}
    for _ in range(repeat):  # interleaved, so drift in machine load hits all alike
        times["real"].append(build(real)[0])
        times["plain"].append(build(plain, execute=False)[0])
        times["bare"].append(build(bare, execute=False)[0])
    real_s, plain_s, bare_s = (statistics.median(times[k]) for k in ("real", "plain", "bare"))
    return {
        "real_s": round(real_s, 3),
        "plain_s": round(plain_s, 3),
        "ratio": round(real_s / plain_s, 3),
        "plain_snippets_only_s": round(bare_s, 3),
        "ratio_snippets_only": round(real_s / bare_s, 3),
    }


def _execute_all(work: Path, name: str, jobs: int, warm: bool) -> tuple[pool.Outcome, Layout]:
    layout = Layout(REPO_ROOT, REPO_ROOT / "snippets", work / name)
    catalog = Catalog(layout)
    todo, _ = plan.jobs(catalog, [REFERENCE], force=True)
    outcome = pool.run(
        catalog,
        todo,
        workers=jobs,
        warm=warm,
        progress=progress.Progress(len(todo), io.StringIO()),
        estimates=Catalog(Layout.of(REPO_ROOT)),
    )
    return outcome, layout


def cold_execution(work: Path, jobs: int) -> dict:
    one, _ = _execute_all(work, "fresh-1", 1, warm=False)
    fresh, fresh_layout = _execute_all(work, "fresh-n", jobs, warm=False)
    warm, _ = _execute_all(work, "warm-n", jobs, warm=True)
    total = sum(r.run["wall_s"] for r in one.executed)
    longest = max((r.run["wall_s"] for r in one.executed), default=0.0)
    volatile = {s.id: s.header.volatile for s in Catalog(Layout.of(REPO_ROOT)).snippets.values()}
    differ = [
        r.snippet
        for r in warm.executed
        if (other := records.load(fresh_layout, r.snippet, "cpu")) is None
        or not compare.same_output(other, r, volatile[r.snippet])
    ]
    failed = sorted({f"{r.snippet}: {r.error}" for o in (one, fresh, warm) for r in o.failures})
    ideal = total / jobs if jobs else total
    where = where_warm_time_goes(warm, jobs, fresh.wall_s)
    return {
        "runs": len(one.executed),
        "workers": jobs,
        "sum_single_s": round(total, 2),
        "longest_single_s": round(longest, 2),
        "fresh_parallel_s": round(fresh.wall_s, 2),
        "fresh_ratio": round(fresh.wall_s / ideal, 3) if ideal else None,
        "bound_by_longest_run": round(max(longest, ideal) / ideal, 3) if ideal else None,
        "warm_parallel_s": round(warm.wall_s, 2),
        "warm_over_fresh": round(warm.wall_s / fresh.wall_s, 3),
        "warm_runs": sum(1 for r in warm.executed if r.run.get("mode") == "warm"),
        "warm_outputs_differing_from_fresh": differ,
        "failed": failed,
        "notes": warm.notes,
        **where,
    }


def where_warm_time_goes(warm: pool.Outcome, jobs: int, fresh_s: float) -> dict:
    """Where the forked runs' wall time goes: the runs themselves (their longest first), and the worker-seconds
    no run used (the pool's start, and the tail where fewer runs than workers are left). Their floor is the
    longer of the longest run and the runs' sum spread over every worker: no scheduling goes below it."""
    walls = sorted(((r.run["wall_s"], r.snippet) for r in warm.executed), reverse=True)
    busy = sum(w for w, _ in walls)
    floor = max(walls[0][0] if walls else 0.0, busy / jobs if jobs else busy)
    return {
        "warm_busy_s": round(busy, 2),
        "warm_idle_worker_s": round(max(0.0, jobs * warm.wall_s - busy), 2),
        "warm_floor_s": round(floor, 2),
        "warm_floor_over_fresh": round(floor / fresh_s, 3) if fresh_s else None,
        "warm_longest": [[snippet, round(wall, 2)] for wall, snippet in walls[:5]],
    }


def execution_counts(work: Path) -> dict:
    project = copy_project(work / "counts")
    counts: dict[str, int | str] = {}

    def executions(label: str) -> None:
        _, log, code = build(project)
        counts[label] = len(EXECUTION_LINE.findall(log))
        if code:
            counts[f"{label}_failed"] = why_it_failed(log, code)

    executions("nothing_changed")
    snippet = project / "snippets" / "00-orientation" / "dispatch_keys.py"
    snippet.write_text(snippet.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    executions("one_snippet_edited")
    for record in (project / "records").rglob("*.json"):  # keep the folder: mkdocs.yml watches it
        record.unlink()
    counts["cpu_pairs"] = sum(1 for s in Catalog(Layout.of(project)).snippets.values() if REFERENCE in s.header.devices)
    executions("all_stale")
    return counts


def report(figures: dict) -> str:
    w, c, e = figures["warm_rebuild"], figures["cold_execution"], figures["executions_per_build"]
    lines = []
    if "failed" in w:
        lines.append(f"warm rebuild      not measured: {w['failed']}")
    else:
        lines.append(
            f"warm rebuild      {w['real_s']:.2f} s vs {w['plain_s']:.2f} s with plain code blocks and the other "
            f"directives' HTML: {w['ratio']:.2f}x (target <= 1.05x); vs {w['plain_snippets_only_s']:.2f} s "
            f"with plain code blocks alone: {w['ratio_snippets_only']:.2f}x"
        )
    lines.append(
        f"cold execution    {c['runs']} CPU runs; one at a time {c['sum_single_s']:.1f} s in all; on "
        f"{c['workers']} workers, fresh interpreters {c['fresh_parallel_s']:.1f} s ({c['fresh_ratio']}x the "
        f"sum / workers, target <= 1.2x; the longest run alone bounds it at {c['bound_by_longest_run']}x)"
    )
    lines.append(
        f"warm interpreters {c['warm_parallel_s']:.1f} s on {c['workers']} workers, {c['warm_runs']} runs "
        f"forked: {c['warm_over_fresh']}x the fresh figure (target <= 0.75x); outputs differing from fresh "
        f"runs: {len(c['warm_outputs_differing_from_fresh'])} {c['warm_outputs_differing_from_fresh']}"
    )
    if "warm_busy_s" in c:
        longest = ", ".join(f"{snippet} {wall:.1f} s" for snippet, wall in c["warm_longest"])
        lines.append(
            f"warm time         {c['warm_busy_s']:.1f} s of runs, {c['warm_idle_worker_s']:.1f} worker-seconds idle "
            f"(start and tail); floor {c['warm_floor_s']:.1f} s (the longest run, or the runs spread over every "
            f"worker) = {c['warm_floor_over_fresh']}x the fresh figure; longest: {longest}"
        )
    lines += [f"failed run        {failure}" for failure in c["failed"]]
    lines.append(
        f"executions        nothing changed: {e['nothing_changed']}, one snippet edited: "
        f"{e['one_snippet_edited']}, all stale: {e['all_stale']} (CPU pairs: {e['cpu_pairs']}; two "
        "languages built each time)"
    )
    lines += [f"failed build      {k.removesuffix('_failed')}: {v}" for k, v in e.items() if k.endswith("_failed")]
    return "\n".join(lines)


def main(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory(prefix="phase25-bench-") as tmp:
        work = Path(tmp)
        figures = {
            "machine": {"cores": os.cpu_count(), "python": sys.version.split()[0]},
            "warm_rebuild": warm_rebuild(work, args.repeat),
            "cold_execution": cold_execution(work, args.jobs),
            "executions_per_build": execution_counts(work),
        }
    print(report(figures))
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return 0
