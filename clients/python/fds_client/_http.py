"""The HTTP layer: one GET with the key in a header, the API's retry rules, typed errors.

Retry rules (docs/clients.md "Retry policy"): a per-IP 429 (`rate_limited`), 500, 502, 503 and
504, and a broken connection, are retried with exponential backoff and jitter, honouring
`Retry-After`, within a bounded number of attempts and a bounded total wait; a quota 429
(`quota_exceeded`, or `X-RateLimit-Remaining: 0`) raises QuotaExceeded at once, never sleeping;
other 4xx raise their typed error at once. `timeout` bounds each wait on the socket; `deadline`
bounds the whole call (every attempt, the waits between them and the reading of the answer), so a
server that trickles its bytes cannot hold a call for longer.
"""
from __future__ import annotations

import http.client
import json
import logging
import random
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Callable, Dict, Iterable, Mapping, Optional, Sequence, Tuple, Union

from . import errors
from ._version import __version__

log = logging.getLogger("fds_client")

RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})

Params = Union[Mapping[str, Any], Sequence[Tuple[str, Any]], None]


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """Redirects are not followed: the key would go with the request to wherever it points."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):  # noqa: D401
        return None


def encode_params(params: Params) -> str:
    """The query string: None dropped, lists repeated, booleans as true/false."""
    if params is None:
        return ""
    items = params.items() if isinstance(params, Mapping) else params
    pairs = []
    for name, value in items:
        if value is None:
            continue
        values = value if isinstance(value, (list, tuple)) else [value]
        for v in values:
            if isinstance(v, bool):
                v = "true" if v else "false"
            pairs.append((name, str(v)))
    return urllib.parse.urlencode(pairs)


def _socket_of(res: Any) -> Optional[socket.socket]:
    """The socket an http.client answer reads from, when it can be found (so that each wait on it
    ends by the deadline); None otherwise (each wait then ends by `timeout`)."""
    for answer in (res, getattr(res, "fp", None)):  # an HTTPError holds the answer in fp
        sock = getattr(getattr(getattr(answer, "fp", None), "raw", None), "_sock", None)
        if isinstance(sock, socket.socket):
            return sock
    return None


class _DeadlinePassed(Exception):
    """Raised by `_read` when the call's deadline passes while an answer is read."""


class Response:
    """An answer: status, headers (lower-case names) and, unless streamed, its bytes."""

    def __init__(self, status: int, headers: Mapping[str, str], body: bytes = b"", stream: Any = None) -> None:
        self.status = status
        self.headers = {k.lower(): v for k, v in headers.items()}
        self.body = body
        self.stream = stream

    def json(self) -> Any:
        try:
            return json.loads(self.body.decode("utf-8"))
        except (ValueError, UnicodeDecodeError) as e:
            raise errors.FdsError(f"the answer ({self.status}, {self.headers.get('content-type', 'no Content-Type')}) is not JSON: {type(e).__name__}", status=self.status) from None

    @property
    def batch_id(self) -> Optional[str]:
        return self.headers.get("batch-id")


class Transport:
    def __init__(
        self,
        base_url: str,
        api_key: Optional[str],
        *,
        user_agent: Optional[str] = None,
        timeout: float = 30.0,
        max_attempts: int = 5,
        max_retry_wait: float = 60.0,
        backoff_base: float = 0.5,
        backoff_cap: float = 30.0,
        sleep: Callable[[float], None] = time.sleep,
        max_body_bytes: int = 256 * 1024 * 1024,
        deadline: Optional[float] = 300.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if "://" not in base_url:
            raise ValueError("base_url must be an absolute URL, e.g. https://fondos.example.cl")
        parsed = urllib.parse.urlsplit(base_url)
        if parsed.scheme not in ("http", "https") or not parsed.hostname:
            raise ValueError("base_url must be an http:// or https:// URL with a host, e.g. https://fondos.example.cl")
        if "?" in base_url or "#" in base_url or parsed.username or parsed.password:
            raise ValueError("base_url must not carry a query, a fragment or credentials (send the key as api_key)")
        self.base_url = base_url.rstrip("/")
        self._origin = (parsed.scheme, parsed.netloc.lower())
        if api_key is not None:
            # A key read from a file or a CRLF .env keeps its line end: dropped. Anything else
            # outside visible ASCII would make http.client refuse the header with the key in its
            # message, so it is refused here, without the key.
            api_key = api_key.strip()
            if api_key == "":
                api_key = None
            elif not all("!" <= c <= "~" for c in api_key):
                raise ValueError("api_key holds characters a key never has (spaces, control or non-ASCII characters): check how it was read")
        self._key = api_key
        self.user_agent = f"fds-client-python/{__version__}" + (f" {user_agent}" if user_agent else "")
        self.timeout = timeout
        self.max_attempts = max(1, max_attempts)
        self.max_retry_wait = max_retry_wait
        self.backoff_base = backoff_base
        self.backoff_cap = backoff_cap
        self.sleep = sleep
        self.max_body_bytes = max_body_bytes
        self.deadline = deadline
        self.clock = clock
        self._opener = urllib.request.build_opener(_NoRedirect)

    # -- helpers ---------------------------------------------------------------------------

    def _redact(self, text: str) -> str:
        if self._key:
            text = text.replace(self._key, "<redacted>")
        return text

    def url_of(self, path: str, params: Params = None) -> str:
        """The absolute URL of a root-relative path (links) or an API path plus parameters; only
        this service's origin is ever asked (the key goes with every request)."""
        if not path.startswith("/") or path.startswith("//") or "\\" in path or "://" in path:
            raise errors.FdsError(f"refused to request {self._redact(path)[:200]!r}: only root-relative paths of this service are requested")
        query = encode_params(params)
        sep = "&" if "?" in path else "?"
        url = self.base_url + path + (sep + query if query else "")
        joined = urllib.parse.urlsplit(url)
        if (joined.scheme, joined.netloc.lower()) != self._origin:
            raise errors.FdsError(f"refused to request {self._redact(path)[:200]!r}: it leaves {self.base_url}")
        return url

    def _headers(self, extra: Optional[Mapping[str, str]]) -> Dict[str, str]:
        h = {"User-Agent": self.user_agent, "Accept": "application/json"}
        if self._key:
            h["X-Api-Key"] = self._key
        if extra:
            h.update(extra)
        return h

    def _read(self, res: Any, url: str, ends_at: Optional[float]) -> bytes:
        """The whole body, refused past `max_body_bytes` (a JSON answer of this API is a few MB at
        most); read as the bytes arrive, so that the deadline is checked between them."""
        length = res.headers.get("Content-Length") if res.headers is not None else None
        if length is not None and length.isascii() and length.isdigit() and int(length) > self.max_body_bytes:
            raise errors.FdsError(f"an answer of {length} bytes is past max_body_bytes ({self.max_body_bytes}): not read")
        read = getattr(res, "read1", None) if ends_at is not None else None
        if read is None:
            body = res.read(self.max_body_bytes + 1)
        else:
            pieces, size = [], 0
            sock = _socket_of(res)
            while size <= self.max_body_bytes:
                left = ends_at - self.clock()
                if left <= 0:
                    raise _DeadlinePassed()
                if sock is not None:
                    sock.settimeout(min(self.timeout, left))
                try:
                    piece = read(min(64 * 1024, self.max_body_bytes + 1 - size))
                except socket.timeout:
                    if self.clock() >= ends_at:
                        raise _DeadlinePassed() from None
                    raise
                if not piece:
                    break
                pieces.append(piece)
                size += len(piece)
            body = b"".join(pieces)
        if len(body) > self.max_body_bytes:
            raise errors.FdsError(f"an answer past max_body_bytes ({self.max_body_bytes} bytes): not read")
        return body

    def _open(
        self,
        method: str,
        url: str,
        headers: Mapping[str, str],
        stream: bool,
        ends_at: Optional[float] = None,
        body: Optional[bytes] = None,
    ) -> Response:
        sent = dict(headers)
        if body is not None:
            sent["Content-Type"] = "application/json"
        req = urllib.request.Request(url, data=body, method=method, headers=sent)
        # no socket wait outlasts the call's deadline
        timeout = self.timeout if ends_at is None else max(0.001, min(self.timeout, ends_at - self.clock()))
        try:
            res = self._opener.open(req, timeout=timeout)
        except urllib.error.HTTPError as e:
            with e:
                body = self._read(e, url, ends_at) if e.fp is not None else b""
            return Response(e.code, dict(e.headers.items()), body)
        except (ValueError, UnicodeError) as e:
            # http.client's refusal of a header quotes the header's value: never shown
            raise errors.TransportError(f"{method} {urllib.parse.urlsplit(url).path}: the request could not be sent ({type(e).__name__})") from None
        if stream:
            return Response(res.status, dict(res.headers.items()), stream=res)
        with res:
            return Response(res.status, dict(res.headers.items()), self._read(res, url, ends_at))

    def _backoff(self, attempt: int) -> float:
        return min(self.backoff_cap, self.backoff_base * (2 ** attempt))

    def error_of(self, method: str, path: str, res: Response) -> errors.FdsError:
        problem: Dict[str, Any] = {}
        try:
            parsed = json.loads(res.body.decode("utf-8")) if res.body else {}
            if isinstance(parsed, dict):
                problem = parsed
        except (ValueError, UnicodeDecodeError):
            problem = {}
        code = problem.get("error")
        if res.status == 429 and res.headers.get("x-ratelimit-remaining") == "0":
            code = "quota_exceeded"
        cls = errors.error_class(res.status, code)
        title = problem.get("title") or http.client.responses.get(res.status, "HTTP error")
        detail = problem.get("detail") or problem.get("message")
        message = f"{method} {path}: {res.status} {title}"
        if detail:
            message += f": {detail}"
        if cls is errors.QuotaExceeded and res.headers.get("x-ratelimit-reset"):
            message += f" (quota resets at Unix time {res.headers['x-ratelimit-reset']})"
        if res.status == 401 and not self._key:
            message += " (no API key was sent: pass api_key= or set FDS_API_KEY)"
        if problem.get("instance"):
            message += f" [{problem['instance']}]"
        safe_problem = {k: (self._redact(v) if isinstance(v, str) else v) for k, v in problem.items()}
        return cls(self._redact(message), status=res.status, problem=safe_problem, method=method, path=self._redact(path), headers=res.headers)

    # -- the request -----------------------------------------------------------------------

    def request(
        self,
        path: str,
        params: Params = None,
        *,
        headers: Optional[Mapping[str, str]] = None,
        stream: bool = False,
        ok: Iterable[int] = (200,),
        method: str = "GET",
        body: Optional[bytes] = None,
    ) -> Response:
        """GET `path` (or `method`, with a JSON `body`) with the retry rules; an answer whose status
        is not in `ok` raises its typed error. Past `deadline` seconds (the attempts, the waits
        between them and the reading of the answer; a streamed answer's body is its reader's) the
        call raises TransportError. A POST is sent once: it is retried only after a per-IP 429
        (`rate_limited`, refused before anything ran), never after a broken connection or a 5xx,
        which may come after the server acted on it (an endpoint registered twice)."""
        url = self.url_of(path, params)
        shown = urllib.parse.urlsplit(url)
        shown_path = shown.path + (f"?{shown.query}" if shown.query else "")
        allowed = frozenset(ok)
        waited = 0.0
        ends_at = None if self.deadline is None else self.clock() + self.deadline

        def deadline_passed(what: str) -> errors.TransportError:
            return errors.TransportError(
                self._redact(f"{method} {shown_path}: {what} (the call's deadline: {self.deadline:g} s, Client(deadline=...))"),
                method=method,
                path=shown_path,
            )

        idempotent = method in ("GET", "HEAD", "PUT", "DELETE")
        for attempt in range(self.max_attempts):
            last = attempt + 1 >= self.max_attempts
            if ends_at is not None and self.clock() >= ends_at:
                raise deadline_passed("no answer within the deadline") from None
            try:
                res = self._open(method, url, self._headers(headers), stream, ends_at, body)
            except _DeadlinePassed:
                raise deadline_passed("the answer was not read within the deadline") from None
            except (urllib.error.URLError, http.client.HTTPException, ConnectionError, socket.timeout, OSError) as e:
                reason = getattr(e, "reason", e)
                if ends_at is not None and self.clock() >= ends_at:
                    raise deadline_passed(f"no answer within the deadline ({type(e).__name__})") from None
                backoff = self._backoff(attempt)
                wait = backoff + random.uniform(0, 0.3) * backoff
                if not last and ends_at is not None and self.clock() + wait >= ends_at:
                    raise deadline_passed(f"no answer ({type(e).__name__}), and the next attempt would come after the deadline") from None
                if last or not idempotent or waited + wait > self.max_retry_wait:
                    raise errors.TransportError(
                        self._redact(f"{method} {shown_path}: the server could not be reached ({type(e).__name__}: {reason})"),
                        method=method,
                        path=shown_path,
                    ) from None
                log.debug("%s %s -> %s, retry in %.2f s (attempt %d/%d)", method, shown_path, type(e).__name__, wait, attempt + 1, self.max_attempts)
                self.sleep(wait)
                waited += wait
                continue
            if res.status in allowed:
                log.debug("%s %s -> %d", method, shown_path, res.status)
                return res
            if stream and res.stream is not None:
                try:
                    res.body = self._read(res.stream, url, ends_at)
                except _DeadlinePassed:
                    raise deadline_passed("the answer was not read within the deadline") from None
                finally:
                    res.stream.close()
                res.stream = None
            error = self.error_of(method, shown_path, res)
            if (
                isinstance(error, errors.QuotaExceeded)
                or res.status not in RETRY_STATUSES
                or (not idempotent and not (res.status == 429 and error.code == "rate_limited"))
            ):
                log.debug("%s %s -> %d %s, not retried", method, shown_path, res.status, error.code or "")
                raise error
            backoff = self._backoff(attempt)
            if error.retry_after is not None and error.retry_after >= 0:
                # honour Retry-After, plus up to 30 % jitter so that clients do not come back together
                wait = error.retry_after + random.uniform(0, 0.3) * max(error.retry_after, self.backoff_base)
            else:
                wait = backoff + random.uniform(0, 0.3) * backoff
            if last or waited + wait > self.max_retry_wait:
                log.debug("%s %s -> %d %s, giving up (attempt %d/%d)", method, shown_path, res.status, error.code or "", attempt + 1, self.max_attempts)
                raise error
            if ends_at is not None and self.clock() + wait >= ends_at:
                log.debug("%s %s -> %d %s, the retry would pass the deadline", method, shown_path, res.status, error.code or "")
                raise deadline_passed(f"{res.status}, and its retry in {wait:.1f} s would come after the deadline") from None
            log.debug(
                "%s %s -> %d %s, retry in %.2f s (attempt %d/%d)",
                method, shown_path, res.status, error.code or "", wait, attempt + 1, self.max_attempts,
            )
            self.sleep(wait)
            waited += wait
        raise AssertionError("unreachable")  # pragma: no cover
