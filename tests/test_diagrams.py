"""Diagrams drawn at build time: the flowchart subset the snippets write, laid out as SVG, in both languages."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from phase25.core.catalog import Catalog
from phase25.core.errors import SourceError
from phase25.core.paths import DEFAULT_LAYOUT
from phase25.site.kinds import diagrams

HEAD = """flowchart TB
  n0["AddmmBackward0"]
  n1["AccumulateGrad (b (600,))"]
  n2["TBackward0"]
  n3["AccumulateGrad (W (600, 64))"]
  n0 --> n1
  n0 --> n2
  n2 --> n3
"""
WALK = """flowchart LR
  linear(["aten::linear"]) --> linear_0["AutogradCPU<br/>math kernel"]
  t(["aten::t"]) --> t_0["CPU<br/>kernel"]
  linear_0 -. "calls" .-> t
"""
SVG = "{http://www.w3.org/2000/svg}"


def drawn(source: str, lang: str = "en") -> ET.Element:
    html = diagrams.svg(source, "g.mmd", lang, "records/p/a.cpu.json: g.mmd", "p-a-cpu-g.mmd")
    return ET.fromstring(html).find(f"{SVG}svg") if html.startswith("<figure") else ET.fromstring(html)


def test_the_graph_is_read_with_its_nodes_edges_and_labels():
    graph = diagrams.parse(WALK, "w")
    assert graph.direction == "LR" and list(graph.nodes) == ["linear", "linear_0", "t", "t_0"]
    assert graph.nodes["linear"].rounded and graph.nodes["linear_0"].lines == ["AutogradCPU", "math kernel"]
    assert graph.edges == [("linear", "linear_0", None), ("t", "t_0", None), ("linear_0", "t", "calls")]


def test_each_node_sits_one_layer_after_its_furthest_parent_and_no_two_nodes_overlap():
    graph = diagrams.parse(HEAD, "h")
    diagrams._layout(graph)
    assert [graph.nodes[n].layer for n in ("n0", "n1", "n2", "n3")] == [0, 1, 1, 2]
    assert graph.nodes["n0"].y < graph.nodes["n2"].y < graph.nodes["n3"].y  # top to bottom
    boxes = [
        (n.x - n.width / 2, n.y - n.height / 2, n.x + n.width / 2, n.y + n.height / 2) for n in graph.nodes.values()
    ]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)


def test_the_svg_has_a_title_a_description_of_every_edge_and_selectable_text():
    svg = drawn(HEAD)
    assert svg.get("role") == "img" and svg.get("aria-labelledby") == "p-a-cpu-g-mmd-t p-a-cpu-g-mmd-d"
    desc = svg.find(f"{SVG}desc").text
    assert desc.count("→") == 3 and "TBackward0 → AccumulateGrad (W (600, 64))" in desc
    assert [t.text for t in svg.iter(f"{SVG}text")][-1] == "AccumulateGrad (W (600, 64))"
    assert len(svg.findall(f"{SVG}line")) == 3 and len(svg.findall(f"{SVG}rect")) == 4


def test_fixed_words_are_in_the_pages_language_and_identifiers_are_not():
    spanish = " ".join(t.text for t in drawn(WALK, "es").iter(f"{SVG}text"))
    assert "kernel matemático" in spanish and "llama a" in spanish and "aten::linear" in spanish
    assert "math kernel" not in spanish and "Diagrama dibujado" in drawn(WALK, "es").find(f"{SVG}title").text


@pytest.mark.parametrize(
    ("source", "line"),
    [
        ("graph TD\n  a --> b\n", 1),
        ("flowchart TB\n  a --> b\n  a ==> b\n", 3),
        ('flowchart TB\n  a["x"] --> <script>\n', 2),
    ],
)
def test_a_diagram_outside_the_subset_is_an_error_naming_its_line(source, line):
    with pytest.raises(SourceError) as caught:
        diagrams.parse(source, "records/p/a.cpu.json: g.mmd")
    assert caught.value.line == line


def test_labels_are_escaped():
    html = diagrams.svg('flowchart TB\n  a["<img src=x onerror=alert(1)>"]\n', "g.mmd", "en", "w", "x")
    assert "<img" not in html and "&lt;img" in html


def test_every_diagram_the_site_records_is_drawn():
    catalog = Catalog(DEFAULT_LAYOUT)
    found = [
        (s.record.snippet, name, body)
        for s in catalog.standings.values()
        if s.record
        for name, body in s.record.artifacts.items()
        if name.endswith(".mmd")
    ]
    assert len(found) >= 4
    for snippet, name, body in found:
        svg = drawn(body)
        assert len(svg.findall(f"{SVG}rect")) == len(re.findall(r'\["|\(\["', body)), (snippet, name)
