# /// snippet
# devices = ["cpu"]
# timeout = 600
# cells = true
# deps = ["scripts/minigpt"]
# ///
# %% setup
import re

import torch
import torch._inductor.config as inductor_config
from minigpt import encode, load_model, vocab
from torch._inductor.compile_fx import compile_fx
from torch._inductor.utils import run_and_get_code

model = load_model()
words = vocab()
with torch.no_grad():
    h = torch.cat([model.blocks[1](model.blocks[0](model.tok(encode(p)) + model.pos(torch.arange(5))))[:, -1]
                   for p in ("walk : yesterday she", "comer : ayer yo")])


def tail(h):
    """The small model of this lab: final norm, the LM head, softmax."""
    return model.lm_head(model.ln_f(h)).softmax(-1)


print("h", tuple(h.shape), "->", [words[i] for i in tail(h).argmax(-1).tolist()])

# %% dump
torch._dynamo.reset()
with torch.no_grad():
    _, (code,) = run_and_get_code(torch.compile(tail), h)
call = code[code.index("def call("):]
print(f"Inductor's module: {len(code.splitlines())} lines. What call() runs, in order:")
for line in call.splitlines():
    if re.search(r"cpp_fused\w+\(|extern_kernels\.\w+\(", line):
        print("   ", line.strip()[:100])

# %% fx
graphs = []


def record_then_inductor(gm, example_inputs):
    graphs.append(gm)
    return compile_fx(gm, example_inputs)


torch._dynamo.reset()
with torch.no_grad():
    torch.compile(tail, backend=record_then_inductor)(h)
print("Dynamo's FX graph:")
for node in graphs[0].graph.nodes:
    print(f"    {node.op:<14} {node.name:<12} {getattr(node.target, '__name__', node.target)}")

# %% map
# Each FX node remembers the torch function or module it was traced from (meta["source_fn_stack"]).
source = {n.name: n.meta["source_fn_stack"][-1][1] for n in graphs[0].graph.nodes if "source_fn_stack" in n.meta}
source = {name: getattr(fn, "__name__", fn) for name, fn in source.items()}
print("FX node -> the torch function or module it came from:", source)

# Name each generated kernel after those sources instead of the aten ops, then look the names up.
torch._dynamo.reset()
with inductor_config.patch({"cpp.descriptive_names": "torch"}), torch.no_grad():
    _, (named,) = run_and_get_code(torch.compile(tail), h)
for kernel in re.findall(r"^(cpp_fused\w+) = ", named, re.MULTILINE):
    part = kernel.removeprefix("cpp_fused_").rsplit("_", 1)[0]
    nodes = [name for name, fn in source.items() if re.search(rf"(^|_){re.escape(fn)}(_|$)", part)]
    print(f"kernel {kernel:<24} named after {part!r:<12} <- FX nodes {nodes}")
for comment in re.findall(r"# Topologically Sorted Source Nodes: (.*)", named):
    print("library call <- FX nodes", comment)

# %% fusion
def tail_tempered(h):
    return model.lm_head(model.ln_f(h)).softmax(-1) * 2  # one more pointwise op after softmax


torch._dynamo.reset()
with torch.no_grad():
    _, (fused,) = run_and_get_code(torch.compile(tail_tempered), h)
print("kernels before:", re.findall(r"^(cpp_fused\w+) = ", code, re.MULTILINE))
print("kernels after: ", re.findall(r"^(cpp_fused\w+) = ", fused, re.MULTILINE))

# %% graph_break
def tail_with_break(h):
    z = model.ln_f(h)
    torch._dynamo.graph_break()  # e.g. a print, a .item(), an unsupported library call
    return model.lm_head(z).softmax(-1)


torch._dynamo.reset()
with torch.no_grad():
    _, modules = run_and_get_code(torch.compile(tail_with_break), h)
print(f"{len(modules)} compiled modules instead of 1:")
for i, module in enumerate(modules):
    found = re.findall(r"^(cpp_fused\w+) = ", module, re.MULTILINE) + re.findall(r"extern_kernels\.(\w+)\(", module)
    print(f"    module {i}: {found}")

# %% plan
# call() is also the memory plan: each buffer allocated before its first writer, reused once dead, dropped by del.
print("call()'s allocations, reuses and frees, in order, with the steps between them:")
for raw in call.splitlines():
    line = raw.strip()
    if line.startswith(("buf", "del ")) or re.search(r"cpp_fused\w+\(|extern_kernels\.\w+\(", line):
        print("   ", line[:100])
