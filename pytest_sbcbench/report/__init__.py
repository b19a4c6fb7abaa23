"""Report layer: terminal summary, results JSON, Markdown and charts."""
