"""Private: the public API is ``pytest_sbcbench`` itself (its ``__all__``).

Measure layer: workloads that run real tools, and their output parsers."""
