# /// snippet
# devices = ["cpu"]
# timeout = 300
# ranks = 2
# deps = ["scripts/minigpt"]
# ///
import re

import torch
import torch.distributed as dist
import torch.nn.functional as F
from minigpt import encode, load_model
from torch._dynamo.backends.distributed import DDPOptimizer
from torch._dynamo.backends.registry import lookup_backend
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.profiler import profile

PROMPTS = ["walk : yesterday she", "eat : yesterday they", "comer : ayer yo", "vivir : ayer tú"]


def backward_order(prof):
    """The backward as the main thread ran it: each compiled graph's backward node, each all-reduce DDP issued."""
    events = sorted(prof.events(), key=lambda e: e.time_range.start)
    steps = []
    for e in events:
        if e.name == "autograd::engine::evaluate_function: CompiledFunctionBackward":
            steps.append("[graph backward]")
        elif e.name == "c10d::allreduce_":
            steps.append(f"all-reduce {e.structured_input_shapes[0][0][0]}")
    return " ".join(steps)


# --8<-- [start:default]
def ddp_compile(rank):
    idx = torch.cat([encode(p) for p in PROMPTS])[2 * rank : 2 * rank + 2]  # this rank's 2 prompts
    lines = []
    ddp = DDP(load_model().train(), bucket_cap_mb=0.2)
    try:  # what Dynamo does with a DDP module by default (torch._dynamo.config.optimize_ddp)
        torch.compile(ddp, backend="aot_eager")(idx[:, :-1])
    except AssertionError as error:
        lines.append(f"torch.compile(DDP(model, bucket_cap_mb=0.2)): AssertionError: {error}")
    # --8<-- [end:default]
    lines.append(f"DDP's own caps: first bucket {ddp._bucket_config.first_bucket_bytes_cap} bytes, the others "
                 f"{ddp.bucket_bytes_cap}; Dynamo's DDPOptimizer takes {dist._DEFAULT_FIRST_BUCKET_BYTES} "
                 f"for the first")

    # --8<-- [start:split]
    torch._dynamo.config.optimize_ddp = False  # from here on, the graph is split (or not) by the backend given
    for split in (False, True):
        torch._dynamo.reset()
        ddp = DDP(load_model().train(), bucket_cap_mb=0.2)
        graphs = []

        def aot_eager(gm, example_inputs, graphs=graphs, **kwargs):
            graphs.append(gm)
            return lookup_backend("aot_eager")(gm, example_inputs, **kwargs)

        if split:  # the splitter Dynamo uses, given the first-bucket cap DDP itself uses
            splitter = DDPOptimizer(bucket_bytes_cap=ddp.bucket_bytes_cap, backend_compile_fn=aot_eager,
                                    first_bucket_cap=ddp._bucket_config.first_bucket_bytes_cap)
        compiled = torch.compile(ddp, backend=splitter.compile_fn if split else aot_eager)
        # --8<-- [end:split]
        for _step in (1, 2):
            with profile(record_shapes=True) as prof:
                loss = F.cross_entropy(compiled(idx[:, :-1]).flatten(0, 1), idx[:, 1:].flatten())
                loss.backward()
        lines.append(f"=== {'split at bucket boundaries (DDPOptimizer)' if split else 'one graph'}: "
                     f"{len(graphs)} graph{'s' if len(graphs) > 1 else ''} compiled")
        if split:
            for i, bucket in enumerate(splitter.buckets):
                # L_self_modules_blocks_modules_0_modules_ln1_parameters_bias_ -> blocks.0.ln1
                names = [re.sub(r"_parameters_\w+_$", "", p.removeprefix("L_self_modules_")).replace("_modules_", ".")
                         for p in bucket.params]
                lines.append(f"    graph {i}: {bucket.size} bytes of parameters, "
                             f"{', '.join(dict.fromkeys(names))}")
        lines.append(f"    step 2's backward: {backward_order(prof)}")
        same = [None, None]
        dist.all_gather_object(same, [p.grad.sum().item() for p in ddp.parameters()])
        lines.append(f"    both ranks hold the same gradients: {same[0] == same[1]}")
    everyone = [None, None]
    dist.all_gather_object(everyone, lines)
    return lines if rank == 0 else [f"same lines as rank 0: {lines == everyone[0]}"]


dist.init_process_group("gloo")  # RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT: set by the runner, as by torchrun
torch.manual_seed(0)
for line in ddp_compile(dist.get_rank()):
    print(line)
dist.destroy_process_group()
