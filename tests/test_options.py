"""The one option table (``plugin/options.py``): pytest's options, the run's ``Settings`` and
the "was an sbcbench option given" check all come from its rows."""

from __future__ import annotations

import dataclasses

import pytest

from pytest_sbcbench.plugin.options import DERIVED, OPTIONS
from pytest_sbcbench.settings import Settings


def test_every_setting_is_filled_by_one_row_or_derived() -> None:
    fields = {f.name for f in dataclasses.fields(Settings)}
    rows = [o.setting for o in OPTIONS if o.setting is not None]
    assert len(rows) == len(set(rows)), "two rows fill one setting"
    assert set(rows) | DERIVED == fields
    assert not set(rows) & DERIVED


def test_flags_are_unique_and_named_for_the_plugin() -> None:
    flags = [o.flag for o in OPTIONS]
    assert len(flags) == len(set(flags))
    assert all(f == "--board" or f.startswith("--sbc-") for f in flags)


def test_pytest_lists_every_row(pytester: pytest.Pytester) -> None:
    shown = pytester.runpytest("--help").stdout.str()
    assert all(o.flag in shown for o in OPTIONS)


@pytest.mark.parametrize(("args", "explicit"), [
    ((), False), (("--sbc-quick",), True), (("--sbc-runs", "2"), True),
    (("--sbc-list", "text"), False),  # an action, not a setting: it lists and exits
])
def test_an_option_given_makes_the_run_explicit(pytester: pytest.Pytester,
                                                args: tuple[str, ...], explicit: bool) -> None:
    from pytest_sbcbench.plugin.options import settings_from

    config = pytester.parseconfig(*args)
    assert settings_from(config).explicit is explicit
