"""What runs on a reader's machine: the reproduction kit's program, shipped with the core modules it imports."""
