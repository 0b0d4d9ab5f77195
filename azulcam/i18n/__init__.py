"""The one message catalogue of azulcam's interfaces, in English and French.

Each language is one flat JSON file beside this module (``en.json``, ``fr.json``): message keys
to ``str.format`` templates. The command line and the web dashboard read the same files, so that a
word is translated once. Both files hold exactly the same keys, with the same ``{placeholders}``
per key. Counted messages come in two forms, ``KEY.one`` and ``KEY.other``
(:meth:`Catalogue.count`).

    >>> messages("fr").text("player", n=2)
    'Joueur 2'
"""

from __future__ import annotations

import json
import os
import string
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

LANGUAGES: tuple[str, ...] = ("en", "fr")

#: Environment variables that name the user's language, first match wins (as gettext reads them,
#: except that LANGUAGE, a GNU list such as ``fr:en``, comes last and only its first entry counts).
LANGUAGE_VARIABLES: tuple[str, ...] = ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE")


def default_language(environ: Mapping[str, str] = os.environ) -> str:
    """The language of the first of ``LC_ALL``, ``LC_MESSAGES``, ``LANG``, ``LANGUAGE`` that is
    set and not empty: ``"fr"`` for a French locale (``fr``, ``fr_FR.UTF-8``, ``fr_CA``, ...),
    ``"en"`` for anything else (``C``, ``POSIX``, ``de_DE``) and when none is set."""
    for name in LANGUAGE_VARIABLES:
        value = environ.get(name, "").strip()
        if value:
            first = value.split(":")[0].strip().lower()
            return "fr" if first.startswith("fr") else "en"
    return "en"


def check_language(lang: str) -> str:
    """``lang`` when it is one of :data:`LANGUAGES`; raises ValueError naming them otherwise."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r} (languages: {', '.join(LANGUAGES)})")
    return lang


@cache
def _load(lang: str) -> dict[str, str]:
    text = resources.files(__name__).joinpath(f"{lang}.json").read_text(encoding="utf-8")
    data = json.loads(text)
    if not isinstance(data, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in data.items()):
        raise ValueError(f"the {lang} message catalogue must be a JSON object of strings")
    return data


def catalogue_data(lang: str) -> dict[str, str]:
    """The raw catalogue of ``lang`` (a copy): what a web page needs to translate by itself.
    Raises ValueError for an unknown language."""
    return dict(_load(check_language(lang)))


def placeholders(template: str) -> frozenset[str]:
    """The names of the ``{placeholders}`` of a template (``{n}``, ``{name}``; ``{{`` is no placeholder)."""
    return frozenset(field.split(".")[0].split("[")[0]
                     for _, field, _, _ in string.Formatter().parse(template) if field is not None)


def plural_form(lang: str, n: int) -> str:
    """``"one"`` or ``"other"``: English has one for 1 only, French for 0 and 1 (CLDR's rules)."""
    if lang == "fr":
        return "one" if abs(n) < 2 else "other"
    return "one" if abs(n) == 1 else "other"


class Catalogue:
    """The messages of one language. Raises ValueError for a language not in :data:`LANGUAGES`."""

    def __init__(self, lang: str) -> None:
        self.lang = check_language(lang)
        self._messages = _load(lang)

    def __contains__(self, key: object) -> bool:
        return key in self._messages

    def keys(self) -> list[str]:
        return sorted(self._messages)

    def text(self, key: str, **values: Any) -> str:
        """The message ``key`` filled with ``values`` (``str.format``). A key missing from the
        catalogue, or a value its template needs and was not given, is a bug: KeyError naming the
        key and the language."""
        try:
            template = self._messages[key]
        except KeyError:
            raise KeyError(f"no message {key!r} in the {self.lang} catalogue") from None
        try:
            return template.format(**values)
        except KeyError as exc:
            raise KeyError(f"message {key!r} of the {self.lang} catalogue needs the value {exc.args[0]!r}") from None

    def count(self, key: str, n: int, **values: Any) -> str:
        """The message ``KEY.one`` or ``KEY.other`` as ``n`` asks (:func:`plural_form`), with ``n``
        among its values."""
        return self.text(f"{key}.{plural_form(self.lang, n)}", n=n, **values)


@cache
def messages(lang: str) -> Catalogue:
    """The (shared) :class:`Catalogue` of ``lang``."""
    return Catalogue(lang)
