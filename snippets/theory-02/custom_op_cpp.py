# /// snippet
# devices = ["cpu"]
# timeout = 300
# deps = ["scripts/minigpt"]
# ///
import tempfile
import textwrap
import warnings

import torch
import torch.nn.functional as F
from minigpt import lm_head
from torch.utils.cpp_extension import load_inline

# --8<-- [start:source]
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
# --8<-- [end:source]


def table():
    """The keys that have a kernel for the operator."""
    return [k for k in ("CompositeExplicitAutograd", "CPU", "CUDA", "Meta", "Autograd")
            if torch._C._dispatch_has_kernel_for_dispatch_key("phase25cpp::tempered_head", k)]


def check(title, *args):
    """Run opcheck without raising; print each test's result, and the reason when it fails."""
    print(title)
    for test, result in torch.library.opcheck(op, args, raise_exception=False).items():
        reason = "" if result == "SUCCESS" else f": {textwrap.shorten(str(result), 150)}"
        print(f"  {test}: {result if result == 'SUCCESS' else type(result).__name__}{reason}")


def meta_call():
    """Call the operator on meta tensors: shapes and dtypes only, no data."""
    return op(*(t.to("meta") for t in (x, W, b)), 2.0)


print("schema:", op._schema)
print("kernels for:", table())
torch.manual_seed(0)
W, b = lm_head()
x = torch.randn(2, 64)
print("same scores as F.linear(x, W, b) / 2, within 1e-6:",
      torch.allclose(op(x, W, b, 2.0), F.linear(x, W, b) / 2.0, atol=1e-6))
try:
    meta_call()
except NotImplementedError as e:
    print("on meta tensors:", str(e).split(". ")[0])
check("opcheck, the C++ kernel only:", x, W, b, 2.0)


# --8<-- [start:fake]
@torch.library.register_fake("phase25cpp::tempered_head")
def _(x, W, b, T):
    return x.new_empty(x.shape[0], W.shape[0])
# --8<-- [end:fake]


print("\nafter register_fake, kernels for:", table())
print("on meta tensors:", meta_call().shape)
check("opcheck, with the fake:", x, W, b, 2.0)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    check("opcheck, with a W that requires grad:", x, W.clone().requires_grad_(), b, 2.0)
print(f"warnings: {len(caught)} x", str(caught[0].message).split(". ")[0])
