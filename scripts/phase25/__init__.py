"""Execution and rendering machinery of the Phase 25 site.

The modules that run snippets (``header``, ``normalize``, ``records``,
``execute``, ``runner``, ``bootstrap``, ``cli``) use only the standard library,
so that they work on the GPU machine, which has torch but no registry.
Rendering and the MkDocs glue (``render``, ``mkdocs_glue``) are site-side only.
"""
