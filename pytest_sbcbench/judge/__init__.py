"""Private: the public API is ``pytest_sbcbench`` itself (its ``__all__``).

Judge layer: statistics, baselines, plausibility and the regression gate."""
