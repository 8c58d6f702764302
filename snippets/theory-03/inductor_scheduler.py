# /// snippet
# devices = ["cpu"]
# timeout = 300
# deps = ["scripts/minigpt"]
# ///
import logging
import re

import torch
import torch._functorch.config as functorch_config
import torch._inductor.config as inductor_config
import torch.nn.functional as F
from minigpt import lm_head
from torch._inductor.utils import run_and_get_code

torch.manual_seed(0)
W, b = (t.clone().requires_grad_() for t in lm_head())
x = torch.randn(4, 64)
target = torch.tensor([3, 7, 11, 13])


def loss_fn(x, target):
    return F.cross_entropy(F.linear(x, W, b), target)


# --8<-- [start:capture]
# What TORCH_LOGS="fusion" writes (the scheduler's fusion decisions), kept here instead of on stderr.
messages = []
fusion_log = logging.getLogger("torch._inductor.scheduler.__fusion")
fusion_log.addHandler(type("Keep", (logging.Handler,), {"emit": lambda self, r: messages.append(r.getMessage())})())
fusion_log.setLevel(logging.DEBUG)
fusion_log.propagate = False

loss, (forward,) = run_and_get_code(torch.compile(loss_fn), x, target)
forward_messages, messages[:] = messages[:], []
_, (backward,) = run_and_get_code(loss.backward)
# --8<-- [end:capture]

NODE = re.compile(r"^  SchedulerNode\(name='(op\d+)'\), (\w+)\(\['\[(.*?)\]', "
                  r"(?:'(\w+)', )?'origins=OrderedSet\(\[(.*?)\]\)")
EXTERN = re.compile(r"^  (ExternKernelSchedulerNode)\(name='(op\d+)'\)")
def short(name):
    """cpp_fused__log_softmax__log_softmax_backward_data_arange_eq_..._0: long kernel names cut in the middle."""
    return re.sub(r"^(cpp_fused_\w{30})\w+?(_\d+)$", r"\1...\2", name)


KERNEL = re.compile(r"^(cpp_fused\w+) = async_compile.*?'{3}(.*?)'{3}", re.MULTILINE | re.DOTALL)
for name, log, code in (("forward", forward_messages, forward), ("backward", messages, backward)):
    first = log.index("fuse_nodes_once, candidates:")
    print(f"=== {name}: the scheduler's nodes before fusion")
    for line in log[first + 1:]:
        if not line.startswith("  "):
            break
        if m := NODE.match(line):
            op, kind, size, reduction, origins = m.groups()
            what = f"{kind} {reduction} over [{size}]" if reduction else f"{kind} of size [{size}]"
            names = origins.split(", ")
            more = f" and {len(names) - 5} more" if len(names) > 5 else ""
            print(f"    {op:<4} {what:<26} from {', '.join(names[:5])}{more}")
        elif m := EXTERN.match(line):
            print(f"    {m.group(2):<4} {'a library call':<26} ({m.group(1)})")
    print("  decisions:")
    end = log.index(next(m for m in log if m.startswith("===== fusion complete")))
    for line in log[first:end]:
        if line.startswith(("cannot fuse", "fusing", "completed fusion round")):
            print("    " + line.strip())
    done = [line.strip().split(", snodes")[0] for line in log[end + 2:] if line.startswith("  ")]
    print("  after fusion:", "; ".join(re.sub(r"\(name='(\w+)'\).*", r" \1", d) for d in done))
    calls = sorted(set(re.findall(r"extern_kernels[.](\w+)", code)))
    print(f"  the module: library calls {calls}; generated kernels:")
    for kernel, source in KERNEL.findall(code):
        # Each OpenMP region of the kernel (or the whole kernel, if it has none), with its loops in order.
        parts = re.split(r"#pragma omp (for|single)", source)
        regions = list(zip(parts[1::2], parts[2::2], strict=True)) or [("serial", source)]
        params = re.findall(r"\w+\* (\w+)", source[source.index("kernel("):source.index(")")])
        aliases = [f"{a} = {b}" for a, b in re.findall(r"auto (out_ptr\d+) = (in_out_ptr\d+);", source)]
        print(f"    {short(kernel)}({', '.join(params)}){'; ' + ', '.join(aliases) if aliases else ''}")
        for kind, text in regions:
            loops = re.findall(r"for\(int64_t (\w+)=.*?; \1\+=static_cast<int64_t>\((\d+)L\)\)", text)
            print(f"        {kind:<9} {', '.join(f'loop {var} by {step}' for var, step in loops) or 'no loop'}")

# The memory plan: call() as Inductor wrote it, line by line.
for name, code in (("forward", forward), ("backward", backward)):
    body = code[code.index("def call("):code.index("runner = ")].rstrip().splitlines()
    print(f"\n=== {name}: call()")
    for number, line in enumerate(body, start=1):
        shown = re.sub(r"cpp_fused_\w+", lambda m: short(m.group()), line.strip())
        print(f"{number:3d} | {shown}")
    sizes = [eval(shape) for shape in re.findall(r"empty_strided_cpu\((\([^)]*\)), ", "\n".join(body))]
    elements = sum(torch.Size(size).numel() for size in sizes)
    reused = sum("# reuse" in line for line in body)
    print(f"    {len(sizes)} buffers allocated ({elements} elements), {reused} reused in place of a dead one")

# --8<-- [start:donated]
# The backward's "buf1 = addmm" needs AOTAutograd to donate addmm. The same step, compiled again
# without donated buffers (and without the caches, which would hand back the code above):
torch._dynamo.reset()
with functorch_config.patch(donated_buffer=False, enable_autograd_cache=False), \
        inductor_config.patch(fx_graph_cache=False):
    loss, _ = run_and_get_code(torch.compile(loss_fn), x, target)
    _, (backward,) = run_and_get_code(loss.backward)
# --8<-- [end:donated]
body = backward[backward.index("def call("):backward.index("runner = ")].rstrip().splitlines()
print("\n=== backward: call() with donated_buffer=False, its lines on buf1 and addmm")
for number, line in enumerate(body, start=1):
    if re.search(r"\bbuf1 = |\baddmm\b", line) and "assert_size_stride" not in line:
        shown = re.sub(r"cpp_fused_\w+", lambda m: short(m.group()), line.strip())
        print(f"{number:3d} | {shown}")
sizes = [eval(shape) for shape in re.findall(r"empty_strided_cpu\((\([^)]*\)), ", "\n".join(body))]
print(f"    {len(sizes)} buffers allocated ({sum(torch.Size(size).numel() for size in sizes)} elements), "
      f"{sum('# reuse' in line for line in body)} reused in place of a dead one")
