# /// snippet
# devices = ["cpu"]
# timeout = 120
# deps = ["scripts/minigpt"]
# ///
import threading

import torch
import torch.nn.functional as F
from minigpt import lm_head
from torch.autograd.graph import node_creation_hook
from torch.utils.checkpoint import checkpoint

torch.manual_seed(0)
W, b = (t.clone().requires_grad_() for t in lm_head())
x, target = torch.randn(2, 64), torch.tensor([3, 7])
log, depth, caller, LAST = [], [0], threading.get_ident(), 2**64 - 1  # LAST: the largest sequence nr


def label(node):
    """A node's name; for an AccumulateGrad, the leaf it accumulates into."""
    leaf = getattr(node, "variable", None)
    if leaf is None:
        return node.name()
    owner = "W" if leaf.shape == W.shape else "b"
    return f"AccumulateGrad ({owner if leaf is W or leaf is b else owner + ', detached'})"


def watch(node):
    """Log each node as it starts (pre-hook) and track the nesting depth (pre-hook: in, hook: out)."""

    # --8<-- [start:watch]
    def enter(grad_outputs):
        task = torch._C._current_graph_task_id()
        log.append((depth[0], label(node), node._sequence_nr(), threading.get_ident(), task))
        depth[0] += 1
    # --8<-- [end:watch]

    node.register_prehook(enter)
    node.register_hook(lambda grad_inputs, grad_outputs: depth.__setitem__(0, depth[0] - 1))


def head_loss(weight=W, reentrant=False):
    """The running example's head and cross-entropy loss."""
    logits = checkpoint(F.linear, x, weight, b, use_reentrant=True) if reentrant else F.linear(x, weight, b)
    return F.cross_entropy(logits, target)


W.register_post_accumulate_grad_hook(
    lambda p: log.append((depth[0], "post-accumulate hook on W", None, threading.get_ident(), None)))
print("loss.backward() on the main thread: nodes in the order they ran")
with node_creation_hook(watch):
    loss = head_loss()
loss.backward()
first = min(seq for _, _, seq, _, _ in log if seq is not None)
for _, name, seq, thread, _ in log:
    shown = "" if seq is None else f"sequence nr {'LAST' if seq == LAST else seq - first}"
    print(f"  {name:<26} {shown:<17} caller's thread {thread == caller}")

log.clear()
with node_creation_hook(watch):
    loss = head_loss()
ran_on = []
worker = threading.Thread(target=lambda: (ran_on.append(threading.get_ident()), loss.backward()))
worker.start(), worker.join()
threads = {thread for *_, thread, _ in log}
print("the same backward called from a worker thread: all on the worker", threads == set(ran_on),
      "| any on the main thread", caller in threads)

log.clear()
print("checkpoint(F.linear, x, W, b, use_reentrant=True), then loss.backward(); indented = nested")
with node_creation_hook(watch):  # also sees the nodes that the recomputation creates
    head_loss(reentrant=True).backward()
for level, name, _, thread, task in log:
    which = "" if task is None else "outer graph task" if task == log[0][4] else "inner graph task"
    print(f"  {'  ' * level}{name:<{32 - 2 * level}} {which:<16}  caller's thread {thread == caller}")

print("two backward passes, W.grad not zeroed between them:")
W.grad = None
# --8<-- [start:two_passes]
W.register_hook(lambda g: print(f"  tensor hook          gets {g.norm():.4f}; W.grad is None: {W.grad is None}"))
W.register_post_accumulate_grad_hook(lambda p: print(f"  post-accumulate hook sees W.grad {p.grad.norm():.4f}"))
# --8<-- [end:two_passes]
loss = head_loss()
for _ in range(2):
    loss.backward(retain_graph=True)


# --8<-- [start:sgd]
def sgd_in_backward(p):
    """An optimizer in backward: step as soon as p.grad is final, then free it."""
    sgd.step()
    p.grad = None
# --8<-- [end:sgd]


V = W.detach().clone().requires_grad_()  # W's values, none of W's hooks
(grad,), start, sgd = torch.autograd.grad(head_loss(V), V), V.detach().clone(), torch.optim.SGD([V], lr=0.1)
V.register_post_accumulate_grad_hook(sgd_in_backward)
head_loss(V).backward()
print("an SGD step in V's post-accumulate hook: V.grad after backward", V.grad,
      "| V == start - 0.1 * gradient", torch.equal(V, start.add(grad, alpha=-0.1)))
