"""The shipped suite's tests from ``pytest_sbcbench/benchmarks/test_memory.py``, so that
``pytest benchmarks/`` in the repository and ``sbcbench run`` run the same tests."""

from pytest_sbcbench.benchmarks.test_memory import *  # noqa: F403 - collected here
