# /// snippet
# devices = ["cpu"]
# timeout = 120
# ///
"""Exercise: the head runs addmm, not mm; DTensor's rule for it, with the head's bias of 600 values."""

import torch
from torch.distributed.tensor import DTensor
from torch.distributed.tensor._dtensor_spec import TensorMeta

propagator = DTensor._op_dispatcher.sharding_propagator
addmm, mm = torch.ops.aten.addmm.default, torch.ops.aten.mm.default
# --8<-- [start:solution]
bias = TensorMeta(torch.Size([600]), (1,), torch.float32)  # b; addmm(b, x, W.T) as F.linear calls it
rule = propagator.op_single_dim_strategy_funcs[addmm].func
print(f"addmm's rule {rule.__name__}, one line per strategy: output, self (the bias), mat1, mat2")
with_bias = [list(map(str, s)) for s in rule(addmm, (bias,), {})]
for strategy in with_bias:
    print("    " + ", ".join(strategy))
without = [list(map(str, s)) for s in propagator.op_single_dim_strategy_funcs[mm].func(mm, (), {})]
print(f"strategies: mm {len(without)}, addmm {len(with_bias)}; "
      f"addmm's, without the bias column, are mm's: {[[s[0], *s[2:]] for s in with_bias] == without}")
# --8<-- [end:solution]
