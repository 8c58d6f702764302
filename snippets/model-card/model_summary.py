# /// snippet
# devices = ["cpu"]
# timeout = 60
# deps = ["scripts/minigpt"]
# ///
import os

from minigpt import CHECKPOINT, load_checkpoint, load_model
from minigpt import vocabulary as V

# --8<-- [start:head]
checkpoint = load_checkpoint()
model = load_model()
head = model.lm_head

print("LM head:", head)
print("  weight", tuple(head.weight.shape), head.weight.dtype, "| bias", tuple(head.bias.shape), head.bias.dtype)
# --8<-- [end:head]
print("config:", checkpoint["config"])
print(f"checkpoint: {os.path.getsize(CHECKPOINT) / 1024:.0f} KiB, trained with torch {checkpoint['torch']}")

# --8<-- [start:parameters]
parts = {"token + position embeddings": ("tok.", "pos."), "transformer blocks": ("blocks.",),
         "final layer norm": ("ln_f.",), "LM head": ("lm_head.",)}
total = sum(p.numel() for p in model.parameters())
print(f"\nparameters: {total:,}")
for label, prefixes in parts.items():
    count = sum(p.numel() for n, p in model.named_parameters() if n.startswith(prefixes))
    print(f"  {label:<28} {count:>7,}  ({count / total:.0%})")
# --8<-- [end:parameters]

words = V.VOCAB
en_forms = {w for forms in V.EN_VERBS for w in forms}
es_forms = set(words[words.index(V.ES_VERBS[0]):])
print(f"\nvocabulary: {len(words)} words, {len(set(words))} distinct")
print(f"  English verb forms   {len(en_forms):>3}  ({len(V.EN_VERBS)} verbs x base, -s, past, -ing)")
irregular = [past for _, _, past, _ in V.EN_VERBS if not past.endswith("ed")]
print(f"    pasts without -ed: {len(irregular)}, e.g. {', '.join(irregular[:6])}")
print(f"  Spanish verb forms   {len(es_forms):>3}  ({len(V.ES_VERBS)} verbs: infinitive, present, preterite,"
      " future, gerund)")
per_verb, shared = set(), []
for verb in V.ES_VERBS:
    forms = V.es_forms(verb)
    per_verb.add(len({verb, *forms["present"], *forms["past"], *forms["future"], forms["gerund"]}))
    shared += sorted(set(forms["present"]) & set(forms["past"]))
print(f"    forms per verb: {' or '.join(map(str, sorted(per_verb)))}; one form is both present and preterite in "
      f"{len(shared)} verbs: {', '.join(shared[:2])}, ..., {shared[-1]}")
print(f"  pronouns             {len(V.EN_PRONOUNS) + len(V.ES_PRONOUNS):>3}  {V.EN_PRONOUNS + V.ES_PRONOUNS}")
print(f"  auxiliaries          {len(V.EN_AUX) + len(V.ES_ESTAR):>3}  {V.EN_AUX + V.ES_ESTAR}")
print(f"  tense markers        {len(V.EN_MARKERS) + len(V.ES_MARKERS):>3}  {list(V.EN_MARKERS) + list(V.ES_MARKERS)}")
print(f"  sentence endings     {len(V.EN_ENDINGS) + len(V.ES_ENDINGS):>3}")
print(f"  special tokens       {len(V.SPECIALS):>3}  {V.SPECIALS}")
print("rows 0-9 of W:", words[:10])
print("last 5 rows:  ", words[-5:])
