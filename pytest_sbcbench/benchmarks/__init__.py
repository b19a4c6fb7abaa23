"""Private: the public API is ``pytest_sbcbench`` itself (its ``__all__``).

The shipped suite: thin tests over the workload registry.  ``sbcbench run`` runs it from
any directory; the repository's ``benchmarks/`` imports the same tests."""
