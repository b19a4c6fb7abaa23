"""Platform layer: everything read from /proc, /sys and /etc goes through
:class:`.sysroot.Sysroot`."""
