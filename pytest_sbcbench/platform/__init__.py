"""Private: the public API is ``pytest_sbcbench`` itself (its ``__all__``).

Platform layer: everything read from /proc, /sys and /etc goes through
:class:`.sysroot.Sysroot`."""
