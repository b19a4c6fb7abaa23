"""``sbcbench run --help``: what ``sbcbench run`` takes, short and in its own words.

pytest's own help (hundreds of lines headed ``usage: pytest.main()``) is one option away:
``sbcbench run --pytest-help``.  The sbcbench options come from the plugin's one table
(:data:`..plugin.options.OPTIONS`), so this text never drifts from what pytest accepts; the
defaults that ``sbcbench run`` sets itself (the baselines directory, the results file) are
stated as it sets them."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

HELP_FLAGS = ("-h", "--help")
PYTEST_HELP = "--pytest-help"
# what sbcbench run sets unlike a plain pytest run (see run.suite.run_argv)
OWN_DEFAULTS = {"--sbc-baselines": "baseline directory (default: ./baselines in the current "
                                   "directory; sbcbench run passes it to pytest)",
                "--sbc-results": "write this run's results JSON to PATH (default: ./run.json in "
                                 "the current directory; sbcbench run passes it to pytest)"}
USAGE = """\
usage: sbcbench run [pytest options] [sbcbench options]

Run the benchmark suite shipped with pytest-sbcbench, from any directory: pytest with the
plugin, on the installed suite (test ids read benchmarks/test_crypto.py::...).

examples:
  sbcbench run --sbc-quick                      every test, short runs (a smoke run)
  sbcbench run -m crypto --board star64         the crypto tests, judged as a star64
  sbcbench run --sbc-save-baseline              record this machine's baseline
  sbcbench run --sbc-gate --sbc-candidate v6.12 gate a new kernel against the baseline
  sbcbench list                                 every test: markers, availability, time

pytest options most used here:
  -m MARKERS            only these markers: crypto, compile, scaling, memory, storage
  -k EXPR               only tests whose name matches EXPR (e.g. -k sha512)
  -x                    stop at the first failure
  -v / -q               more / less output
  --junitxml FILE       JUnit XML with each test's numbers as properties
  --lg-env FILE         a labgrid environment: measure its board over labgrid
  --pytest-help         pytest's full help (every pytest option)

sbcbench options:"""


def _option_line(flag: str, metavar: str | None, text: str) -> list[str]:
    head = f"  {flag} {metavar}" if metavar else f"  {flag}"
    body = textwrap.wrap(text.replace("%%", "%"), 74)
    if len(head) < 24:
        return [f"{head:24}{body[0]}", *(" " * 24 + line for line in body[1:])]
    return [head, *(" " * 24 + line for line in body)]


def run_help() -> str:
    """The help text of ``sbcbench run``."""
    from ..plugin.options import OPTIONS

    lines = USAGE.splitlines()
    for option in OPTIONS:
        if option.flag == "--sbc-list":
            continue  # sbcbench list runs it
        metavar = option.kwargs.get("metavar")
        text = OWN_DEFAULTS.get(option.flag, option.help)
        lines += _option_line(option.flag, str(metavar) if metavar else None, text)
    from ..run.gate import GATE_UNDECIDED

    lines += ["", "exit codes: pytest's (0 all passed; 1 a test failed: a regression, an "
              "implausible number", f"or a broken tool); with --sbc-gate also 4 (a selected "
              f"test cannot be gated) and {GATE_UNDECIDED} (undecided)."]
    return "\n".join(lines) + "\n"


def wants_help(args: Sequence[str]) -> str | None:
    """``"ours"`` for -h/--help, ``"pytest"`` for --pytest-help, else None (only options
    before a ``--`` count)."""
    head = list(args[:args.index("--")]) if "--" in args else list(args)
    if PYTEST_HELP in head:
        return "pytest"
    if any(a in HELP_FLAGS for a in head):
        return "ours"
    return None
