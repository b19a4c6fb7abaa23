"""``sbcbench bisect`` (issue 30): which commit made the board slower, with the error of the
whole bisect controlled.  :mod:`.procedure` is the procedure (shared with
``benchmarks/bisect_simulation.py``), :mod:`.git` drives ``git bisect``, :mod:`.suite` builds,
boots and runs the suite, :mod:`.state` keeps what survives a Ctrl-C."""
