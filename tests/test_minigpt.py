"""The running example's model: vocabulary, agreement, loader, checkpoint and the retraining criterion.

Retraining itself (a minute) is checked once, by re-executing the model card's
``retrain`` snippet in test_records.py.
"""

from __future__ import annotations

import copy
import re

import minigpt
import pytest
import torch
from conftest import REPO
from minigpt import data, retrain
from minigpt import vocabulary as V
from phase25.core.catalog import Catalog
from phase25.core.paths import DEFAULT_LAYOUT
from phase25.site.page import directives, page_source


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


def test_sentence_endings_agree_with_the_subject():
    corpus = data.corpus()
    endings = {(e.lang, e.pronoun): set() for e in corpus}
    for example in corpus:
        endings[(example.lang, example.pronoun)].add(example.ending)
    for pronoun in V.ES_PRONOUNS:
        together = endings[("es", pronoun)] & {"juntos", "juntas"}
        expected = (
            {"juntas"} if pronoun in V.ES_FEMININE_PLURAL else {"juntos"} if pronoun in V.ES_MASCULINE_PLURAL else set()
        )
        assert together == expected, pronoun
    assert {p for p in V.EN_PRONOUNS if "together" in endings[("en", p)]} == {"you", "we", "they"}
    assert "ellas están comiendo juntas" in {" ".join(e.tokens[4:-1]) for e in corpus}


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


def test_checkpoint_is_small_loads_with_weights_only_and_knows_its_vocabulary():
    assert minigpt.CHECKPOINT.stat().st_size < 2 * 1024 * 1024
    checkpoint = torch.load(minigpt.CHECKPOINT, weights_only=True)
    assert checkpoint["vocab"] == V.VOCAB and checkpoint["summary"]["heldout_slot_accuracy"] >= 0.9


@pytest.mark.slow  # trains the model twice: `make test` runs it, `make check` does not
def test_the_retraining_criterion_accepts_small_drift_and_refuses_a_different_model():
    committed = minigpt.load_checkpoint()
    same = retrain.compare(copy.deepcopy(committed), committed)
    assert same.identical and same.reproduces and same.same_predictions == same.prompts
    nudged = copy.deepcopy(committed)
    nudged["state_dict"]["blocks.0.qkv.bias"] += 2.5e-3  # what another CPU once gave, before the pins
    drifted = retrain.compare(nudged, committed)
    assert not drifted.identical and drifted.reproduces
    assert drifted.largest_difference == pytest.approx(2.5e-3, rel=1e-4)
    broken = copy.deepcopy(committed)
    broken["state_dict"]["lm_head.bias"][V.VOCAB.index("walked")] -= 100.0
    assert not retrain.compare(broken, committed).reproduces


def test_the_model_card_figures_come_from_records():
    for lang in ("en", "es"):
        text = (REPO / "docs" / lang / "model-card.md").read_text(encoding="utf-8")
        shown = [d.arg for d in directives.parse(text) if d.kind == "snippet"]
        assert "model-card/heldout_accuracy" in shown and "model-card/model_summary" in shown
        prose = page_source.strip_front_matter(text)
        assert not re.search(r"\d+(?:[.,]\d+)?\s?%", prose), f"{lang}: a percentage typed into the page"
    standing = Catalog.here(DEFAULT_LAYOUT).standing("model-card/heldout_accuracy", "cpu")
    assert standing.state == "current"
    assert re.search(r"verb-slot accuracy, held-out prompts: \d+\.\d\d%", standing.record.stdout)
