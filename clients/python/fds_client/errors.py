"""Typed errors: every 4xx/5xx of the API is an RFC 9457 problem document; each error carries it.

The API key is never part of an error's text: messages are built from the problem document and the
request's path, and any occurrence of the key in them is redacted.
"""
from __future__ import annotations

import datetime as _dt
from typing import Any, Mapping, Optional

_PROBLEM_FIELDS = ("type", "title", "status", "detail", "instance")


class FdsError(Exception):
    """Any failure of a call: an HTTP error answer (with its RFC 9457 fields) or a transport failure."""

    def __init__(
        self,
        message: str,
        *,
        status: Optional[int] = None,
        problem: Optional[Mapping[str, Any]] = None,
        method: str = "GET",
        path: str = "",
        headers: Optional[Mapping[str, str]] = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.problem: dict = dict(problem or {})
        self.method = method
        self.path = path
        self.headers: dict = {k.lower(): v for k, v in (headers or {}).items()}
        p = self.problem
        self.type: Optional[str] = p.get("type")
        self.title: Optional[str] = p.get("title")
        self.detail: Optional[str] = p.get("detail")
        self.instance: Optional[str] = p.get("instance")
        # the API's error code (`error`), what to branch on
        self.code: Optional[str] = p.get("error")
        # members beyond RFC 9457's five (error, message, parameter, issues, request_id, ...)
        self.extras: dict = {k: v for k, v in p.items() if k not in _PROBLEM_FIELDS}
        self.parameter: Optional[str] = p.get("parameter")
        self.request_id: Optional[str] = self.headers.get("x-request-id") or p.get("request_id")
        ra = self.headers.get("retry-after")
        self.retry_after: Optional[float] = float(ra) if ra is not None and _is_number(ra) else None


def _whole(text: Optional[str]) -> Optional[int]:
    """A header's whole number (ASCII digits only), else None."""
    return int(text) if text is not None and text.isascii() and text.isdigit() and len(text) < 20 else None


def _is_number(s: str) -> bool:
    try:
        float(s)
        return True
    except ValueError:
        return False


class TransportError(FdsError):
    """The server could not be reached or the connection broke (after the retries allowed)."""


class BadRequest(FdsError):
    """400: a malformed parameter (e.g. `month` not YYYY-MM)."""


class Unauthorized(FdsError):
    """401: the key is missing, malformed, unknown or revoked. Do not retry until fixed."""


class Forbidden(FdsError):
    """403: untrusted origin (account routes) or a route the key's tier may not read."""


class NotFound(FdsError):
    """404: an id or batch outside the published universe."""


class Gone(FdsError):
    """410: a published batch whose file retention removed."""


class RangeNotSatisfiable(FdsError):
    """416: a download's Range starts past the end of the file."""


class InvalidParameter(FdsError):
    """422: an invalid value, or a parameter the route does not take (`parameter` names it)."""


class RateLimited(FdsError):
    """429 `rate_limited` (per-IP) still answered after the retries allowed."""


class QuotaExceeded(FdsError):
    """429 `quota_exceeded`: the key's daily quota is used up. Never retried: wait for `reset_at`."""

    def __init__(self, message: str, **kw: Any) -> None:
        super().__init__(message, **kw)
        reset = _whole(self.headers.get("x-ratelimit-reset"))
        self.reset: Optional[int] = reset
        self.reset_at: Optional[_dt.datetime] = None
        if reset is not None:
            try:
                self.reset_at = _dt.datetime.fromtimestamp(reset, tz=_dt.timezone.utc)
            except (OverflowError, OSError, ValueError):
                self.reset_at = None  # a reset no calendar holds: said as None, never a crash
        self.limit: Optional[int] = _whole(self.headers.get("x-ratelimit-limit"))


class ServerError(FdsError):
    """5xx still answered after the retries allowed (or with a Retry-After beyond the wait allowed)."""


class ServiceUnavailable(ServerError):
    """503: the server side cannot answer now (`code` says why: snapshot_unavailable, fi_unavailable, ...)."""


class DigestMismatch(FdsError):
    """A download whose SHA-256 differs from the server's Repr-Digest; the partial file was removed."""


_BY_STATUS = {
    400: BadRequest,
    401: Unauthorized,
    403: Forbidden,
    404: NotFound,
    410: Gone,
    416: RangeNotSatisfiable,
    422: InvalidParameter,
    503: ServiceUnavailable,
}


def error_class(status: int, code: Optional[str]) -> type:
    """The error class of an answer's status and `error` code."""
    if status == 429:
        return QuotaExceeded if code == "quota_exceeded" else RateLimited
    if status in _BY_STATUS:
        return _BY_STATUS[status]
    if status >= 500:
        return ServerError
    return FdsError
