"""Judge layer: statistics, baselines, plausibility and the regression gate."""
