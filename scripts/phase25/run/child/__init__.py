"""What runs in a run's own processes: the supervisor, the snippet's bootstrap, its ranks, warm interpreters.

Everything here is started by the runner (``session``, ``warm_pool``) and runs inside the run's process tree, on the
GPU machine too: fork-safe, standard library only at module level (torch only inside a function, in the snippet's
process), and nothing here imports the runner's side beyond ``handoff``, the typed description and result.
"""
