"""What a renderer is given (the page being rendered) and what it gives back (HTML and problems)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...core.catalog import Catalog
from ...core.paths import Layout
from .highlight import Highlighter


@dataclass
class Problem:
    """Something a strict build refuses; the adapter adds the page."""

    line: int
    message: str


@dataclass
class Page:
    """What renderers know about the page being rendered."""

    lang: str
    where: str  # "docs/en/index.md"
    catalog: Catalog
    highlighter: Highlighter
    site_root: str = ""  # from the page to the site's root: "../../"
    bodies: dict[tuple[str, str, str], list[int]] = field(default_factory=dict)  # (kind, id, device) -> body numbers
    count: int = 0
    ids: dict[str, int] = field(default_factory=dict)  # an element id given on this page -> how many times
    quotes: dict[str, tuple[str, ...]] = field(default_factory=dict)  # snippet id -> what the prose quotes of it

    @property
    def layout(self) -> Layout:
        return self.catalog.layout


@dataclass
class Rendered:
    html: str
    problems: list[Problem] = field(default_factory=list)
