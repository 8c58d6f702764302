"""Executing runs: the plan, the pool of workers, sessions, supervisors and warm interpreters.

Standard library only (torch is imported by the snippets, never here): this folder runs on the
GPU machine, which has Python and torch and nothing else. It never imports ``site`` or ``tools``.
"""
