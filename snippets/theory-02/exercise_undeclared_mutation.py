# /// snippet
# devices = ["cpu"]
# timeout = 120
# deps = ["scripts/minigpt"]
# ///
import torch
from minigpt import lm_head


# --8<-- [start:op]
@torch.library.custom_op("phase25::bias_scale_undeclared", mutates_args=())  # the mistake: nothing declared
def bias_scale_undeclared(scores: torch.Tensor, b: torch.Tensor, T: float) -> None:
    scores.add_(b).div_(T)
# --8<-- [end:op]


@bias_scale_undeclared.register_fake
def _(scores, b, T):
    return None


torch.manual_seed(0)
W, b = lm_head()
scores = torch.randn(2, 64) @ W.T
# --8<-- [start:opcheck]
result = torch.library.opcheck(bias_scale_undeclared, (scores, b, 2.0), raise_exception=False)
# --8<-- [end:opcheck]
for test, outcome in result.items():
    print(f"{test:<28} {outcome if outcome == 'SUCCESS' else type(outcome).__name__}")
failed = next(outcome for outcome in result.values() if outcome != "SUCCESS")
print("\nthe first failure says:", str(failed).split("\n")[0][:220])
