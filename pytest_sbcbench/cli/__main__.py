"""``python -m pytest_sbcbench.cli``: the ``sbcbench`` command."""

from __future__ import annotations

import sys

from . import main

sys.exit(main())
