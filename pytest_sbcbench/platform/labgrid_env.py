"""Which labgrid environment file a pytest run names, from labgrid's own two sources (its
plugin's ``--lg-env``, else ``LG_ENV``), read without importing labgrid."""

from __future__ import annotations

import os
from typing import Any


def named_env_file(option: Any) -> str | None:
    """``--lg-env`` (pytest's ``config.option``), else ``LG_ENV``; None when neither names one."""
    return getattr(option, "lg_env", None) or os.environ.get("LG_ENV") or None
