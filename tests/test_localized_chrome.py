"""What the site's code writes around an output speaks the page's language: the CPU named in the provenance line
and the prompts of a lab's code cells, on the Spanish pages as on the English ones."""

from __future__ import annotations

import pytest
from phase25.site.hosts.workarounds import notebook_prompts
from phase25.site.lang.provenance_text import cpu_model_text


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
