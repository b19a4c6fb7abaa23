"""Measure layer: workloads that run real tools, and their output parsers."""
