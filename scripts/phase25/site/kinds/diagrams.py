"""Diagrams drawn at build time as SVG: the graphs a snippet wrote in Mermaid's flowchart syntax, no script.

The snippets draw what they observed (the dispatcher's walk of one call, the autograd graph) as a
``*.mmd`` artifact. Rendering it in the reader's browser needs Mermaid's 3.5 MB script; these graphs
are small and fixed once recorded, so they are laid out here instead, once per build: a layered
drawing (each node one layer after its furthest parent), nodes in their order of first mention,
edges as arrows. The SVG has a title and a description that lists every edge for screen readers, its
text is selectable, its colours come from the theme (both schemes), and its fixed words are in the
page's language. It is shown at its own size, where its text is 12 px: a drawing wider than the column
(the dispatcher's walk is 1161 px) scrolls sideways in its figure rather than shrinking its text (to
9 px in the column of a 1400 px screen), and the drawing takes the keyboard's focus so that the arrow
keys scroll it too.

The subset read is what the snippets write: ``flowchart TB|LR``; nodes ``id["label"]`` and
``id(["label"])`` (a rounded node: an operator); edges ``a --> b``, chains ``a --> b --> c`` and
dotted labelled edges ``a -. "calls" .-> b``; ``<br/>`` breaks a label. Anything else is an error
naming the diagram's line, never a half-drawn picture.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...core.errors import SourceError
from ..lang.strings import text
from ..page.markup import escape

_NODE = re.compile(r'(?P<id>[A-Za-z_][\w]*)(?:(?P<round>\(\[)"(?P<rlabel>[^"]*)"\]\)|\["(?P<label>[^"]*)"\])?')
_ARROW = re.compile(r'\s*(?:-->|-\.\s*"(?P<label>[^"]*)"\s*\.->|-\.->)\s*')
CHAR_W, LINE_H, PAD, GAP_LAYER, GAP_NODE = 7.2, 16, 10, 46, 18


@dataclass
class Node:
    id: str
    label: str = ""
    rounded: bool = False
    layer: int = 0
    order: float = 0.0
    x: float = 0.0
    y: float = 0.0

    @property
    def lines(self) -> list[str]:
        return self.label.split("<br/>") if self.label else [self.id]

    @property
    def width(self) -> float:
        return max(len(line) for line in self.lines) * CHAR_W + 2 * PAD

    @property
    def height(self) -> float:
        return len(self.lines) * LINE_H + PAD


@dataclass
class Graph:
    direction: str
    nodes: dict[str, Node] = field(default_factory=dict)
    edges: list[tuple[str, str, str | None]] = field(default_factory=list)  # (from, to, label); label: dotted

    def node(self, match: re.Match[str]) -> str:
        found = self.nodes.setdefault(match.group("id"), Node(match.group("id")))
        label = match.group("label") if match.group("label") is not None else match.group("rlabel")
        if label is not None:
            found.label, found.rounded = label, match.group("round") is not None
        return found.id


def parse(source: str, where: str) -> Graph:
    """A graph from the flowchart subset above; anything outside it is a SourceError with its line."""
    lines = [line.strip() for line in source.strip().split("\n")]
    head = re.fullmatch(r"flowchart (TB|TD|LR)", lines[0]) if lines else None
    if head is None:
        raise SourceError(where, "a diagram starts with 'flowchart TB' or 'flowchart LR'", 1)
    graph = Graph("LR" if head.group(1) == "LR" else "TB")
    for number, line in enumerate(lines[1:], start=2):
        if not line or line.startswith("%%"):
            continue
        position, previous, label = 0, None, None
        while position < len(line):
            node = _NODE.match(line, position)
            if node is None:
                raise SourceError(where, f"cannot read {line[position:][:40]!r} as a node of a flowchart", number)
            current = graph.node(node)
            if previous is not None:
                graph.edges.append((previous, current, label))
            position = node.end()
            if position == len(line):
                break
            arrow = _ARROW.match(line, position)
            if arrow is None:
                raise SourceError(where, f"cannot read {line[position:][:40]!r} as an arrow", number)
            previous, label, position = (
                current,
                arrow.group("label") or ("" if "-." in arrow.group() else None),
                (arrow.end()),
            )
    return graph


def _layout(graph: Graph) -> tuple[float, float]:
    """Layers by longest path from the sources; order inside a layer by parents' mean order; positions."""
    parents: dict[str, list[str]] = {n: [] for n in graph.nodes}
    for a, b, _ in graph.edges:
        parents[b].append(a)
    for _ in graph.nodes:  # longest path; the graphs are acyclic and small
        for a, b, _ in graph.edges:
            graph.nodes[b].layer = max(graph.nodes[b].layer, graph.nodes[a].layer + 1)
    layers: dict[int, list[Node]] = {}
    for index, node in enumerate(graph.nodes.values()):
        node.order = index
        layers.setdefault(node.layer, []).append(node)
    for layer in sorted(layers):
        for node in layers[layer]:
            if parents[node.id]:
                node.order = sum(graph.nodes[p].order for p in parents[node.id]) / len(parents[node.id])
        layers[layer].sort(key=lambda n: n.order)
        for rank, node in enumerate(layers[layer]):
            node.order = rank
    across = "height" if graph.direction == "LR" else "width"
    along = "width" if graph.direction == "LR" else "height"
    thickness = [max(getattr(n, along) for n in layers[layer]) for layer in sorted(layers)]
    breadth = max(sum(getattr(n, across) for n in nodes) + GAP_NODE * (len(nodes) - 1) for nodes in layers.values())
    start = 0.0
    for layer, size in zip(sorted(layers), thickness, strict=True):
        nodes = layers[layer]
        total = sum(getattr(n, across) for n in nodes) + GAP_NODE * (len(nodes) - 1)
        offset = (breadth - total) / 2
        for node in nodes:
            centre_along, centre_across = start + size / 2, offset + getattr(node, across) / 2
            node.x, node.y = (centre_along, centre_across) if graph.direction == "LR" else (centre_across, centre_along)
            offset += getattr(node, across) + GAP_NODE
        start += size + GAP_LAYER
    length = start - GAP_LAYER
    return (length, breadth) if graph.direction == "LR" else (breadth, length)


def _border(node: Node, towards: Node) -> tuple[float, float]:
    """Where the line from ``node``'s centre towards another node leaves ``node``'s box."""
    dx, dy = towards.x - node.x, towards.y - node.y
    if dx == 0 and dy == 0:
        return node.x, node.y
    scale = min(node.width / 2 / abs(dx) if dx else float("inf"), node.height / 2 / abs(dy) if dy else float("inf"))
    return node.x + dx * scale, node.y + dy * scale


def _words(label: str, lang: str) -> str:
    """The fixed words of a label in the page's language; identifiers stay as they are."""
    return text(lang, f"diagram_{label}") if label in DIAGRAM_WORDS else label


DIAGRAM_WORDS = ("math kernel", "autograd kernel", "kernel", "fallthrough", "default backend kernel", "calls")


def svg(source: str, name: str, lang: str, where: str, ident: str) -> str:
    """The diagram as an inline SVG figure, with its title and an edge-by-edge description.

    ``ident`` is unique on the page (snippet and file): the ids of the title, description and arrow use it."""
    ident = re.sub(r"[^A-Za-z0-9_-]", "-", ident)
    graph = parse(source, where)
    width, height = _layout(graph)
    margin = 8
    parts = []
    for a, b, label in graph.edges:
        start, end = graph.nodes[a], graph.nodes[b]
        (x1, y1), (x2, y2) = _border(start, end), _border(end, start)
        dotted = ' class="dotted"' if label is not None else ""
        parts.append(
            f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"{dotted} marker-end="url(#{ident}-arrow)"/>'
        )
        if label:
            parts.append(
                f'<text class="edge-label" x="{(x1 + x2) / 2:.1f}" y="{(y1 + y2) / 2 - 4:.1f}">'
                f"{escape(_words(label, lang))}</text>"
            )
    for node in graph.nodes.values():
        left, top = node.x - node.width / 2, node.y - node.height / 2
        radius = node.height / 2 if node.rounded else 4
        parts.append(
            f'<rect x="{left:.1f}" y="{top:.1f}" width="{node.width:.1f}" height="{node.height:.1f}" '
            f'rx="{radius:.1f}"{" class=" + chr(34) + "op" + chr(34) if node.rounded else ""}/>'
        )
        for index, line in enumerate(node.lines):
            y = top + PAD / 2 + LINE_H * (index + 0.75)
            parts.append(f'<text x="{node.x:.1f}" y="{y:.1f}">{escape(_words(line, lang))}</text>')
    labels = {n.id: " ".join(_words(line, lang) for line in n.lines) for n in graph.nodes.values()}
    edges = "; ".join(
        f"{labels[a]} → {labels[b]}" + (f" ({_words(lb, lang)})" if lb else "") for a, b, lb in graph.edges
    )
    title = text(lang, "diagram_title", name=name)
    box = f"{-margin} {-margin} {width + 2 * margin:.0f} {height + 2 * margin:.0f}"
    return (
        f'<figure class="snippet-diagram"><svg xmlns="http://www.w3.org/2000/svg" role="img" viewBox="{box}" '
        f'width="{width + 2 * margin:.0f}" tabindex="0" aria-labelledby="{ident}-t {ident}-d">'
        f'<title id="{ident}-t">{escape(title)}</title><desc id="{ident}-d">{escape(edges)}</desc>'
        f'<defs><marker id="{ident}-arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" '
        'orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z"/></marker></defs>'
        f"{''.join(parts)}</svg><figcaption>{escape(title)}</figcaption></figure>"
    )
