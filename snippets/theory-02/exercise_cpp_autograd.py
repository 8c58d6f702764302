# /// snippet
# devices = ["cpu"]
# timeout = 300
# deps = ["scripts/minigpt"]
# ///
"""Exercise: the C++ operator's missing Autograd entry, registered from Python; does opcheck pass, and gradcheck?"""

import tempfile
import textwrap

import torch
from minigpt import lm_head
from torch.utils.cpp_extension import load_inline

SOURCE = r"""
#include <ATen/core/Tensor.h>
#include <ATen/ops/addmm.h>
#include <torch/library.h>

// (x W^T + b) / T on the CPU: one addmm that scales both terms by 1/T
at::Tensor tempered_head_cpu(const at::Tensor& x, const at::Tensor& W, const at::Tensor& b, double T) {
  TORCH_CHECK(x.device().is_cpu(), "x must be a CPU tensor");
  return at::addmm(b, x, W.t(), 1.0 / T, 1.0 / T);
}

TORCH_LIBRARY(phase25cpp, m) {  // the schema: the operator exists
  m.def("tempered_head(Tensor x, Tensor W, Tensor b, float T) -> Tensor");
}

TORCH_LIBRARY_IMPL(phase25cpp, CPU, m) {  // one kernel, under the CPU key
  m.impl("tempered_head", &tempered_head_cpu);
}
"""
# g++ compiles it into a shared library; loading the library runs the two blocks above
load_inline("phase25cpp", cpp_sources=SOURCE, is_python_module=False, no_implicit_headers=True,
            build_directory=tempfile.mkdtemp(), verbose=False)
op = torch.ops.phase25cpp.tempered_head.default




def table():
    """The keys that have a kernel for the operator."""
    return [k for k in ("CompositeExplicitAutograd", "CPU", "CUDA", "Meta", "Autograd")
            if torch._C._dispatch_has_kernel_for_dispatch_key("phase25cpp::tempered_head", k)]


@torch.library.register_fake("phase25cpp::tempered_head")
def _(x, W, b, T):
    return x.new_empty(x.shape[0], W.shape[0])


# --8<-- [start:solution]
def setup_context(ctx, inputs, output):
    x, W, b, T = inputs
    ctx.save_for_backward(x, W)
    ctx.T = T


def backward(ctx, grad):
    """y = (x W^T + b) / T: each input's gradient is the head's, divided by T; T itself gets none."""
    x, W = ctx.saved_tensors
    g = grad / ctx.T
    return g @ W, g.t() @ x, g.sum(0), None


torch.library.register_autograd("phase25cpp::tempered_head", backward, setup_context=setup_context)
# --8<-- [end:solution]
print("kernels for:", table())
torch.manual_seed(0)
W, b = (t.clone().double().requires_grad_() for t in lm_head())
x = torch.randn(2, 64, dtype=torch.double, requires_grad=True)
print("opcheck, with a W that requires grad:")
for test, result in torch.library.opcheck(op, (x, W, b, 2.0), raise_exception=False).items():
    reason = "" if result == "SUCCESS" else f": {textwrap.shorten(str(result), 150)}"
    print(f"  {test}: {result if result == 'SUCCESS' else type(result).__name__}{reason}")
print("gradcheck against finite differences:", torch.autograd.gradcheck(lambda *a: op(*a, 2.0), (x, W, b)))
