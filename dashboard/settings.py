"""The dashboard's settings, in one place: where it listens, who may use it, and the limits that
keep one request from hurting the others (the tracker above all)."""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.errors import CodedError

#: Addresses only this machine can reach.
LOOPBACK = ("127.0.0.1", "localhost", "::1")


class SettingsError(CodedError):
    """Settings the dashboard cannot serve with: a ``dash.*`` code with its parameters."""


@dataclass(frozen=True)
class Settings:
    """How the dashboard serves.

    ``token``: a secret. With it, every write needs it; on an address other machines reach
    (``host`` not in :data:`LOOPBACK`) every request does, and such an address needs one.
    Raises :class:`SettingsError` (a ValueError) for an exposed address without a token, or a
    token too short or not of printable ASCII."""

    host: str = "127.0.0.1"
    port: int = 8000
    token: str | None = None
    #: Bytes a request's body may hold: a correction is well under one KB.
    body_limit: int = 64 * 1024
    #: The longest search for suggestions a request may ask for, in seconds; one runs at a time,
    #: on its own thread, so that the tracker always keeps a core.
    search_seconds: float = 5.0

    def __post_init__(self) -> None:
        if self.exposed and not self.token:
            raise SettingsError("dash.needs_token", host=self.host)
        if self.token is not None and (len(self.token) < 8 or not self.token.isprintable() or not self.token.isascii()):
            raise SettingsError("dash.short_token")

    @property
    def exposed(self) -> bool:
        """Whether other machines can reach the dashboard."""
        return self.host not in LOOPBACK
