# /// snippet
# devices = ["cpu"]
# timeout = 180
# env = { TRITON_DEFAULT_FP_FUSION = "1", TRITON_DISABLE_LINE_INFO = "1" }
# ///
import os
import re
import subprocess
import tempfile

import torch
import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.backends.nvidia import compiler as nvidia
from triton.compiler import ASTSource

H200 = GPUTarget("cuda", 90, 32)  # compute capability 9.0, 32 threads per warp: no GPU needed to compile for it
TOOLS = os.path.join(os.path.dirname(nvidia.__file__), "bin")  # ptxas and cuobjdump, shipped in the triton wheel


# --8<-- [start:kernel]
@triton.jit
def add_bias_and_scale(y_ptr, b_ptr, n_cols, inv_T, BLOCK: tl.constexpr):
    """The kernel of the triton_op above: one program per row, in place, y = (y + b) / T."""
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    y = tl.load(y_ptr + row * n_cols + cols, mask=mask)
    bias = tl.load(b_ptr + cols, mask=mask)
    tl.store(y_ptr + row * n_cols + cols, (y + bias) * inv_T, mask=mask)
# --8<-- [end:kernel]


def compile_for_h200(num_warps, divisible_by_16=()):
    """Compile for sm_90; ``divisible_by_16`` names the arguments the compiler may assume are multiples of 16."""
    signature = {"y_ptr": "*fp32", "b_ptr": "*fp32", "n_cols": "i32", "inv_T": "fp32", "BLOCK": "constexpr"}
    # --8<-- [start:compile]
    hints = {(list(signature).index(name),): [["tt.divisibility", 16]] for name in divisible_by_16}
    source = ASTSource(fn=add_bias_and_scale, signature=signature, constexprs={"BLOCK": 1024}, attrs=hints)
    return triton.compile(source, target=H200, options={"num_warps": num_warps})
# --8<-- [end:compile]


def cuobjdump(cubin, flag):
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "kernel.cubin")
        with open(path, "wb") as handle:
            handle.write(cubin)
        return subprocess.run([os.path.join(TOOLS, "cuobjdump"), flag, path], capture_output=True, text=True,
                              check=True).stdout


def sass_summary(kernel):
    """Registers, and the global loads and stores the SASS makes, by width."""
    usage = re.search(r"REG:(\d+) STACK:(\d+) SHARED:(\d+)", cuobjdump(kernel.asm["cubin"], "-res-usage"))
    sass = [line.split(";")[0].split("*/")[-1].strip() for line in cuobjdump(kernel.asm["cubin"], "-sass").splitlines()
            if re.match(r"\s*/\*[0-9a-f]{4}\*/", line)]
    ops = [re.sub(r"^@!?U?P\w+\s+", "", line).split()[0] for line in sass]  # without the predicate (@P0, @!P1)
    memory = [op for op in ops if op.startswith(("LDG", "STG"))]
    return usage.groups(), len(sass), sorted(set(memory)), len(memory)


def ptx_moves(kernel):
    """Each global load and store of the PTX, by instruction (ld.global.b32: one 32-bit value; .v4: four)."""
    found = re.findall(r"\b(?:ld|st)\.global[.\w]*", kernel.asm["ptx"])
    return {op: found.count(op) for op in sorted(set(found))}


def body(ir):
    """The function's lines (TRITON_DISABLE_LINE_INFO keeps source paths out of every stage, the cubin included)."""
    lines = [re.sub(r" loc\(#loc\d*\)$", "", line) for line in ir.splitlines()]
    start = next(i for i, line in enumerate(lines) if "tt.func" in line)
    return lines[start + 1 : next(i for i, line in enumerate(lines) if "tt.return" in line)]


kernel = compile_for_h200(num_warps=4)
print(f"torch {torch.__version__}, triton {triton.__version__}; no GPU here: torch.cuda.is_available() is "
      f"{torch.cuda.is_available()}; target {H200}")
print("stages:", ", ".join(f"{name} ({len(kernel.asm[name].splitlines())} lines)" for name in ("ttir", "ttgir", "llir",
      "ptx")) + f", cubin ({len(kernel.asm['cubin'])} bytes)")
print("\n-- TTIR: Triton's own operations on whole blocks of 1024 values, no layout, no target")
print("\n".join(body(kernel.asm["ttir"])))
print("\n-- TTGIR: the same operations, each tensor now carries a layout; the module names the target")
ttgir = kernel.asm["ttgir"].splitlines()
print(next(line for line in ttgir if line.startswith("#blocked")))
print(re.sub(r" \{$", "", next(line for line in ttgir if line.startswith("module attributes"))))
print(next(re.sub(r" loc\(#loc\d*\)$", "", line).strip() for line in ttgir if "tt.load" in line))
print("\n-- PTX: the target and the block size as the GPU's assembler sees them")
ptx = kernel.asm["ptx"].splitlines()
print("\n".join(line.strip() for line in ptx if line.startswith((".version", ".target", ".address_size"))
                or ".reqntid" in line))
print("global loads and stores:", ptx_moves(kernel))
(regs, stack, shared), count, memory, moves = sass_summary(kernel)
print(f"\n-- SASS (sm_90a, read back with cuobjdump): {count} instructions, {regs} registers per thread, "
      f"{shared} bytes of shared memory; memory instructions {memory} x {moves}")

print("\n-- num_warps changes the layout, the PTX's thread count and the SASS:")
print("num_warps | warpsPerCTA (TTGIR) | .reqntid (PTX) | registers | SASS instructions | global loads+stores")
for warps in (1, 2, 4, 8):
    variant = compile_for_h200(num_warps=warps)
    layout = re.search(r"warpsPerCTA = \[(\d+)\]", variant.asm["ttgir"]).group(1)
    threads = re.search(r"\.reqntid (\d+)", variant.asm["ptx"]).group(1)
    (regs, _, _), count, memory, moves = sass_summary(variant)
    print(f"{warps:>9} | {layout:>19} | {threads:>14} | {regs:>9} | {count:>17} | {moves} ({', '.join(memory)})")

print("\n-- what the compiler may assume about the arguments decides the width of each load and store (num_warps=4):")
print("assumed multiple of 16   | PTX loads and stores                           | SASS memory instructions")
for assumed in ((), ("y_ptr", "b_ptr"), ("y_ptr", "b_ptr", "n_cols")):
    variant = compile_for_h200(num_warps=4, divisible_by_16=assumed)
    ptx_ops = ", ".join(f"{op} x {n}" for op, n in ptx_moves(variant).items())
    _, count, memory, total = sass_summary(variant)
    print(f"{', '.join(assumed) or 'nothing':<24} | {ptx_ops:<46} | {total} ({', '.join(memory)}) of {count}")
print("the running example's rows have n_cols = 600; 600 % 16 =", 600 % 16)
