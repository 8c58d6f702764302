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

# %% triton
# On a GPU, Inductor's kernels are Triton kernels, compiled by triton.compile; it compiles for an H200 here.
import os
import subprocess
import tempfile

os.environ["TRITON_DEFAULT_FP_FUSION"] = "1"  # triton 3.9's default, said aloud (3.10 turns it off)
import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.backends.nvidia import compiler as nvidia
from triton.compiler import ASTSource


@triton.jit
def softmax_rows(x_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):
    """One program per row of scores: the softmax of section 1, written by hand."""
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=float("-inf"))
    e = tl.exp(x - tl.max(x, 0))
    tl.store(y_ptr + row * n_cols + cols, e / tl.sum(e, 0), mask=cols < n_cols)


def for_h200(BLOCK, num_warps):
    """Compile for compute capability 9.0: no GPU is needed to compile, only to run."""
    signature = {"x_ptr": "*fp32", "y_ptr": "*fp32", "n_cols": "i32", "BLOCK": "constexpr"}
    source = ASTSource(fn=softmax_rows, signature=signature, constexprs={"BLOCK": BLOCK})
    return triton.compile(source, target=GPUTarget("cuda", 90, 32), options={"num_warps": num_warps})


def usage(kernel):
    """Registers per thread and shared memory, read from the cubin by the cuobjdump the triton wheel ships."""
    tool = os.path.join(os.path.dirname(nvidia.__file__), "bin", "cuobjdump")
    with tempfile.NamedTemporaryFile(suffix=".cubin") as cubin:
        cubin.write(kernel.asm["cubin"])
        cubin.flush()
        said = subprocess.run([tool, "-res-usage", cubin.name], capture_output=True, text=True, check=True).stdout
    return re.search(r"REG:(\d+) STACK:\d+ SHARED:(\d+)", said).groups()


# Exercise: add rows to this table (another BLOCK, num_warps from 1 to 16) and read what each changes.
# Shared memory twice: what the kernel asks for at launch (Triton's metadata), what cuobjdump reads in the cubin.
print("BLOCK | num_warps | threads (PTX .reqntid) | registers per thread | shared bytes: launch | cubin")
for BLOCK, num_warps in ((1024, 1), (1024, 4), (1024, 8), (2048, 4)):
    kernel = for_h200(BLOCK, num_warps)
    threads = re.search(r"\.reqntid (\d+)", kernel.asm["ptx"]).group(1)
    registers, shared = usage(kernel)
    print(f"{BLOCK:>5} | {num_warps:>9} | {threads:>22} | {registers:>20} | {kernel.metadata.shared:>20} | {shared:>5}")
