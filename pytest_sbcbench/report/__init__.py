"""Private: the public API is ``pytest_sbcbench`` itself (its ``__all__``).

Report layer: terminal summary, results JSON, Markdown and charts."""
