"""What the dashboard answers when it refuses: a code with its parameters, worded by the catalogue.

Every refusal's body is ``{"detail": {"code": CODE, "params": {...}, "message": ENGLISH}}``: a
page words ``code`` with ``params`` in its own language from the catalogue (``/api/strings``);
``message`` is the English wording, for logs and scripts. A request's fields are checked by
pydantic; each kind of mistake it names has its own code (``invalid.TYPE``, :mod:`azulcam.formats`), and the input
itself is never echoed (it may be what cannot be encoded: NaN, a lone surrogate).
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..follow import Refused
from ..formats import field_problem
from ..i18n import messages

#: Statuses Starlette raises by itself (an unknown route, a wrong method), as codes.
STATUS_CODES = {404: "http.not_found", 405: "http.method", 413: "http.too_large"}


def body(code: str, **params: Any) -> dict[str, Any]:
    """The refusal's JSON body: the code, its parameters and their English wording."""
    return {"detail": {"code": code, "params": params, "message": messages("en").text(code, **params)}}


def refusal(status: int, code: str, **params: Any) -> HTTPException:
    """An HTTPException whose detail is :func:`body`'s (raise it from a route)."""
    return HTTPException(status, body(code, **params)["detail"])


def answer(status: int, code: str, headers: dict[str, str] | None = None, **params: Any) -> JSONResponse:
    """:func:`body` as a response (for middleware, which cannot raise into FastAPI's handlers)."""
    return JSONResponse(body(code, **params), status, headers=headers)


def install(app: FastAPI) -> None:
    """Every refusal of ``app`` answered as a code with parameters."""

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        code, params = field_problem(exc.errors()[0])
        return answer(422, code, **params)

    @app.exception_handler(Refused)
    async def refused(request: Request, exc: Refused) -> JSONResponse:
        return answer(422, exc.code, **exc.params)

    @app.exception_handler(StarletteHTTPException)
    async def http_problem(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if isinstance(exc.detail, dict) and "code" in exc.detail:
            return JSONResponse({"detail": exc.detail}, exc.status_code, headers=exc.headers)
        code = STATUS_CODES.get(exc.status_code, "http.error")
        params = {"path": request.url.path} if code != "http.error" else {"status": exc.status_code}
        return answer(exc.status_code, code, headers=exc.headers, **params)
