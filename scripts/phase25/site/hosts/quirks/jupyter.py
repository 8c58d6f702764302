"""Quirks of mkdocs-jupyter 0.26.3 (the pin in requirements.txt), each with the behaviour it works around.

``keep_notebook_cache`` reaches into the plugin's privates (``_compute_cache_key``, ``_get_cache_path``,
``_used_cache_paths``): tests/test_quirks.py fails by name when an upgrade removes one. Each function can go
when the plugin no longer needs it: a second build in a row converts no notebook without
``keep_notebook_cache``; tests/test_read_only_checkout.py passes without ``writable_notebook_cache``; a Spanish
notebook page shows ``[1]:`` without ``notebook_prompts``.
"""

from __future__ import annotations

import hashlib
import logging
import re
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

log = logging.getLogger("mkdocs.plugins.phase25")

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig


def keep_notebook_cache(config: MkDocsConfig) -> None:
    """mkdocs-jupyter evicts every cached notebook a build did not use, and static-i18n builds one
    language per pass: each pass evicted the other language's notebooks, so the cache never hit.
    Declaring every notebook of every language as used keeps it warm."""
    plugin = config.plugins.get("mkdocs-jupyter")
    if plugin is None or not plugin.config.get("cache"):
        return
    writable_notebook_cache(plugin.config)
    if not plugin.config.get("cache"):
        return
    from mkdocs_jupyter.plugin import _compute_cache_key, _get_cache_path

    for notebook in Path(config.docs_dir).rglob("*.ipynb"):
        key = _compute_cache_key(str(notebook), plugin.config, plugin.config["execute"])
        plugin._used_cache_paths.add(_get_cache_path(plugin.config["cache_dir"], key))


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder):
            return True
    except OSError:
        return False


def writable_notebook_cache(plugin_config: dict) -> None:
    """mkdocs-jupyter writes its cache into the checkout (``.cache/``) and dies on a read-only one: reading a
    checkout must need no write into it. Where that folder cannot be written, the cache moves to the machine's
    temporary folder (one line says so), or is turned off when that cannot be written either."""
    folder = Path(plugin_config["cache_dir"])
    if _writable(folder):
        return
    elsewhere = (
        Path(tempfile.gettempdir())
        / "phase25-notebook-cache"
        / hashlib.sha256(str(folder.resolve()).encode()).hexdigest()[:12]
    )
    if _writable(elsewhere):
        plugin_config["cache_dir"] = str(elsewhere)
        log.info("phase25: %s cannot be written; the notebooks' cache is kept in %s", folder, elsewhere)
    else:
        plugin_config["cache"] = False
        log.info("phase25: %s cannot be written, nor a temporary folder; notebooks are converted uncached", folder)


_PROMPT = re.compile(r'(<div class="jp-InputPrompt jp-InputArea-prompt">)In(?:&nbsp;|\s|\u00a0)\[(\d*)\]:')


def notebook_prompts(output: str) -> str:
    """A code cell's prompt as JupyterLab 4 writes it, ``[1]:``, in every language: nbconvert's template still
    writes ``In [1]:``, English on a Spanish page."""
    return _PROMPT.sub(r"\1[\2]:", output)
