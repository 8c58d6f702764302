"""``python -m phase25 upgrade``: the torch upgrade pipeline, one step per command.

    upgrade latest [V]             print version=V and newer=true|false (GitHub Actions output format)
    upgrade drift V                run every snippet made here (CPU and emulated) under torch V in a scratch
                                   environment, write the drift report against the committed records, and its
                                   page in each language; a run that failed is an entry and fails the command;
                                   V older than the pin: the pin's own report (V -> pin) made again for today's
                                   snippets, and its review checklist (the boxes already ticked stay ticked)
    upgrade pin V                  keep the committed records aside, then pin torch V and the triton it requires
                                   (tools/upgrade_pin.py; run again after a stop, it resumes)
    upgrade review V               after setup and ``update`` under the new pin: the drift report of the records
                                   kept aside against the new ones, its pages, and the review checklist

``make upgrade TORCH=V`` runs pin, setup, update, labs and review in that order: the whole upgrade on one
machine, ending in a checklist of every page place that shows or quotes a changed output (see ``site.page.review``).

The scratch environment lives under ``.cache/phase25/torch-<V>`` and gets torch V plus the snippets' own
pins from requirements.txt (numpy, tlparse, depyf). The new pages are generic until a reviewer writes
what the report shows; the pull request the workflow opens is where that happens.
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
import urllib.request
from pathlib import Path

from ..core import atomic, bounded, drift
from ..core.catalog import Catalog, pinned_version
from ..core.devices import LOCAL, REFERENCE
from ..core.drift_shape import DriftReport
from ..core.paths import Layout
from ..run import plan, pool
from ..site.lang import strings, translations
from ..site.page import review as prose_review

SNIPPET_PINS = ("numpy", "tlparse", "depyf", "astor", "dill", "expecttest")  # what snippets import besides torch
VENV_S, INSTALL_S = 300, 1800  # seconds: a venv, a pip install (torch is large); past them both are killed
_VERSION = re.compile(r"[0-9]{1,4}\.[0-9]{1,4}\.[0-9]{1,4}")  # fullmatch: "$" would let a newline through, and
# "\d" a digit of any script (fullwidth, Arabic-Indic, ...)


def pinned(root: Path, package: str = "torch") -> str:
    found = pinned_version(root, package)
    if found is None:
        raise ValueError(f"requirements.txt pins no {package}")
    return found


def newest_release() -> str:
    """The newest final torch release on PyPI."""
    with urllib.request.urlopen("https://pypi.org/pypi/torch/json", timeout=60) as response:
        releases = json.load(response)["releases"]
    finals: list[str] = [v for v, files in releases.items() if _VERSION.fullmatch(v) and files]
    return max(finals, key=lambda v: tuple(int(p) for p in v.split(".")))


def latest(root: Path, version: str | None) -> str:
    """GitHub Actions outputs: the version to measure, and whether it is newer than the pin."""
    target = checked(version) if version else newest_release()
    newer = tuple(int(p) for p in target.split(".")) > tuple(int(p) for p in pinned(root).split("."))
    return f"version={target}\nnewer={'true' if newer else 'false'}"


def scratch_python(root: Path, version: str) -> Path:
    """A scratch virtual environment with torch ``version`` and the snippets' other pins."""
    venv = root / ".cache" / "phase25" / f"torch-{version}"
    python = venv / "bin" / "python"
    if not python.exists():
        bounded.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=VENV_S)
        pins = [f"{name}=={pinned(root, name)}" for name in SNIPPET_PINS]
        # The pins named here are the only constraints: a machine-wide pip constraint may cap torch below V.
        env = {**os.environ, "PIP_CONSTRAINT": os.devnull}
        command = [str(python), "-m", "pip", "install", "--quiet", f"torch=={version}", *pins]
        bounded.run(command, check=True, env=env, timeout=INSTALL_S)
    return python


def checked(version: str) -> str:
    """A torch version as X.Y.Z, refused otherwise: it comes from a workflow's input and names folders."""
    if not _VERSION.fullmatch(version):
        raise ValueError(f"{version!r} is not a torch release (X.Y.Z)")
    return version


def scratch_records(root: Path, version: str) -> Path:
    return root / ".cache" / "phase25" / f"records-{checked(version)}"


def execute(
    root: Path,
    version: str,
    jobs: int,
    shard: tuple[int, int] | None = None,
    *,
    devices: tuple[str, ...] = LOCAL,
    select: tuple[str, ...] = (),
    timeout_factor: float = 1.0,
) -> Path:
    """Run every CPU and emulated snippet (or one shard's share, balanced on the committed wall times) under torch
    ``version`` into a scratch records folder; return that folder. A failed run is a record that says why: the
    report makes it an entry and fails (:func:`report`). ``devices=("cpu",)`` is for an older release's CPU-only
    wheel, which has no triton for the emulated GPU; a busy machine may need a ``timeout_factor`` above 1."""
    python = scratch_python(root, checked(version))
    scratch = scratch_records(root, version)
    catalog = Catalog(Layout(root, root / "snippets", scratch))
    committed = Catalog(Layout.of(root))
    todo, _ = plan.jobs(catalog, list(devices), select=select, force=True, shard=shard, estimates=committed)
    pool.run(
        catalog,
        todo,
        workers=jobs,
        python=str(python),
        estimates=committed,
        reuse=False,
        timeout_factor=timeout_factor,
    )
    return scratch


def report(root: Path, version: str, records_folder: Path) -> str:
    """Write the drift report of ``records_folder`` against the committed records, and its pages; then fail in
    one line if a run under ``version`` failed (the report has its entry, which says why)."""
    name = f"torch-{pinned(root)}-to-{checked(version)}"
    found = drift.between(Layout.of(root), Layout(root, root / "snippets", records_folder))
    atomic.write_atomic(drift.report_path(root, name), drift.dumps(found))
    write_pages(root, name, version)
    refuse_failures(found, name, version)
    return name


def refuse_failures(report: DriftReport, name: str, version: str) -> None:
    """One line naming every run under ``version`` (the report's side b) that failed, as an error."""
    failed = [f"{e['snippet']} ({e['device']})" for e in report["entries"] if (e.get("failed") or {}).get("b")]
    if failed:
        raise ValueError(
            f"{len(failed)} run(s) failed under torch {version}: {', '.join(failed)}; "
            f"{drift.REPORTS}/{name}.json has their entries and says why"
        )


def measure(root: Path, version: str, jobs: int) -> str:
    """Run every CPU snippet under torch ``version`` on this machine; write the report and its pages. A release
    older than the pin is the one the pin replaced: its report is made again (see :func:`remeasure`)."""
    if _release(checked(version)) < _release(pinned(root)):
        return remeasure(root, version, jobs)
    return report(root, version, execute(root, version, jobs))


def _release(version: str) -> tuple[int, ...]:
    return tuple(int(p) for p in version.split("."))


def remeasure(root: Path, before: str, jobs: int) -> str:
    """The pin's drift report made again for today's snippets: each CPU snippet, as it is now, run under torch
    ``before`` (the release the pin replaced; its wheel may lie on local disk, pip's find-links) and compared with
    the committed records. Snippets written since the upgrade get their older output too, and one that fails
    under ``before`` (an API only the pin has) is an entry that says so. The committed records are not re-made."""
    folder = scratch_records(root, before)
    stale = tuple(_not_run(root, folder)) if folder.is_dir() else ()
    if stale or not folder.is_dir():  # a run cut short, or snippets edited since: only those run again
        execute(root, before, jobs, devices=(REFERENCE,), select=stale)
    return compare_before(root, before, folder)


def _not_run(root: Path, folder: Path) -> list[str]:
    """The CPU snippets with no record in ``folder`` made from their source as it is now."""
    catalog = Catalog(Layout(root, root / "snippets", folder))
    found = []
    for snippet_id, snippet in catalog.snippets.items():
        ran = REFERENCE in snippet.header.devices
        record = catalog.standing(snippet_id, REFERENCE).record if ran else None
        if ran and (record is None or record.source_sha256 != catalog.digests[snippet_id]):
            found.append(snippet_id)
    return found


def compare_before(root: Path, before: str, folder: Path) -> str:
    """Write the report ``torch-<before>-to-<pin>`` of ``folder`` (records made under ``before``) against the
    committed records, and its review checklist with the boxes already ticked kept."""
    name = f"torch-{checked(before)}-to-{pinned(root)}"
    found = drift.between(Layout(root, root / "snippets", folder), Layout.of(root), (REFERENCE,))  # only CPU ran
    atomic.write_atomic(drift.report_path(root, name), drift.dumps(found))
    if (root / drift.REPORTS / f"{name}{prose_review.SUFFIX}").is_file():
        prose_review.write(root, name)  # the boxes already ticked stay ticked
    return name


def merged_report(root: Path, version: str, shards: list[Path]) -> str:
    """The report of a drift run spread over machines: their records merged (each run once), then compared."""
    from ..run.travel import merge

    into = root / ".cache" / "phase25" / f"records-{checked(version)}-merged"
    merge.merge(shards, into, Layout.of(root), list(LOCAL))
    return report(root, version, into)


def _translated_title(config: str, lang: str, line: str) -> str:
    """``config`` with ``line`` added to the nav_translations of language ``lang``'s entry of the i18n plugin."""
    entry = re.search(rf"^        - locale: {re.escape(lang)}\n(?:(?!        - ).*\n)*", config, re.MULTILINE)
    block = entry and re.search(r"^          nav_translations:\n(?:            .*\n)+", entry.group(0), re.MULTILINE)
    if entry is None or block is None:
        raise ValueError(f"mkdocs.yml: the i18n entry of {lang!r} has no nav_translations to add {line!r} to")
    at = entry.start() + block.end()
    return config[:at] + f"            {line}\n" + config[at:]


def write_pages(root: Path, name: str, version: str, before: str | None = None) -> None:
    """The report's page in each language, and its place in the navigation."""
    before = before or pinned(root)
    pages = [root / "docs" / lang / "reference" / f"drift-torch-{version}.md" for lang in strings.LANGUAGES]
    for page in pages:  # a page is named by its release: one that shows another report is never taken over
        if page.exists() and f"::: drift-report {name}\n" not in page.read_text(encoding="utf-8"):
            raise ValueError(
                f"{page.relative_to(root)} shows another drift report than {name}: "
                f"move it aside or give the report {name} another release's page"
            )
    for lang, page in zip(strings.LANGUAGES, pages, strict=True):
        if not page.exists():
            page.write_text(strings.text(lang, "drift_page", a=before, b=version, name=name), encoding="utf-8")
    for lang in translations.TARGETS:
        translations.stamp(root / "docs", f"reference/drift-torch-{version}.md", lang)
    config = root / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    entry = f'      - "Drift: torch {before} → {version}": reference/drift-torch-{version}.md\n'
    if entry not in text:
        text = re.sub(r"(  - Reference:\n(?:      - .*\n)+)", lambda m: m.group(1) + entry, text, count=1)
        for lang in translations.TARGETS:
            title = strings.text(lang, "nav_drift", a=before, b=version)
            text = _translated_title(text, lang, f'"Drift: torch {before} → {version}": "{title}"')
        config.write_text(text, encoding="utf-8")


def kept_records(root: Path) -> Path:
    """Where ``upgrade pin`` keeps the records of the pin it replaces, for ``upgrade review``."""
    return root / ".cache" / "phase25" / "records-before-upgrade"


def required_triton(version: str) -> str:
    """The triton release torch ``version`` requires on Linux, read from its metadata (no wheel downloaded)."""
    with tempfile.TemporaryDirectory(prefix="phase25-upgrade-") as scratch:
        report = Path(scratch) / "torch-metadata.json"
        env = {**os.environ, "PIP_CONSTRAINT": os.devnull}  # the pin is the only constraint, as in setup
        command = [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed", "--no-deps"]
        command += ["--quiet", "--report", str(report), f"torch=={checked(version)}"]
        bounded.run(command, check=True, env=env, timeout=INSTALL_S)
        metadata = json.loads(report.read_text(encoding="utf-8"))["install"][0]["metadata"]
    for requirement in metadata.get("requires_dist", []):
        if match := re.match(r"triton\s*(?:==|~=)\s*(\d+\.\d+\.\d+)", requirement):
            return match.group(1)
    raise ValueError(f"torch {version} requires no triton release on Linux: pin it by hand")


def repin(text: str, package: str, version: str) -> str:
    """requirements.txt with ``package`` pinned at ``version`` (the pin's comment kept)."""
    pattern = re.compile(rf"^{re.escape(package)}==\S+?(?=\s|$)", re.MULTILINE)
    if not pattern.search(text):
        raise ValueError(f"requirements.txt pins no {package}")
    return pattern.sub(f"{package}=={version}", text, count=1)


def review(root: Path, version: str) -> str:
    """The drift report of the kept records against the new ones, its pages, and the review checklist."""
    kept = kept_records(root)
    if not kept.is_dir():
        raise ValueError(f"no records kept aside in {kept}: run 'upgrade pin {version}' before the new records")
    if pinned(root) != checked(version):
        raise ValueError(f"requirements.txt pins torch {pinned(root)}, not {version}: run 'upgrade pin' first")
    layout = Layout.of(root)
    found = drift.between(Layout(root, layout.snippets, kept), layout)
    before = str(found["a"]["torch"])
    name = f"torch-{before}-to-{version}"
    atomic.write_atomic(drift.report_path(root, name), drift.dumps(found))
    write_pages(root, name, version, before)
    checklist = prose_review.write(root, name)
    refuse_failures(found, name, version)
    return f"{name}: {drift.counts(found)}; review {checklist.relative_to(root)}"
