# /// snippet
# devices = ["cpu"]
# timeout = 600
# deps = ["scripts/minigpt"]
# volatile = ["^identical to the committed weights, bit for bit:"]
# ///
from minigpt import load_checkpoint
from minigpt.retrain import TOLERANCE, retrain
from minigpt.train import Recipe

# --8<-- [start:retrain]
# Train from scratch with the committed recipe (one thread, seed 0), then compare
# the result with the committed checkpoint. Exit status 1 unless it reproduces it.
fresh, result = retrain(log=lambda line: None)
recipe, summary, committed = Recipe(), fresh["summary"], load_checkpoint()["summary"]
# --8<-- [end:retrain]
print(f"retrained from scratch: {recipe.epochs} epochs over {summary['train_sentences']:,} sentences, "
      f"one thread, seed {recipe.seed}")
print(f"final training loss: {summary['final_train_loss']:.2f}")
print(f"verb-slot accuracy: training {summary['train_slot_accuracy']:.2%}, held out "
      f"{summary['heldout_slot_accuracy']:.2%} (committed model: {committed['train_slot_accuracy']:.2%}, "
      f"{committed['heldout_slot_accuracy']:.2%})")
print(f"identical to the committed weights, bit for bit: {result.identical}")
print("where the bits differ, the same model means (minigpt/retrain.py):")
print(f"  the same greedy prediction for every held-out prompt: {result.same_predictions} of {result.prompts}")
print(f"  the same verb-slot accuracies: {result.same_summary}")
print(f"  every weight within {TOLERANCE:g} of the committed one: {result.largest_difference <= TOLERANCE}")
# --8<-- [start:verdict]
print(f"reproduces the committed model: {result.reproduces}")
raise SystemExit(0 if result.reproduces else 1)
# --8<-- [end:verdict]
