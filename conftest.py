"""Repository-level pytest settings only; the plugin itself ships in ``pytest_sbcbench``."""

pytest_plugins = ["pytester"]
