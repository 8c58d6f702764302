"""Pages rendered in-process, as the site renders them: structure, provenance, escaping, notes, problems.

Each test writes a page as a Markdown string, renders it against a catalog of
records made for the test, and asserts on the HTML and on the problems a strict
build would refuse. No MkDocs, no subprocess: milliseconds per case.
"""

from __future__ import annotations

import re

import pytest
from phase25.core import environment, records
from phase25.core.catalog import Catalog
from phase25.core.errors import SourceError
from phase25.core.records import Record
from phase25.core.records import omitted_marker as marker
from phase25.core.snippets import discover, source_sha256
from phase25.site.kinds.assemble import render_markdown
from phase25.site.lang import strings
from phase25.site.lang.provenance_text import provenance_line
from phase25.site.page.context import Page
from phase25.site.page.highlight import Highlighter

CPU_PROVENANCE = {
    "python": "3.11.7",
    "torch": "2.13.0",
    "device_name": "AMD EPYC",
    "cpu_capability": "AVX2",
    "threads": 2,
}
CUDA_PROVENANCE = {
    "python": "3.12.3",
    "torch": "2.11.0",
    "cuda": "12.8",
    "triton": "3.6.0",
    "device_name": "NVIDIA H200",
    "compute_capability": "sm_90",
}


@pytest.fixture
def site(toy):
    """A toy project whose snippet page/a declares CPU and CUDA; records are written per test."""
    toy.add("page/a", "print('hi')\n", devices='["cpu", "cuda"]')

    def record(device="cpu", stdout="y.shape: (2, 600)\n", **extra) -> Record:
        snippet = discover(toy.layout)[0]
        fields = {
            "snippet": "page/a",
            "device": device,
            "source_sha256": source_sha256(snippet, toy.layout),
            "env_key": environment.env_key(snippet, device),
            "status": "ok",
            "exit_code": 0,
            "stdout": stdout,
            "stderr": "",
            "provenance": CUDA_PROVENANCE if device == "cuda" else CPU_PROVENANCE,
            "run": {"date": "2026-11-30", "wall_s": 1.25, "git_commit": "abcdef1234567", "mode": "fresh"},
        }
        made = Record(**{**fields, **extra})
        records.save(toy.layout, made)
        return made

    def page(markdown: str, lang: str = "en"):
        view = Page(lang, f"docs/{lang}/page.md", Catalog(toy.layout, "2.13.0"), Highlighter())
        return render_markdown(markdown, view)

    return record, page


def messages(problems) -> list[str]:
    return [p.message for p in problems]


def test_code_first_then_one_output_tab_per_device_cpu_first(site):
    record, page = site
    record()
    record("cuda")
    html, problems = page("# Title\n\n::: snippet page/a\n")
    assert problems == []
    assert html.index('class="snippet-code"') < html.index('class="tabbed-set tabbed-alternate snippet-outputs"')
    assert re.findall(r'<label for="__snippet_1_(\d)">([^<]*)</label>', html) == [("1", "CPU"), ("2", "CUDA")]
    assert 'checked id="__snippet_1_1"' in html and html.count('<div class="tabbed-block">') == 2
    assert '<span class="nb">print</span>' in html  # the code is highlighted, and visible: not in a tab
    assert "Captured on NVIDIA H200 (sm_90) · torch 2.11.0 · CUDA 12.8 · Triton 3.6.0" in html


def test_provenance_lines_say_where_and_with_what_in_each_language(site):
    record, _ = site
    cpu = record()
    assert provenance_line(cpu, "en") == (
        "Ran on CPU · AMD EPYC (AVX2 kernels, 2 threads) · torch 2.13.0 · Python 3.11.7 · 2026-11-30 · 1.2 s · "
        "commit abcdef1"
    )
    assert provenance_line(cpu, "es") == (
        "Ejecutado en CPU · AMD EPYC (kernels AVX2, 2 hilos) · torch 2.13.0 · Python 3.11.7 · 2026-11-30 · 1,2 s "
        "· commit abcdef1"
    )
    one = Record(**{**vars(cpu), "provenance": {**CPU_PROVENANCE, "threads": 1}})
    assert "(kernels AVX2, 1 hilo)" in provenance_line(one, "es") and "(AVX2 kernels, 1 thread)" in provenance_line(
        one, "en"
    )


def test_two_cpus_with_one_model_name_are_told_apart(site):
    """Both machines of a re-recording once read just 'AMD EPYC': the provenance names what decides a path."""
    record, _ = site
    amd = {**CPU_PROVENANCE, "cpu_model": "family 25 model 1", "cpu_flags": ["avx", "avx2", "fma"]}
    intel = {
        **CPU_PROVENANCE,
        "device_name": "Intel(R) Xeon(R) Processor",
        "cpu_model": "family 6 model 143",
        "cpu_flags": ["avx2", "avx512f", "avx512_bf16", "amx_tile", "amx_bf16"],
    }
    lines = [provenance_line(record(provenance=p), "en") for p in (amd, intel)]
    assert "AMD EPYC, family 25 model 1 (AVX2 kernels, the CPU has AVX2, no AVX-512, 2 threads)" in lines[0]
    assert "family 6 model 143 (AVX2 kernels, the CPU has AVX-512 (bf16), AMX, 2 threads)" in lines[1]
    assert "la CPU tiene AVX2, sin AVX-512" in provenance_line(record(provenance=amd), "es")


@pytest.mark.parametrize(
    ("hostile", "must_not_contain", "must_contain"),
    [
        ("```python\nprint('fence')\n```", "```", "&#96;&#96;&#96;python"),
        ("<script>alert('x')</script>", "<script>", "&lt;script&gt;"),
        ("{{ config.site_name }} {% raw %}", "{{", "&#123;&#123; config.site_name &#125;&#125;"),
        ("</code></pre></div><h1>injected</h1>", "<h1>injected", "&lt;/code&gt;&lt;/pre&gt;"),
    ],
)
def test_output_is_escaped_as_plain_text(site, hostile, must_not_contain, must_contain):
    record, page = site
    record(stdout=hostile, stderr=hostile, artifacts={"k.txt": hostile})
    html, _ = page("::: snippet page/a\n")
    assert must_not_contain not in html
    assert html.count(must_contain) == 3  # stdout, stderr and the artifact


def test_long_output_is_folded_and_a_capped_stream_says_what_it_left_out(site):
    record, page = site
    record(stdout="x\n" * 150)
    assert "<summary data-search-exclude>The whole output: 150 lines</summary>" in page("::: snippet page/a\n")[0]
    record(stdout="head\n" + marker(12345, 999999) + "\ntail\n")
    html, _ = page("::: snippet page/a\n", "es")
    assert (
        '<span class="snippet-omitted">Aquí se omiten 12345 líneas: el ejecutor conserva los primeros y los '
        "últimos 32 KiB de cada flujo.</span>"
    ) in html


def test_a_big_artifact_is_a_link_to_a_file_of_its_own(site):
    record, page = site
    record(artifacts={"module.py": "x = 1\n" * 2000})
    html, _ = page("::: snippet page/a\n")
    assert (
        'File written by the snippet: module.py (2000 lines): <a href="snippet-files/page/a/cpu/module.py.txt">'
        "open module.py</a>"
    ) in html and "x = 1" not in html


def test_artifacts_are_folded_and_diagrams_drawn(site):
    record, page = site
    record(artifacts={"output_code.py": "def kernel():\n    pass\n", "path.mmd": 'flowchart LR\n  a["<b>x</b>"] --> b'})
    html, _ = page("::: snippet page/a\n")
    assert "<summary>File written by the snippet: output_code.py (2 lines)</summary>" in html
    assert '<span class="k">def</span>' in html
    assert '<figure class="snippet-diagram"><svg' in html and "&lt;b&gt;x&lt;/b&gt;" in html and "<b>" not in html


def test_expected_error_is_labelled(site):
    record, page = site
    record(
        stdout="",
        stderr="RuntimeError: mat1 and mat2\n",
        expected_error={"type": "RuntimeError", "message": "mat1 and mat2"},
    )
    html, _ = page("::: snippet page/a\n", "es")
    assert "Lanza RuntimeError, tal como se espera en este ejemplo." in html
    assert '<p class="snippet-stream">stderr</p>' in html


def test_a_missing_cuda_record_is_an_honest_note_and_its_pending_text_goes_in_its_tab(site):
    record, page = site
    record()
    html, problems = page(
        "::: snippet page/a\n\n::: pending page/a cuda\n    Once captured, this tab will show "
        "the `CUDA` kernel.\n\nAfter.\n"
    )
    assert problems == []
    cuda_tab = html.split('<div class="tabbed-block">')[2]
    assert "has not been run on a GPU yet" in cuda_tab and "make gpu-records" not in html  # see test_cuda_tabs
    assert "Once captured, this tab will show the <code>CUDA</code> kernel." in cuda_tab
    assert html.count("Once captured") == 1 and "<p>After.</p>" in html


def test_a_note_is_shown_only_with_its_record_and_must_quote_what_the_output_shows(site):
    record, page = site
    record()
    note = "::: snippet page/a\n\n::: note page/a cuda\n    The kernel is `sm90_xmma_gemm`.\n"
    html, problems = page(note)
    assert "sm90_xmma_gemm" not in html
    assert messages(problems) == [
        "snippet page/a (cuda): a note describes an output that is missing; keep it as "
        "'::: pending' until the record is current"
    ]
    record("cuda", stdout="kernel: sm90_xmma_gemm_f32\n")
    html, problems = page(note)
    assert problems == [] and '<div class="device-note"><p>The kernel is <code>sm90_xmma_gemm</code>.</p></div>' in html
    html, problems = page(note.replace("sm90_xmma_gemm", "ampere_sgemm"))
    assert messages(problems) == ["the note on page/a (cuda) quotes `ampere_sgemm`, which its output does not show"]


def test_pending_text_left_after_the_record_landed_is_refused(site):
    record, page = site
    record()
    record("cuda")
    _, problems = page("::: snippet page/a\n::: pending page/a cuda\n    Will show something.\n")
    assert messages(problems) == [
        "snippet page/a (cuda): the record exists now; replace the '::: pending' text "
        "with a '::: note' that says what the output shows"
    ]


def test_a_stale_cuda_record_is_shown_with_a_banner_and_refused(site, toy):
    record, page = site
    record()
    record("cuda")
    toy.add("page/a", "print('edited')\n", devices='["cpu", "cuda"]')
    html, problems = page("::: snippet page/a\n")
    assert html.count("Stale output") == 2
    assert [m.split(":", 1)[0] for m in messages(problems)] == ["snippet page/a (cpu)", "snippet page/a (cuda)"]


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("cause", ["source", "torch"])
def test_a_stale_records_banner_says_why_in_the_pages_language(site, toy, lang, cause):
    record, page = site
    record()
    if cause == "source":
        toy.add("page/a", "print('edited')\n", devices='["cpu", "cuda"]')
    else:
        record(provenance={**CPU_PROVENANCE, "torch": "2.12.0"})
    html, _ = page("::: snippet page/a\n", lang)
    reason = strings.text(lang, "stale_" + cause, recorded="2.12.0", torch="2.13.0")
    assert strings.text(lang, "stale", reason=reason).replace("'", "&#x27;") in html
    assert lang == "en" or not re.search(r"recorded|changed since|this machine has", html)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_execution_report_tells_a_cpu_run_with_no_record_from_a_gpu_run_not_captured_yet(site, lang):
    html, _ = site[1]("::: execution-report\n", lang)
    rows = re.findall(r'<tr class="report-missing">(.*?)</tr>', html)
    cells = {re.findall(r"<td>(.*?)</td>", row)[1]: re.findall(r"<td>(.*?)</td>", row)[2] for row in rows}
    cpu, cuda = strings.text(lang, "device_cpu"), strings.text(lang, "device_cuda")
    assert cells == {cpu: strings.text(lang, "status_no_record"), cuda: strings.text(lang, "status_missing")}


@pytest.mark.parametrize(
    ("state", "banner", "problem"),
    [
        ("missing-cpu", "No output recorded", "snippet page/a (cpu): no record (run `make records`)"),
        ("corrupt", "Unreadable record", "snippet page/a (cpu): record cannot be read"),
        ("failed", "This run failed", "snippet page/a (cpu): the recorded run failed: raised ValueError: boom"),
        ("timeout", "This run failed", "snippet page/a (cpu): the recorded run timeout: killed after 5 s"),
    ],
)
def test_bad_records_are_problems_for_a_strict_build(site, toy, state, banner, problem):
    record, page = site
    if state == "corrupt":
        records.record_path(toy.layout, "page/a", "cpu").parent.mkdir(parents=True, exist_ok=True)
        records.record_path(toy.layout, "page/a", "cpu").write_text("{ not json")
    elif state == "failed":
        record(status="failed", error="raised ValueError: boom")
    elif state == "timeout":
        record(status="timeout", error="killed after 5 s")
    html, problems = page("::: snippet page/a\n")
    assert banner in html
    assert [p.line for p in problems] == [1] and messages(problems)[0].startswith(problem)


@pytest.mark.parametrize(
    ("markdown", "line", "message"),
    [
        ("# T\n\n::: snipet page/a\n", 3, "unknown directive '::: snipet'"),
        ("# T\n::: snippet\n", 2, "'::: snippet' needs: ::: snippet <page>/<name>"),
        ("::: note page/a tpu\n    text\n", 1, "the device must be one of cpu, sm90-codegen, cuda"),
        ("::: note page/a cuda\nnot indented\n", 1, "has no text"),
    ],
)
def test_malformed_directives_name_the_page_and_line(site, markdown, line, message):
    _, page = site
    with pytest.raises(SourceError) as excinfo:
        page(markdown)
    assert excinfo.value.line == line and message in excinfo.value.message


def test_unknown_snippet_and_stray_cell_are_problems_not_silent_defaults(site):
    record, page = site
    record()
    _, problems = page("::: snippet page/nope\n\n::: cell lab-01/x#setup\n")
    assert messages(problems) == [
        "no snippet 'page/nope' (expected snippets/<page>/<name>.py)",
        "'::: cell' belongs in a lab's .lab.md, not on a page",
    ]


def test_a_note_needs_its_snippet_on_the_same_page(site):
    record, page = site
    record()
    _, problems = page("::: pending page/a cuda\n    Will show.\n")
    assert messages(problems) == ["a note on page/a, which this page does not show"]


def test_every_ui_string_exists_in_both_languages_with_the_same_placeholders():
    en, es = strings.STRINGS["en"], strings.STRINGS["es"]
    assert en.keys() == es.keys() and all(value.strip() for value in [*en.values(), *es.values()])
    for key in en:
        assert re.findall(r"\{(\w+)\}", en[key]) == re.findall(r"\{(\w+)\}", es[key]), key
    assert "compilaci" not in " ".join(es.values()), "building the site is «generar», not «compilar»"


def test_published_reports_are_linked_from_the_site_root(site, toy):
    record, _ = site
    record(published={"tlparse/index.html": "<html></html>", "tlparse/a.txt": "x"})
    view = Page("en", "docs/en/x/page.md", Catalog(toy.layout, "2.13.0"), Highlighter(), site_root="../../")
    html, _ = render_markdown("::: snippet page/a\n", view)
    assert 'href="../../snippet-files/page/a/cpu/tlparse/index.html"' in html
    assert "Published with this output (2 files):" in html
    record(published={"timeline.svg": "<svg></svg>"})
    view = Page("en", "docs/en/x/page.md", Catalog(toy.layout, "2.13.0"), Highlighter(), site_root="../../")
    html, _ = render_markdown("::: snippet page/a\n", view)
    assert (
        '<img src="../../snippet-files/page/a/cpu/timeline.svg" alt="Picture drawn by the snippet from what it '
        'measured: timeline.svg"'
    ) in html


def test_highlighted_blocks_are_kept_on_disk_between_builds(tmp_path):
    first = Highlighter(tmp_path / "hl").block("x = 600  # a fresh block\n", None, "language-python")
    [stored] = list((tmp_path / "hl").iterdir())
    # a second build reads the disk, not Pygments (a kept block that shows other code is not used: see
    # tests/test_adversarial_paths.py; one that shows the same code in other colours is)
    stored.write_text(first.replace('class="mi"', 'class="m"'))
    assert 'class="m">600' in Highlighter(tmp_path / "hl").block("x = 600  # a fresh block\n", None, "language-python")


def test_volatile_lines_are_marked_and_said_to_depend_on_the_machine(toy):
    toy.add("page/v", "print(1)\n", extra='volatile = ["^winner: "]')
    toy.run()
    record = records.load(toy.layout, "page/v", "cpu")
    record.stdout = "candidates: 2\nwinner: cpp_gemm 0.1 ms\n"
    records.save(toy.layout, record)
    view = Page("en", "docs/en/page.md", Catalog(toy.layout, "2.13.0"), Highlighter())
    html, problems = render_markdown("::: snippet page/v\n", view)
    assert '<span class="snippet-volatile">winner: cpp_gemm 0.1 ms</span>' in html and "candidates: 2\n" in html
    assert "The marked lines depend on the machine by nature" in html and problems == []
