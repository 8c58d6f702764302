"""What the site's code writes around an output speaks the page's language: the CPU named in the provenance line,
the prompts of a lab's code cells, every string of the site (each language has its own), the tabs, pending texts,
provenance lines and error boxes of a rendered snippet, the atlas's stages, the diagrams' fixed words, the
reproduction kit's README and the theme's words, on the Spanish pages as on the English ones."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from conftest import REPO
from phase25.core.catalog import Catalog
from phase25.core.paths import DEFAULT_LAYOUT
from phase25.site.downloads import reproduce_kit
from phase25.site.hosts.quirks.jupyter import notebook_prompts
from phase25.site.hosts.quirks.material import localized
from phase25.site.kinds import atlas
from phase25.site.kinds.assemble import render_markdown
from phase25.site.kinds.atlas_text import STAGES, summary
from phase25.site.kinds.diagrams import DIAGRAM_WORDS
from phase25.site.lang import strings
from phase25.site.lang.provenance_text import cpu_model_text
from phase25.site.page.context import Page
from phase25.site.page.highlight import Highlighter
from test_atlas import lines, overload


@pytest.mark.parametrize(
    ("recorded", "lang", "shown"),
    [
        ("family 6 model 167", "en", "family 6 model 167"),
        ("family 6 model 167", "es", "familia 6, modelo 167"),
        ("family 25 model 17", "es", "familia 25, modelo 17"),
        ("family ? model ?", "es", "familia ?, modelo ?"),  # what core/machine.py writes when /proc says nothing
        ("Some Vendor CPU", "es", "Some Vendor CPU"),  # another shape is shown as it is, never guessed at
        ("family 6 model 167 <script>", "es", "family 6 model 167 <script>"),  # escaped later, never reshaped
    ],
)
def test_the_cpu_of_a_provenance_line_is_named_in_the_pages_language(recorded, lang, shown):
    assert cpu_model_text(recorded, lang) == shown


def test_a_code_cells_prompt_is_written_as_jupyterlab_writes_it():
    cell = '<div class="jp-InputPrompt jp-InputArea-prompt">In&nbsp;[7]:</div>'
    assert notebook_prompts(cell) == '<div class="jp-InputPrompt jp-InputArea-prompt">[7]:</div>'
    blank = '<div class="jp-InputPrompt jp-InputArea-prompt">In [ ]:</div>'
    assert notebook_prompts(blank) == blank, "only numbered or empty prompts of that exact shape change"
    prose = "<p>In [1]: a reader's own text</p>"
    assert notebook_prompts(prose) == prose, "text outside a prompt is left alone"


@pytest.mark.slow
def test_the_built_spanish_labs_show_no_english_chrome(built_site):
    for lab in ("01-autograd-by-hand", "02-custom-op", "03-inductor-code"):
        html = (built_site / "es" / "labs" / lab / "index.html").read_text(encoding="utf-8")
        assert 'jp-InputArea-prompt">In' not in html and 'jp-InputArea-prompt">[1]:' in html, lab
        assert "family " not in html and "familia " in html, lab


# Words of English that are no Spanish word: one of them in what the site writes on a Spanish page, outside code,
# is English that no Spanish string replaced.
ENGLISH = frozenset(
    "the of and with since run samples that this is are to from on its which when what each here rest began "
    "issued running main unknown snippet report reproduce outputs skip footer copied".split()
)
# Strings that read the same in both languages by design: names, code, a symbol.
SAME = {"device_cpu", "device_cuda", "commit", "stdout", "stderr", "atlas_stage", "rank", "diagram_kernel"}
SAME |= {"report_torch", "drift_kind_none", "drift_diff_link"}
SAME |= {f"atlas_js_stage_{stage}" for stage in ("import torch", "+ torch._dynamo", "+ torch._inductor")}  # code
SAME |= {"picture: bucket {n}", "picture: rank {n}"}  # the glossary keeps «bucket» and «rank»
TRANSLATED = [code for code in strings.LANGUAGES if code != strings.DEFAULT]


class _Visible(HTMLParser):
    """The text a reader sees outside code, and the attributes a screen reader says."""

    def __init__(self) -> None:
        super().__init__()
        self.depth, self.said = 0, []

    def handle_starttag(self, tag, attrs):
        self.depth += tag in ("code", "pre", "script", "style")
        self.said += [value for name, value in attrs if name in ("title", "aria-label", "alt") and value]

    def handle_endtag(self, tag):
        self.depth -= tag in ("code", "pre", "script", "style") and self.depth > 0

    def handle_data(self, data):
        if not self.depth:
            self.said.append(data)


def english(text: str) -> list[str]:
    """The English words of a text, leaving out code (fenced and inline) and a string's {placeholders}."""
    text = re.sub(r"```.*?```", " ", text, flags=re.S)
    text = re.sub(r"`[^`]*`|\{\w+\}|^:::.*$", " ", text, flags=re.M)
    text = re.sub(r"\S*\w[./_-]\w\S*", " ", text)  # a file's or a snippet's name: reproduce-x.zip, a/b
    return [word for word in re.findall(r"[A-Za-z]+", text) if word.lower() in ENGLISH]


def english_in_html(html: str) -> list[str]:
    seen = _Visible()
    seen.feed(html)
    return [f"{word} in {chunk.strip()[:80]!r}" for chunk in seen.said for word in english(chunk)]


@pytest.mark.parametrize("lang", TRANSLATED)
@pytest.mark.parametrize("key", sorted(strings.STRINGS[strings.DEFAULT]))
def test_every_string_the_site_writes_has_an_entry_of_its_own_in_each_language(key, lang):
    said, default = strings.STRINGS[lang].get(key), strings.STRINGS[strings.DEFAULT][key]
    assert said is not None, f"{key}: no {lang} string"
    assert said != default or key in SAME, f"{key}: the {lang} string is the English one"
    assert english(said) == [], f"{key}: English left in the {lang} string"


@pytest.fixture
def chrome(toy):
    """A toy snippet with a CPU record and no CUDA record, a page of each language rendering it."""
    toy.add("page/a", "print('hi')\n", devices='["cpu", "cuda"]', extra='volatile = ["hi"]')
    toy.run()

    def page(markdown: str, lang: str):
        view = Page(lang, f"docs/{lang}/page.md", Catalog(toy.layout, "2.13.0"), Highlighter())
        return render_markdown(markdown, view)

    return page


@pytest.mark.parametrize("lang", TRANSLATED)
def test_what_the_site_writes_around_an_output_and_in_its_error_boxes_is_in_the_pages_language(chrome, lang):
    html, _ = chrome("::: snippet page/a\n", lang)  # code, tabs, pending text, provenance, reproduce line
    assert "snippet-provenance" in html and "snippet-pending" in html
    for markdown in ("::: snippet page/nowhere\n", "::: drift-report torch-0-to-1\n"):  # the error boxes' titles
        html += chrome(markdown, lang)[0]
    assert english_in_html(html) == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_atlas_says_each_registration_stage_in_the_pages_language(lang):
    standing = Catalog(DEFAULT_LAYOUT).standing("atlas/operators", "cpu")
    found = atlas.entries(standing.record)  # a stage the record names that the site cannot say is refused here
    recorded = {e["registered_by"] for items in found.values() for e in items}
    assert recorded <= set(STAGES) and len(recorded) > 1
    said = summary(found, standing.record, lang)
    assert english_in_html(said) == [] and all(strings.text(lang, f"atlas_js_stage_{s}") in said for s in recorded)
    script = (REPO / "docs" / "assets" / "javascripts" / "atlas.js").read_text(encoding="utf-8")
    assert "label(`stage_${entry.registered_by}`)" in script and ", entry.registered_by)" not in script


def test_a_stage_the_site_cannot_say_is_refused_naming_its_line():
    record = type("R", (), {"artifacts": {"atlas/x.jsonl": lines(overload("aten::abs", registered_by="+ a new step"))}})
    with pytest.raises(atlas.Refused, match=r"atlas/x.jsonl, line 1: 'registered_by' cannot be '\+ a new step'"):
        atlas.entries(record())


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_diagrams_fixed_words_and_the_kits_readme_are_in_the_pages_language(lang):
    assert all(english(strings.text(lang, f"diagram_{word}")) == [] for word in DIAGRAM_WORDS if word != "kernel")
    readme = reproduce_kit.readme("theory-01", "2.15.0", "theory-01/a", ["theory-01/a"])
    said = strings.text(
        lang, "reproduce_readme", folder="theory-01", torch="2.15.0", example="theory-01/a", ids="theory-01/a"
    )
    assert said in readme and english(said) == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_themes_words_on_a_translated_page_are_the_sites(lang):
    material = (
        '<a href="#x" class="md-skip">\n  Saltar a contenido\n</a><nav class="md-footer__inner" aria-label="Pie">'
    )
    shown = localized(material, lang)
    assert strings.text(lang, "theme_skip") in shown and f'aria-label="{strings.text(lang, "theme_footer")}"' in shown
