# /// snippet
# devices = ["cpu"]
# timeout = 120
# deps = ["scripts/minigpt"]
# ///
from collections import defaultdict

from minigpt import data, load_model
from minigpt import vocabulary as V
from minigpt.train import slot_accuracy

# --8<-- [start:split]
model = load_model()
train, heldout = data.split(data.corpus())
# --8<-- [end:split]
print(f"corpus: {len(train) + len(heldout):,} sentences; {len(train):,} for training, {len(heldout):,} held out")
print(f"longest sentence: {max(len(e.tokens) for e in train + heldout)} tokens, <bos> and <eos> included")


# --8<-- [start:prompts]
def prompt(e):
    return (e.lang, e.verb, e.marker, e.pronoun)


held_prompts, train_prompts = {prompt(e) for e in heldout}, {prompt(e) for e in train}
seen = {word for e in train for word in e.slot}
print(f"held-out prompts also found in training: {len(held_prompts & train_prompts)}")
print(f"held-out verb-slot words never seen in training: {len({w for e in heldout for w in e.slot} - seen)}")
# --8<-- [end:prompts]

print("\nendings that must agree with the subject, and the subjects they follow:")
for ending in ("together", "juntos", "juntas"):
    pronouns = V.EN_PRONOUNS if ending == "together" else V.ES_PRONOUNS
    allowed = V.en_endings if ending == "together" else V.es_endings
    print(f"  {ending:<9} {', '.join(p for p in pronouns if ending in allowed(p))}")

split = {" ".join(e.tokens[1:-1]): part for part, examples in (("training", train), ("held out", heldout))
         for e in examples}
print("\nsentences quoted on this page:")
for sentence in ("walk : yesterday she walked here", "eat : now they are eating together",
                 "hablar : ayer nosotros hablamos bien", "comer : mañana ellas comerán juntas",
                 "comer : mañana ellas comerán juntos", "comer : mañana ella comerá juntas"):
    print(f"  {sentence:<38} {split.get(sentence, 'not in the corpus')}")

# --8<-- [start:accuracy]
print(f"\nverb-slot accuracy, training prompts: {slot_accuracy(model, train):.2%}")
print(f"verb-slot accuracy, held-out prompts: {slot_accuracy(model, heldout):.2%}")
# --8<-- [end:accuracy]

groups = defaultdict(list)
for example in heldout:
    groups[(example.lang, example.marker)].append(example)
print("\nheld-out prompts by language and tense marker:")
for (lang, marker), examples in sorted(groups.items()):
    prompts = len({(e.verb, e.pronoun) for e in examples})
    print(f"  {lang}  {marker:<12} {prompts:>4} prompts  {slot_accuracy(model, examples):.2%}")
