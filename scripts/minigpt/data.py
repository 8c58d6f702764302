"""The corpus: one verb named, then used in a short sentence, in English or Spanish.

    walk : yesterday she walked home          hablar : ayer nosotros hablamos bien
    eat : now I am eating slowly              comer : ahora ellas están comiendo juntas

The first word names the verb, the marker sets the tense and the pronoun the
person, so the verb slot (the one or two tokens after the pronoun) has exactly
one right answer: predicting it is conjugating.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from . import vocabulary as V


@dataclass(frozen=True)
class Example:
    lang: str
    verb: str  # base form or infinitive
    marker: str
    pronoun: str
    slot: tuple[str, ...]  # the verb form(s) after the pronoun
    ending: str

    @property
    def prefix(self) -> list[str]:
        """The tokens a model sees before the verb slot."""
        return ["<bos>", self.verb, ":", self.marker, self.pronoun]

    @property
    def tokens(self) -> list[str]:
        return [*self.prefix, *self.slot, self.ending, "<eos>"]


def en_slot(forms: tuple[str, str, str, str], tense: str, pronoun: str) -> tuple[str, ...]:
    base, third, past, ing = forms
    if tense == "present":
        return (third if pronoun in ("he", "she", "it") else base,)
    if tense == "past":
        return (past,)
    if tense == "future":
        return ("will", base)
    return ("am" if pronoun == "I" else "is" if pronoun in ("he", "she", "it") else "are", ing)


def es_slot(infinitive: str, tense: str, pronoun: str) -> tuple[str, ...]:
    forms = V.es_forms(infinitive)
    person = V.ES_PERSON[pronoun]
    if tense == "progressive":
        return (V.ES_ESTAR[person], forms["gerund"])
    return (forms[tense][person],)


def corpus() -> list[Example]:
    """Every (verb, marker, pronoun, ending) combination of both languages that agrees, in a fixed order."""
    examples = []
    for forms in V.EN_VERBS:
        for marker, tense in V.EN_MARKERS.items():
            for pronoun in V.EN_PRONOUNS:
                slot = en_slot(forms, tense, pronoun)
                examples += [Example("en", forms[0], marker, pronoun, slot, e) for e in V.en_endings(pronoun)]
    for verb in V.ES_VERBS:
        for marker, tense in V.ES_MARKERS.items():
            for pronoun in V.ES_PRONOUNS:
                slot = es_slot(verb, tense, pronoun)
                examples += [Example("es", verb, marker, pronoun, slot, e) for e in V.es_endings(pronoun)]
    return examples


def split(examples: list[Example], held_out: float = 0.15, seed: int = 0) -> tuple[list[Example], list[Example]]:
    """Hold out whole (verb, marker, pronoun) prompts, never single sentences.

    A held-out prompt is kept out only if each of its verb-slot words occurs in
    training under another pronoun, so the test asks "can you conjugate for a
    subject you never saw with this verb and tense?", not "guess an unseen word".
    """
    prompts = sorted({(e.lang, e.verb, e.marker, e.pronoun) for e in examples})
    rng = random.Random(seed)
    candidates = {p for p in prompts if rng.random() < held_out}
    slots = {(e.lang, e.verb, e.marker, e.pronoun): e.slot for e in examples}
    seen = {word for p in prompts if p not in candidates for word in slots[p]}
    test_prompts = {p for p in candidates if all(word in seen for word in slots[p])}
    train = [e for e in examples if (e.lang, e.verb, e.marker, e.pronoun) not in test_prompts]
    test = [e for e in examples if (e.lang, e.verb, e.marker, e.pronoun) in test_prompts]
    return train, test
