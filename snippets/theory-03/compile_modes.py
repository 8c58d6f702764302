# /// snippet
# devices = ["cpu", "cuda"]
# timeout = 300
# deps = ["scripts/minigpt"]
# volatile = ["^    measured ", "^    picked ", "^max-autotune, frozen weights +runs:"]
# ///
import re
import warnings

import torch
import torch._inductor.config as inductor_config
from minigpt import lm_head
from torch._dynamo.utils import counters
from torch._inductor import list_mode_options, select_algorithm
from torch._inductor.utils import run_and_get_code

device = "cuda" if torch.cuda.is_available() else "cpu"
torch.manual_seed(0)
W, b = lm_head(device)
head = torch.nn.Linear(64, 600, device=device).eval()  # the running example, with its trained weights
with torch.no_grad():
    head.weight.copy_(W)
    head.bias.copy_(b)


# --8<-- [start:probs]
def probs(x):
    return head(x).softmax(-1)
# --8<-- [end:probs]


x = torch.randn(2, 64, device=device)

# Every choice the autotuner benchmarks, and the time it measured, as Inductor reports them to a feedback
# function; its own table on stderr is switched off so that this output has a fixed shape.
tuned = []
# --8<-- [start:feedback]
select_algorithm.add_feedback_saver(lambda timings, name, inputs, choices, *rest: tuned.append((name, timings)))
# --8<-- [end:feedback]
select_algorithm.PRINT_AUTOTUNE = False
inductor_config.max_autotune_report_choices_stats = False
warnings.filterwarnings("ignore", message="TypedStorage is deprecated")

STEP = re.compile(r"(extern_kernels\.\w+|torch\.ops\.[\w.]+|\b(?:cpp|triton)_\w+)(?:\.run)?\(")

# --8<-- [start:modes]
for label, mode, frozen in (("default", "default", False), ("reduce-overhead", "reduce-overhead", False),
                            ("max-autotune", "max-autotune", False),
                            ("max-autotune, frozen weights", "max-autotune", True)):
    torch._dynamo.reset()
    counters.clear()
    inductor_config.freezing = frozen  # parameters become constants of the graph
    with torch.no_grad():
        out, (code,) = run_and_get_code(torch.compile(probs, mode=mode), x)
        same = torch.allclose(out, probs(x), atol=1e-6)
    # --8<-- [end:modes]
    call = code[code.index("def call("):]
    inputs = len(re.search(r"^\s*(.*?),? = args$", call, re.MULTILINE).group(1).split(", "))
    steps = [m.group(1) for line in call.splitlines() if (m := STEP.search(line))]
    skips = counters["inductor"]["cudagraph_skips"]
    print(f"{label:<28} sets {list_mode_options(mode)}")
    print(f"{label:<28} runs: {' -> '.join(steps)}")
    print(f"{'':<28} call() inputs: {inputs} | same as eager: {same}"
          + (f" | CUDA graph skipped: {skips}" if "triton.cudagraphs" in list_mode_options(mode) else ""))
    for name, timings in tuned:
        ranked = sorted(timings, key=timings.get)
        print(f"    autotuned {name}: {len(timings)} choices")
        for choice in sorted(timings, key=lambda c: c.name):
            print(f"    choice {choice.name} ({type(getattr(choice, '_wrapped', choice)).__name__})")
        for choice in sorted(timings, key=lambda c: c.name):
            print(f"    measured {choice.name}: {timings[choice] * 1000:.1f} microseconds per call")
        print(f"    picked {ranked[0].name}")
    if not tuned:
        print("    autotuned: nothing")
    tuned.clear()

# The frozen graph with the autotuner given one choice at a time: the code of each, whichever is faster here.
template = ("TRITON", "Triton's GEMM templates") if device == "cuda" else ("CPP", "the C++ GEMM template")
# --8<-- [start:one_choice]
for backends, meaning in (template, ("ATEN", "the library call")):
    torch._dynamo.reset()
    with torch.no_grad(), inductor_config.patch(freezing=True, max_autotune_gemm_backends=backends):
        out, (code,) = run_and_get_code(torch.compile(probs, mode="max-autotune"), x)
        # --8<-- [end:one_choice]
        same = torch.allclose(out, probs(x), atol=1e-6)
    call = code[code.index("def call("):]
    print(f"frozen, {meaning} only (max_autotune_gemm_backends={backends!r}), same as eager: {same}")
    for line in call.splitlines():
        if STEP.search(line):
            print("    " + re.sub(r"^buf\d+ = ", "", line.strip())[:100])
    constants = re.findall(r"global (\w+)\n\s*\1 = rand_strided\(\(([^)]*)\)", code)
    # Packed shapes depend on the kernel's blocking: say only which constants keep b's or W's shape.
    shapes = {"600, ": "b's shape (600,)", "600, 64": "W's shape (600, 64)"}
    print("    constants of the module:",
          ", ".join(f"{name} {shapes.get(shape, 'packed: neither shape')}" for name, shape in constants))
