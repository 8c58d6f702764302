# /// snippet
# devices = ["cpu"]
# timeout = 600
# deps = ["scripts/minigpt", "scripts/train_minigpt.py"]
# ///
import train_minigpt

# Train from scratch with the committed recipe (one thread, seed 0), then compare
# every tensor with the committed checkpoint. Exit status 1 if any differs.
status = train_minigpt.main(["--check"])
raise SystemExit(status)
