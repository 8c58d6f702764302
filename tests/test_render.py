"""Rendering records into HTML tabs: structure, provenance, escaping, folding."""

from __future__ import annotations

import re

import pytest
from phase25 import i18n, render
from phase25.records import Freshness, Record


def make_record(device="cpu", stdout="y.shape: (2, 600)\n", stderr="", status="ok", **extra) -> Record:
    provenance = {
        "python": "3.11.7",
        "torch": "2.13.0",
        "device_name": "AMD EPYC",
        "cpu_capability": "AVX2",
        "threads": 2,
    }
    if device == "cuda":
        provenance = {
            "python": "3.12.3",
            "torch": "2.11.0",
            "cuda": "12.8",
            "triton": "3.6.0",
            "device_name": "NVIDIA H200",
            "compute_capability": "sm_90",
        }
    return Record(
        snippet="page/a",
        device=device,
        source_sha256="0" * 64,
        env_key="k",
        status=status,
        exit_code=0,
        stdout=stdout,
        stderr=stderr,
        provenance=provenance,
        run={"date": "2026-11-30", "wall_s": 1.25, "git_commit": "abcdef1234567"},
        **extra,
    )


def tabs(views, lang="en"):
    return render.render_snippet("page/a", "print('hi')\n", views, lang, index=3)


def test_tabs_code_cpu_cuda_with_device_name():
    out = tabs(
        [
            ("cpu", Freshness("current", record=make_record())),
            ("cuda", Freshness("current", record=make_record("cuda"))),
        ]
    )
    assert out.problems == []
    labels = re.findall(r'<label for="__snippet_3_(\d)">([^<]*)</label>', out.html)
    assert labels == [("1", "Code"), ("2", "CPU"), ("3", "CUDA (NVIDIA H200)")]
    assert out.html.count('type="radio"') == 3 and 'checked="checked" id="__snippet_3_1"' in out.html
    assert out.html.count('<div class="tabbed-block">') == 3
    assert '<span class="nb">print</span>' in out.html  # the code tab is highlighted


def test_provenance_lines_say_where_and_with_what():
    cpu = render.provenance_line(make_record(), "en")
    assert cpu == (
        "Ran on CPU · AMD EPYC (AVX2, 2 threads) · torch 2.13.0 · Python 3.11.7 · 2026-11-30 · 1.2 s · commit abcdef1"
    )
    cuda = render.provenance_line(make_record("cuda"), "es")
    assert cuda.startswith("Capturado en NVIDIA H200 (sm_90) · torch 2.11.0 · CUDA 12.8 · Triton 3.6.0 · Python 3.12.3")


@pytest.mark.parametrize(
    ("hostile", "must_not_contain", "must_contain"),
    [
        ("```python\nprint('fence')\n```", "```", "&#96;&#96;&#96;python"),
        ("<script>alert('x')</script>", "<script>", "&lt;script&gt;"),
        ("{{ config.site_name }} {% raw %}", "{{", "&#123;&#123; config.site_name &#125;&#125;"),
        ("</code></pre></div><h1>injected</h1>", "<h1>injected", "&lt;/code&gt;&lt;/pre&gt;"),
    ],
)
def test_output_is_escaped_as_plain_text(hostile, must_not_contain, must_contain):
    out = tabs(
        [
            (
                "cpu",
                Freshness("current", record=make_record(stdout=hostile, stderr=hostile, artifacts={"k.txt": hostile})),
            )
        ]
    )
    assert must_not_contain not in out.html
    assert out.html.count(must_contain) == 3  # stdout, stderr and the artifact


def test_long_output_is_folded_short_output_is_not():
    short = tabs([("cpu", Freshness("current", record=make_record(stdout="x\n" * 10)))]).html
    long = tabs([("cpu", Freshness("current", record=make_record(stdout="x\n" * 150)))]).html
    assert "<details" not in short
    assert '<details class="quote snippet-long"><summary>Output: 150 lines (click to open)</summary>' in long


def test_artifacts_are_folded_and_highlighted():
    record = make_record(artifacts={"output_code.py": "def kernel():\n    pass\n"})
    html = tabs([("cpu", Freshness("current", record=record))]).html
    assert "<summary>File written by the snippet: output_code.py (2 lines)</summary>" in html
    assert '<span class="k">def</span>' in html


def test_expected_error_is_labelled():
    record = make_record(
        stdout="",
        stderr="RuntimeError: mat1 and mat2\n",
        expected_error={"type": "RuntimeError", "message": "mat1 and mat2"},
    )
    html = tabs([("cpu", Freshness("current", record=record))], lang="es").html
    assert "Lanza RuntimeError, como pretende este ejemplo." in html
    assert '<p class="snippet-stream">stderr</p>' in html


def test_missing_cuda_is_an_honest_note_not_a_problem():
    out = tabs([("cpu", Freshness("current", record=make_record())), ("cuda", Freshness("missing", "no record"))])
    assert out.problems == []
    assert "Not captured on a GPU yet" in out.html and "<code>make gpu-records</code>" in out.html
    assert '<label for="__snippet_3_3">CUDA</label>' in out.html


@pytest.mark.parametrize(
    ("device", "fresh", "banner", "problem"),
    [
        ("cuda", Freshness("stale", "the snippet changed", make_record("cuda")), "Stale output", "stale record"),
        ("cpu", Freshness("stale", "the snippet changed", make_record()), "Stale output", "stale record"),
        ("cpu", Freshness("missing", "no record"), "No output recorded", "no record"),
        ("cpu", Freshness("corrupt", "not valid JSON"), "Unreadable record", "cannot be read"),
        (
            "cpu",
            Freshness("current", record=make_record(status="failed", error="raised ValueError: boom")),
            "This run failed",
            "the recorded run failed: raised ValueError: boom",
        ),
        (
            "cpu",
            Freshness("current", record=make_record(status="timeout", error="killed after 5 s")),
            "This run failed",
            "the recorded run timeout",
        ),
    ],
)
def test_bad_records_are_problems_for_a_strict_build(device, fresh, banner, problem):
    out = tabs([(device, fresh)])
    assert banner in out.html
    assert [p.device for p in out.problems] == [device]
    assert problem in out.problems[0].message


def test_every_ui_string_exists_in_both_languages():
    en, es = i18n.STRINGS["en"], i18n.STRINGS["es"]
    assert en.keys() == es.keys()
    assert all(value.strip() for value in [*en.values(), *es.values()])
    for key in en:  # same placeholders, so a translation cannot drop a value
        assert re.findall(r"\{(\w+)\}", en[key]) == re.findall(r"\{(\w+)\}", es[key]), key


def test_mermaid_artifacts_render_as_diagrams_and_stay_escaped():
    record = make_record(artifacts={"path.mmd": 'flowchart LR\n  a["<b>AutogradCPU</b>"] --> b'})
    html = tabs([("cpu", Freshness("current", record=record))]).html
    assert '<pre class="mermaid snippet-diagram"><code>flowchart LR' in html
    assert "&lt;b&gt;AutogradCPU&lt;/b&gt;" in html and "<b>" not in html


def test_published_reports_are_linked_from_the_site_root():
    record = make_record(published={"tlparse/index.html": "<html></html>", "tlparse/a.txt": "x"})
    html = render.render_snippet("page/a", "print(1)\n", [("cpu", Freshness("current", record=record))], "en", 1,
                                 site_root="../../").html
    assert 'href="../../snippet-files/page/a/cpu/tlparse/index.html"' in html
    assert "Published with this output (2 files):" in html


def test_highlighted_blocks_are_kept_on_disk_between_builds(tmp_path, monkeypatch):
    monkeypatch.setattr(render, "HIGHLIGHT_CACHE", tmp_path / "hl")
    render._code_block.cache_clear()
    first = render._code_block("x = 600  # a fresh block\n", None, "language-python")
    [stored] = list((tmp_path / "hl").iterdir())
    stored.write_text(first.replace("600", "601"))  # a second build reads the disk, not Pygments
    render._code_block.cache_clear()
    assert "601" in render._code_block("x = 600  # a fresh block\n", None, "language-python")
    render._code_block.cache_clear()
