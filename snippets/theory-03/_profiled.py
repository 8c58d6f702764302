"""What DTensor sent between the ranks, read from the profiler: shared by the DTensor snippets of theory 03."""

NOT_A_COLLECTIVE = ("_c10d_functional::wait_tensor", "_c10d_functional::_wrap_tensor_autograd")


def collectives(prof):
    """The collectives DTensor issued under the profiler, in order, with the shape each one sends."""
    events = sorted(prof.events(), key=lambda e: e.time_range.start)
    issued = [f"{e.name.split('::')[1]} of {tuple(e.input_shapes[0])}" for e in events
              if e.name.startswith("_c10d_functional::") and e.name not in NOT_A_COLLECTIVE]
    return ", ".join(issued) or "none"
