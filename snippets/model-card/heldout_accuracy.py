# /// snippet
# devices = ["cpu"]
# timeout = 120
# deps = ["scripts/minigpt"]
# ///
from collections import defaultdict

from minigpt import data, load_model
from minigpt.train import slot_accuracy

model = load_model()
train, heldout = data.split(data.corpus())
print(f"corpus: {len(train) + len(heldout):,} sentences; {len(train):,} for training, {len(heldout):,} held out")
print(f"longest sentence: {max(len(e.tokens) for e in train + heldout)} tokens, <bos> and <eos> included")
print("examples:")
for example in (train[0], heldout[0], train[-1], heldout[-1]):
    print("  " + " ".join(example.tokens[1:-1]))

print(f"\nverb-slot accuracy, training prompts: {slot_accuracy(model, train):.2%}")
print(f"verb-slot accuracy, held-out prompts: {slot_accuracy(model, heldout):.2%}")

groups = defaultdict(list)
for example in heldout:
    groups[(example.lang, example.marker)].append(example)
print("\nheld-out prompts by language and tense marker:")
for (lang, marker), examples in sorted(groups.items()):
    prompts = len({(e.verb, e.pronoun) for e in examples})
    print(f"  {lang}  {marker:<12} {prompts:>4} prompts  {slot_accuracy(model, examples):.2%}")
