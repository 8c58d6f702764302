"""MkDocs loads this file (``hooks:`` in mkdocs.yml); the logic is in phase25.mkdocs_glue."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from phase25.mkdocs_glue import (  # noqa: F401
    on_files,
    on_page_content,
    on_page_markdown,
    on_post_build,
    on_post_page,
    on_pre_build,
)
