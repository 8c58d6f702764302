"""What the plugins' quirks (scripts/phase25/site/hosts/quirks/) rely on in the plugins' privates: an upgrade that
removes or changes one fails here, by name, rather than as a notebook cache that silently stops hitting."""

from __future__ import annotations

import ast
import inspect

import pytest
from conftest import REPO

JUPYTER_QUIRKS = REPO / "scripts" / "phase25" / "site" / "hosts" / "quirks" / "jupyter.py"
# mkdocs-jupyter's private functions the quirk calls, with the parameters it passes them.
JUPYTER_FUNCTIONS = {
    "_compute_cache_key": ("nb_path", "config", "exec_nb"),
    "_get_cache_path": ("cache_dir", "cache_key"),
}
JUPYTER_ATTRIBUTES = {"_used_cache_paths"}  # the plugin's private state the quirk adds to


def jupyter_privates() -> tuple[set[str], set[str]]:
    """The private functions the quirk imports from mkdocs-jupyter, and the private attributes it reads of the
    plugin, as its source says."""
    tree = ast.parse(JUPYTER_QUIRKS.read_text(encoding="utf-8"))
    functions = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "mkdocs_jupyter.plugin"
        for alias in node.names
    }
    attributes = {
        node.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and ast.unparse(node.value) == "plugin"
    }
    return functions, attributes


def test_the_pins_are_every_private_the_jupyter_quirk_uses():
    assert jupyter_privates() == (set(JUPYTER_FUNCTIONS), JUPYTER_ATTRIBUTES)


@pytest.mark.parametrize("name", sorted(JUPYTER_FUNCTIONS))
def test_mkdocs_jupyter_still_has_the_private_function(name):
    from mkdocs_jupyter import plugin as jupyter_plugin  # imported by a test, not by collecting the suite (2 s)

    found = getattr(jupyter_plugin, name, None)
    assert callable(found), f"mkdocs_jupyter.plugin.{name} is gone: see quirks/jupyter.py's keep_notebook_cache"
    assert tuple(inspect.signature(found).parameters) == JUPYTER_FUNCTIONS[name], f"{name} takes other arguments"


def test_mkdocs_jupyter_still_evicts_the_cache_files_missing_from_its_used_set(tmp_path):
    """The behaviour keep_notebook_cache works around, through the attribute it adds to: when a file left out of
    ``_used_cache_paths`` is no longer evicted, the quirk can go."""
    from mkdocs_jupyter import plugin as jupyter_plugin

    plugin = jupyter_plugin.Plugin()
    plugin.on_pre_build(config=None)
    used, unused = tmp_path / "used.json", tmp_path / "unused.json"
    used.write_text("{}")
    unused.write_text("{}")
    for name in JUPYTER_ATTRIBUTES:
        assert isinstance(getattr(plugin, name, None), set), f"mkdocs-jupyter's plugin has no {name} set"
    plugin._used_cache_paths.add(used)
    plugin.config = {"cache": True, "cache_dir": str(tmp_path)}
    plugin.on_post_build(config=None)
    assert used.exists() and not unused.exists()
