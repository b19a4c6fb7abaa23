"""The shipped suite's tests from ``pytest_sbcbench/benchmarks/test_platform_facts.py``, so that
``pytest benchmarks/`` in the repository and ``sbcbench run`` run the same tests."""

from pytest_sbcbench.benchmarks.test_platform_facts import *  # noqa: F403 - collected here
