"""MkDocs loads this file (``hooks:`` in mkdocs.yml); the adapter is phase25.site.hosts.adapter."""

from phase25.site.hosts.adapter import (
    on_config,
    on_files,
    on_page_content,
    on_page_markdown,
    on_post_build,
    on_post_page,
    on_post_template,
    on_pre_build,
)

__all__ = [
    "on_config",
    "on_files",
    "on_page_content",
    "on_page_markdown",
    "on_post_build",
    "on_post_page",
    "on_post_template",
    "on_pre_build",
]
