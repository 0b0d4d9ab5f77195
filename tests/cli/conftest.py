"""What the command line's tests share: the locale of whoever runs them set aside, so that the
commands speak English (``--lang`` and the tests that set a locale choose another)."""

from __future__ import annotations

import pytest

from azulcam.i18n import LANGUAGE_VARIABLES


@pytest.fixture(autouse=True)
def no_language_in_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in LANGUAGE_VARIABLES:
        monkeypatch.delenv(name, raising=False)
