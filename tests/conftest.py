"""Shared fixtures: toy projects for the runner, and the real site built once.

Toy projects hold snippets that need only the standard library (or a bare
``import torch``), so the runner's behaviour (caching, staleness, timeouts,
errors, interrupts) is tested in well under a second per case; the real torch
snippets are re-executed in test_records.py.
"""

from __future__ import annotations

import io
import socket
import textwrap
from pathlib import Path

import pytest
from phase25 import runner
from phase25.catalog import Catalog
from phase25.paths import REPO_ROOT, Layout

REPO = REPO_ROOT


class ToyProject:
    """A throwaway repository with a ``snippets/`` and a ``records/`` folder."""

    def __init__(self, root: Path) -> None:
        self.root = root
        (root / "snippets").mkdir(parents=True)
        self.layout = Layout.of(root)

    def add(self, snippet_id: str, body: str, *, devices: str = '["cpu"]', extra: str = "") -> Path:
        path = self.root / "snippets" / f"{snippet_id}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        head = f"# /// snippet\n# devices = {devices}\n" + "".join(f"# {line}\n" for line in extra.splitlines() if line)
        path.write_text(head + "# ///\n" + textwrap.dedent(body), encoding="utf-8")
        return path

    def catalog(self, records: Path | None = None) -> Catalog:
        layout = Layout(self.root, self.layout.snippets, records) if records else self.layout
        return Catalog(layout)

    def run(self, *, workers: int = 1, force: bool = False, devices=("cpu",), records: Path | None = None,
            warm: bool = False, stream: io.StringIO | None = None):
        catalog = self.catalog(records)
        todo, current = runner.plan(catalog, devices, force=force)
        progress = runner.Progress(len(todo), stream or io.StringIO())
        return runner.run(catalog, todo, workers=workers, progress=progress, warm=warm), current


@pytest.fixture
def toy(tmp_path: Path) -> ToyProject:
    return ToyProject(tmp_path / "project")


PREVIEW = "/pytorch-under-the-hood/"  # the path the site is published under, kept by the local preview


@pytest.fixture(scope="session")
def preview_port() -> int:
    """A free local port: the browser tests serve the site there, and it is built for that address."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="session")
def built_site(tmp_path_factory, preview_port) -> Path:
    """The real site, built once with --strict for the build and browser tests, published at a local address."""
    from site_build import build

    site = tmp_path_factory.mktemp("site") / "site"
    result = build(REPO, site, site_url=f"http://127.0.0.1:{preview_port}{PREVIEW}")
    assert result.returncode == 0, result.stderr[-4000:]
    return site
