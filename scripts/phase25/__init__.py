"""The machinery of the Phase 25 site, in four folders by concern.

- ``core/``: what a snippet, a record and a layout are; comparing outputs; the catalog of records.
- ``run/``: executing runs (plan, pool, sessions, supervisors, warm interpreters) and the commands that do.
- ``site/``: page sources and directives, the renderers, highlighting, UI strings, labs, translations and
  the MkDocs adapter.
- ``tools/``: the benchmark, the torch upgrade, retraining the running example, subprocess builds.

``core/`` and ``run/`` need the standard library only (and torch in the snippets' processes), so that
``python3 -m phase25 run`` works on the GPU machine; ``tests/test_layers.py`` checks it.
"""
