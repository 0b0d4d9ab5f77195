"""What the dashboard answers when it refuses: a code with its parameters, worded by the catalogue.

Every refusal's body is ``{"detail": {"code": CODE, "params": {...}, "message": WORDS}}``: a
page words ``code`` with ``params`` in its own language from the catalogue (``/api/strings``);
``message`` is the refusal in words (:func:`~azulcam.i18n.words.words`) in the request's language
(:func:`request_language`: ``?lang=``, else its ``Accept-Language``, else English), for logs,
scripts and the pages, which ask in theirs. A parameter that is another error (the engine's reason
for refusing a correction) is its own ``{"code", "params"}`` object. A request's fields are checked
by pydantic; each kind of mistake it names has its own code (``invalid.TYPE``, :mod:`azulcam.formats`),
and the input itself is never echoed (it may be what cannot be encoded: NaN, a lone surrogate).
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import HTTPConnection

from ..engine.notice import Notice
from ..follow import Refused
from ..formats import field_problem
from ..i18n import LANGUAGES
from ..i18n.words import words

#: Statuses Starlette raises by itself (an unknown route, a wrong method), as codes.
STATUS_CODES = {404: "http.not_found", 405: "http.method", 413: "http.too_large"}


def browser_language(request: HTTPConnection) -> str:
    """The first of the browser's languages (``Accept-Language``) that the catalogue has, else English."""
    for part in request.headers.get("accept-language", "").split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGUAGES:
            return code
    return "en"


def request_language(request: HTTPConnection) -> str:
    """The language a request asks for: its ``?lang=`` where the catalogue has it, else the
    browser's (:func:`browser_language`)."""
    lang = request.query_params.get("lang")
    return lang if lang in LANGUAGES else browser_language(request)


def detail(message: Any, lang: str) -> dict[str, Any]:
    """A refusal's ``detail``: the code of ``message`` (anything with ``code`` and ``params``: a
    notice, a :class:`~azulcam.follow.Refused`), its parameters as JSON holds them, and its words
    in ``lang``."""
    return {"code": message.code, "params": Notice(message.code, **message.params).to_json()["params"],
            "message": words(message, lang)}


def refusal(status: int, code: str, **params: Any) -> HTTPException:
    """An HTTPException refusing with ``code`` and ``params`` (raise it from a route), worded in
    the request's language by the handler :func:`install` sets."""
    return HTTPException(status, Notice(code, **params))


def answer(status: int, message: Any, lang: str, headers: dict[str, str] | None = None) -> JSONResponse:
    """The refusal ``message`` as a response, worded in ``lang`` (for the handlers, and for
    middleware, which cannot raise into FastAPI's handlers)."""
    return JSONResponse({"detail": detail(message, lang)}, status, headers=headers)


def install(app: FastAPI) -> None:
    """Every refusal of ``app`` answered as a code with parameters."""

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        code, params = field_problem(exc.errors()[0])
        return answer(422, Notice(code, **params), request_language(request))

    @app.exception_handler(Refused)
    async def refused(request: Request, exc: Refused) -> JSONResponse:
        return answer(422, exc, request_language(request))

    @app.exception_handler(StarletteHTTPException)
    async def http_problem(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if isinstance(exc.detail, Notice):
            return answer(exc.status_code, exc.detail, request_language(request), exc.headers)
        code = STATUS_CODES.get(exc.status_code, "http.error")
        params = {"path": request.url.path} if code != "http.error" else {"status": exc.status_code}
        return answer(exc.status_code, Notice(code, **params), request_language(request), exc.headers)
