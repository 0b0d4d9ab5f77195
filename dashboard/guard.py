"""Who may ask what, and how much: checked on every request before any route sees it.

- **Host.** Served on this machine only, a request must name this machine in its ``Host``
  header: a page elsewhere that got a name resolved to 127.0.0.1 (DNS rebinding) is refused.
- **Token.** With one, every write needs it; on an address other machines reach, every request.
  It travels as ``Authorization: Bearer TOKEN`` or as the cookie a first visit sets: a page
  opened as ``/?token=TOKEN`` (a link, an OBS source) is answered with the cookie and sent on to
  the same page without the token in its address. Compared in constant time.
- **Size.** A request's body is read up to :attr:`Settings.body_limit` bytes, and refused (413)
  past it, before the app parses it.
"""

from __future__ import annotations

import hmac
from typing import Any
from urllib.parse import urlencode

from starlette.datastructures import URL, Headers, QueryParams
from starlette.requests import HTTPConnection
from starlette.responses import RedirectResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..engine.notice import Notice
from .problems import answer, request_language
from .settings import Settings

#: The cookie a first visit with the token sets.
COOKIE = "azulcam_token"
#: Methods that change nothing.
READS = ("GET", "HEAD", "OPTIONS")
#: Host names that are this machine.
LOCAL_NAMES = ("localhost", "127.0.0.1", "[::1]")


class Guard:
    """ASGI middleware applying :mod:`guard`'s rules with ``settings``."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app, self.settings = app, settings
        self._token = settings.token.encode() if settings.token else None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        method = scope["method"]
        lang = request_language(HTTPConnection(scope))
        if not self.settings.exposed and not local_host(headers.get("host", "")):
            await answer(400, Notice("http.bad_host", host=headers.get("host", "")[:80]), lang)(scope, receive, send)
            return
        if self._token is not None and (self.settings.exposed or method not in READS):
            if not self._carries_token(headers):
                query = QueryParams(scope.get("query_string", b""))
                if method == "GET" and self._matches(query.get("token", "")):
                    await self._welcome(URL(scope=scope), query)(scope, receive, send)
                else:
                    await answer(401, Notice("http.token"), lang, {"WWW-Authenticate": "Bearer"})(scope, receive, send)
                return
        if method in READS:
            await self.app(scope, receive, send)
            return
        declared = headers.get("content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.settings.body_limit):
            await answer(413, Notice("http.too_large", limit=self.settings.body_limit), lang)(scope, receive, send)
            return
        received = await _read_body(receive, self.settings.body_limit)
        if received is None:
            await answer(413, Notice("http.too_large", limit=self.settings.body_limit), lang)(scope, receive, send)
            return
        await self.app(scope, _replay(received, receive), send)

    def _matches(self, given: str) -> bool:
        return self._token is not None and hmac.compare_digest(given.encode(), self._token)

    def _carries_token(self, headers: Headers) -> bool:
        scheme, _, value = headers.get("authorization", "").partition(" ")
        if scheme.lower() == "bearer" and self._matches(value.strip()):
            return True
        cookies = headers.get("cookie", "")
        for part in cookies.split(";"):
            name, _, value = part.strip().partition("=")
            if name == COOKIE and self._matches(value):
                return True
        return False

    def _welcome(self, url: URL, query: QueryParams) -> Any:
        """A first visit with the token: the cookie, and on to the same address without it."""
        rest = urlencode([(k, v) for k, v in query.multi_items() if k != "token"])
        target = url.path + (f"?{rest}" if rest else "")
        response = RedirectResponse(target, status_code=303)
        response.set_cookie(COOKIE, self.settings.token or "", httponly=True, samesite="strict",
                            secure=url.scheme == "https")
        return response


def local_host(host: str) -> bool:
    """Whether a ``Host`` header names this machine (any port)."""
    name = host.strip().lower()
    end = name.find("]") + 1 if name.startswith("[") else (name.find(":") if ":" in name else len(name))
    name, port = name[:end], name[end:]
    return name in LOCAL_NAMES and (port == "" or port[:1] == ":" and port[1:].isdigit())


async def _read_body(receive: Receive, limit: int) -> list[Message] | None:
    """The request's body messages, or None once they pass ``limit`` bytes."""
    messages: list[Message] = []
    size = 0
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request":
            return messages
        size += len(message.get("body", b""))
        if size > limit:
            return None
        if not message.get("more_body", False):
            return messages


def _replay(messages: list[Message], receive: Receive) -> Receive:
    pending = list(messages)

    async def replayed() -> Message:
        return pending.pop(0) if pending else await receive()

    return replayed
