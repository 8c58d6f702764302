"""The running example's model: vocabulary, loader, checkpoint, reproducible training."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
import torch
from conftest import REPO
from phase25 import pages, records
from phase25.paths import DEFAULT_LAYOUT

sys.path.insert(0, str(REPO / "scripts"))
import minigpt
from minigpt import data
from minigpt import vocabulary as V


def test_vocabulary_has_exactly_600_distinct_words():
    assert len(V.VOCAB) == 600 == len(set(V.VOCAB))
    assert V.VOCAB[:4] == ["<pad>", "<bos>", "<eos>", ":"]


def test_vocabulary_refuses_a_collision(monkeypatch):
    monkeypatch.setattr(V, "EN_VERBS", [*V.EN_VERBS, ("come", "comes", "came", "coming")])
    with pytest.raises(ValueError, match=r"shared by two words.*'come'"):
        V.build()


def test_spanish_forms_follow_the_regular_rules():
    assert V.es_forms("hablar")["past"] == ["hablé", "hablaste", "habló", "hablamos", "hablasteis", "hablaron"]
    assert V.es_forms("comer")["future"][5] == "comerán" and V.es_forms("vivir")["gerund"] == "viviendo"
    assert V.es_forms("vivir")["present"][4] == "vivís"


def test_every_corpus_word_is_in_the_vocabulary_and_fits_the_context():
    words = set(V.VOCAB)
    corpus = data.corpus()
    assert all(set(e.tokens) <= words for e in corpus)
    assert max(len(e.tokens) for e in corpus) <= minigpt.load_checkpoint()["config"]["context"] <= 32


def test_held_out_prompts_never_appear_in_training():
    train, test = data.split(data.corpus())
    key = lambda e: (e.lang, e.verb, e.marker, e.pronoun)  # noqa: E731
    assert test and not {key(e) for e in train} & {key(e) for e in test}
    seen = {w for e in train for w in e.slot}
    assert all(w in seen for e in test for w in e.slot)


def test_loader_gives_the_head_with_the_right_shapes_and_dtypes():
    W, b = minigpt.lm_head()
    assert W.shape == (600, 64) and b.shape == (600,) and W.dtype == b.dtype == torch.float32
    model = minigpt.load_model()
    assert isinstance(model.lm_head, torch.nn.Linear) and not model.training
    assert torch.equal(model.lm_head.weight, W) and torch.equal(model.lm_head.bias, b)
    assert model(minigpt.encode("walk : yesterday she")).shape == (1, 5, 600)
    with pytest.raises(KeyError, match="not in the 600-word vocabulary"):
        minigpt.encode("walk : yesterday Bob")


def test_checkpoint_is_small_and_loads_with_weights_only():
    assert minigpt.CHECKPOINT.stat().st_size < 2 * 1024 * 1024
    checkpoint = torch.load(minigpt.CHECKPOINT, weights_only=True)
    assert checkpoint["vocab"] == V.VOCAB and checkpoint["summary"]["heldout_slot_accuracy"] >= 0.9


@pytest.mark.slow
def test_retraining_with_the_same_seed_reproduces_the_committed_weights_bit_for_bit():
    # A subprocess with the same pins as the runner's CPU runs (AVX2 kernels):
    # bit-for-bit holds for them, not for AVX-512 (see docs/en/model-card.md).
    from phase25.records import CPU_ENV, ISA_PINS

    env = {**os.environ, **{name: CPU_ENV[name] for name in ISA_PINS}}
    result = subprocess.run([sys.executable, str(REPO / "scripts/train_minigpt.py"), "--check"], env=env,
                            capture_output=True, text=True, timeout=900, check=False)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert result.stdout.rstrip().endswith("identical to the committed checkpoint")


def test_the_model_card_figures_come_from_records():
    for lang in ("en", "es"):
        text = (REPO / "docs" / lang / "model-card.md").read_text(encoding="utf-8")
        shown = [d.arg for d in pages.directives(text) if d.kind == "snippet"]
        assert "model-card/heldout_accuracy" in shown and "model-card/model_summary" in shown
        prose = pages.strip_front_matter(text)
        assert not re.search(r"\d+(?:[.,]\d+)?\s?%", prose), f"{lang}: a percentage typed into the page"
    snippet = next(s for s in records.discover(DEFAULT_LAYOUT) if s.id == "model-card/heldout_accuracy")
    fresh = records.freshness(DEFAULT_LAYOUT, snippet, "cpu")
    assert fresh.state == "current"
    assert re.search(r"verb-slot accuracy, held-out prompts: \d+\.\d\d%", fresh.record.stdout)
