"""A model's refusal as a catalogue code with its parameters: the first mistake pydantic found,
its field's path and what the template needs. The input itself is never echoed (it may be what
cannot be encoded: NaN, a lone surrogate); a name a rule quotes (an unknown slot, a layout) is cut
short and made :func:`printable`."""

from __future__ import annotations

from functools import cache
from typing import Any, NoReturn

from pydantic import TypeAdapter, ValidationError
from pydantic_core import InitErrorDetails, PydanticCustomError

from ..engine.errors import CodedError
from ..i18n.words import is_message

#: pydantic's error types that the catalogue words (``invalid.TYPE``), with the context each
#: template takes; the rest, and the models' own rules, are worded as ``invalid`` or by their own code.
WORDED_ERRORS = {
    "missing": (), "extra_forbidden": (), "literal_error": ("expected",), "int_parsing": (), "int_type": (),
    "float_parsing": (), "finite_number": (), "bool_type": (), "string_type": (), "dict_type": (), "list_type": (),
    "model_type": (), "json_invalid": (), "greater_than": ("gt",), "greater_than_equal": ("ge",),
    "less_than": ("lt",), "less_than_equal": ("le",), "string_too_long": ("max_length",),
    "too_long": ("max_length",), "too_short": ("min_length",), "string_pattern_mismatch": (),
    "value_error": (), "not_unicode": (), "one_of": ("names",), "union_tag_invalid": ("discriminator", "expected_tags"),
    "union_tag_not_found": ("discriminator",), "float_type": (), "none_required": (), "string_too_short": ("min_length",),
}
#: pydantic's error types worded as another's.
SAME_AS = {"string_unicode": "not_unicode"}

#: The models' own rules between fields (``PydanticCustomError`` types), worded as ``invalid.TYPE``
#: with every parameter the rule gives.
RULES = ("not_a_player", "not_this_game", "wrong_count", "players_twice", "unknown_tile", "unknown_layout",
         "line_too_full", "unknown_slot", "not_convex", "not_a_player_board", "not_the_scoring_board", "wrong_side")


class FormatError(CodedError):
    """Input of a public format whose form is wrong: ``code`` and ``params`` for the catalogue,
    the field's path (``field``) among them, worded where it is shown
    (:func:`azulcam.i18n.words.words`)."""


def field_problem(error: Any) -> tuple[str, dict[str, Any]]:
    """One of pydantic's errors as a code and its parameters: the field's path (dots between its
    parts: ``events.3.move.line``; ``$`` for the whole input) and what the template needs."""
    field = _path(tuple(error.get("loc", ())))
    kind = error.get("type", "")
    kind = SAME_AS.get(kind, kind)
    context = error.get("ctx") or {}
    if kind in RULES:
        return f"invalid.{kind}", {"field": field, **{k: _plain(v) for k, v in context.items()}}
    if kind not in WORDED_ERRORS:
        return "invalid", {"field": field}
    params = {"field": field}
    for name in WORDED_ERRORS[kind]:
        params[name] = _plain(context.get(name, ""))
    if kind == "literal_error" and (" or " in params["expected"] or ", " in params["expected"]):
        # pydantic joins the values in English ("'a', 'b' or 'c'"): a list the catalogue's words can introduce
        return "invalid.literal_choice", {**params, "expected": params["expected"].replace(" or ", ", ")}
    if kind in ("too_short", "string_too_short") and params["min_length"] == 1:
        return "invalid.empty", {"field": field}
    return f"invalid.{kind}", params


def checked(model: Any, data: Any, at: tuple[Any, ...] = (), context: dict[str, Any] | None = None) -> Any:
    """``data`` read through ``model`` (a pydantic model or any type pydantic reads), found at the
    path ``at`` of the whole input; raises :class:`FormatError` naming its first mistake."""
    try:
        return _adapter(model).validate_python(data, context=context)
    except ValidationError as exc:
        # Where a value may take several forms, every form's mistake is listed: the one that got
        # furthest into the value says best what is wrong.
        errors = exc.errors(include_input=False)
        error = max(errors, key=lambda e: len(e["loc"]))
        code, params = field_problem({**error, "loc": at + _in_data(data, error["loc"])})
        raise FormatError(code, **params) from None
    except RecursionError:  # nested deeper than any format goes
        refuse("invalid", at)


def refusal(where: tuple[str | int, ...], kind: str, message: str | None = None, **context: Any) -> ValidationError:
    """A model's refusal of the field at ``where``, to raise from a validator: pydantic puts the path
    of the value the validator checks in front of it. ``kind`` is one of pydantic's own error types
    (with the context it takes), or, given a ``message``, one of :data:`RULES`. Text in the context
    is made :func:`printable` (pydantic words the message with it)."""
    context = {k: printable(v) if isinstance(v, str) else v for k, v in context.items()}
    if message is not None:
        details = InitErrorDetails(type=PydanticCustomError(kind, message, context), loc=where, input=None)
    else:
        details = InitErrorDetails(type=kind, loc=where, input=None)
        if context:
            details["ctx"] = context
    return ValidationError.from_exception_data("refusal", [details])


def refuse(code: str, at: tuple[Any, ...] = (), **params: Any) -> NoReturn:
    """Raises :class:`FormatError` ``code`` for the field at path ``at``."""
    raise FormatError(code, field=_path(at), **params)


@cache
def _adapter(model: Any) -> TypeAdapter:
    return TypeAdapter(model)


def _in_data(data: Any, loc: tuple[Any, ...]) -> tuple[Any, ...]:
    """pydantic's path of an error less the names it gives a union's forms (``take``,
    ``constrained-int``) and a key's marker: the keys and indices that lead into ``data``."""
    path: list[Any] = []
    for k, part in enumerate(loc):
        if isinstance(data, dict) and part in data:
            data = data[part]
        elif isinstance(data, list) and isinstance(part, int) and 0 <= part < len(data):
            data = data[part]
        elif k == len(loc) - 1 and isinstance(data, dict) and part != "[key]":  # a key that is missing
            pass
        else:
            continue
        path.append(part)
    return tuple(path)


#: The longest part of a field's path that a message shows (a key may be a stranger's megabyte).
LONGEST_KEY = 40


def _path(loc: tuple[Any, ...]) -> str:
    """The field's path as text that can always be printed: each key cut to :data:`LONGEST_KEY`
    characters, a lone surrogate (which no output can encode) shown as U+FFFD."""
    return ".".join(printable(str(part), LONGEST_KEY) for part in loc) or "$"


def printable(text: str, longest: int = 200) -> str:
    """``text`` as a message may show it: cut to ``longest`` characters, a lone surrogate (which
    no output can encode) shown as U+FFFD."""
    shown = "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in text[:longest])
    return shown + ("…" if len(text) > longest else "")


def _plain(value: Any) -> Any:
    """A context value a template can show: numbers as they are, a message (another error a rule
    gives as its reason) to be worded in its place, anything else as text."""
    if is_message(value) or isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    return printable(str(value))
