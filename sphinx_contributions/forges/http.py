"""The HTTP session of ``contributions sync``: httpx, with the token sent only to the API's own origin,
conditional requests from a cache folder (:mod:`.cache`), retries and rate limits as the forges document
them, pagination by ``Link`` headers, and a deadline for each whole request.

- **Credentials** go only to the configured API's origin (scheme, host and port): they are a header of each
  request the session makes there, never of the client. A redirect or a ``Link`` to another origin is
  refused (:class:`OffOriginError`), never followed and never taken as facts; redirects within the origin
  are followed (a renamed repository). With a token, an API address that is not ``https`` is refused unless
  it is a loopback address (:class:`InsecureError`). No message, exception or file holds a token.
- **Limits** (GitHub's guidance, which GitLab and Gitea follow): a 403 or 429 with ``retry-after`` (seconds,
  or an HTTP date as RFC 9110 allows) waits that long; with ``x-ratelimit-remaining: 0`` until
  ``x-ratelimit-reset`` (a reset already past: the backoff, never a retry without a wait); a secondary
  limit without either a minute, and the message names no time it does not know. A wait up to
  ``max_wait`` seconds is waited, then the request is asked again; a longer one raises
  :class:`RateLimitError` (the sync stops that forge, not the others). A 5xx is retried after its
  ``Retry-After`` (either form), else with backoff.
- **Failures**: a 401 (:class:`HostError`) says the API's message and which variable held the token; a
  connection that cannot be made (:class:`HostError`) names the origin. Both stop the forge's other
  write-ups.

Only ``contributions sync`` and ``contributions new`` import this module (httpx is the ``sync`` extra);
the build never does.

Not urllib3's ``Retry`` nor stamina, weighed for issue 35 (measured against urllib3 2.8 and stamina 26.1;
what each would lose is tested in ``tests/test_sync.py``): ``Retry`` drives urllib3's own connection pool,
not httpx, and its ``parse_retry_after`` reads the clock itself (no ``now`` to test an HTTP date with) and
raises on a value it cannot read, where :func:`retry_after` falls back to the rate-limit headers. stamina
retries on exceptions and waits through its own sleep, with jitter by default (its testing mode makes every
wait 0): the waits the tests hold exactly through the session's ``sleep`` (``[3.0]`` for ``Retry-After:
3``, ``[60.0]`` for a secondary limit, ``[1.5, 1.5]`` for a reset already past) could no longer be seen,
and a 5xx kept for its message after the last attempt would have to become an exception and back.
"""

from __future__ import annotations

import ipaddress
import json
import socket
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import TYPE_CHECKING, Any

import httpx

from .base import Credentials, MissingError

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from .cache import AnswerCache

#: attempts per request (the first and two retries) on a 5xx answer, a timeout, a dropped connection or a
#: short rate-limit wait
ATTEMPTS = 3
#: the wait before retry n (1, 2, …) is BACKOFF * 2 ** (n - 1) seconds
BACKOFF = 1.0
#: seconds a whole request may take (connecting, and every byte of the answer)
TIMEOUT = 10.0
#: the longest wait for a rate limit or a Retry-After that the session waits out itself
MAX_WAIT = 60.0
#: a secondary rate limit that says no time: GitHub asks for at least a minute
SECONDARY_WAIT = 60.0
MAX_REDIRECTS = 5


class ForgeError(Exception):
    """A request that failed for good (after its retries); the message names the address and the reason."""


class HostError(ForgeError):
    """A failure that every other request to the same API would meet too (no connection, a refused token,
    an address the token may not go to): the sync skips the forge's other write-ups."""


def _unresolved(error: BaseException) -> bool:
    """Whether a transport error comes from a host name that does not resolve (``socket.gaierror`` in its
    chain of causes: httpx wraps httpcore's error, which wraps the socket's)."""
    seen: BaseException | None = error
    for _ in range(8):
        if seen is None:
            return False
        if isinstance(seen, socket.gaierror):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


class UnreachableError(HostError):
    """No connection to the API's host (offline, refused, no such name): every forge whose API is on that
    origin is skipped."""

    def __init__(self, message: str, origin: Origin) -> None:
        super().__init__(message)
        self.origin = origin


class InsecureError(HostError):
    """A token would go to a non-loopback API address over plain ``http``."""


class OffOriginError(ForgeError):
    """A redirect or ``Link`` to another origin than the API's: refused."""


class RateLimitError(ForgeError):
    """The forge refused for its rate limit (403 or 429) for longer than the session waits; ``reset`` is
    when it lifts, when it says."""

    def __init__(self, url: str, reset: datetime | None) -> None:
        self.url = url
        self.reset = reset
        when = f"retry after {reset:%Y-%m-%d %H:%M:%S} UTC" if reset else "retry later"
        super().__init__(f"rate limit reached at {url}; {when}")


Origin = tuple[str, str, int]


def api_origin(base: str) -> Origin:
    """The origin of an API address (for the sync to know which write-ups share a host)."""
    return origin_of(httpx.URL(base))


def origin_of(url: httpx.URL) -> Origin:
    port = url.port or {"https": 443, "http": 80}.get(url.scheme, 0)
    return url.scheme, url.host.lower(), port


def retry_after(value: str, now: float) -> float | None:
    """Seconds a ``Retry-After`` value asks to wait from ``now``: delay-seconds (``120``) or an HTTP date
    (``Wed, 21 Oct 2015 07:28:00 GMT``, RFC 9110 section 10.2.3; one already past is no wait); None when
    there is none or it is neither."""
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:  # an HTTP date is GMT
        when = when.replace(tzinfo=UTC)
    return max(0.0, when.timestamp() - now)


def is_loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _shown_origin(origin: Origin) -> str:
    scheme, host, port = origin
    default = {"https": 443, "http": 80}.get(scheme)
    return f"{scheme}://{host}" + ("" if port == default else f":{port}")


@dataclass
class Got:
    """One answer, read whole within the deadline."""

    url: httpx.URL
    status: int
    reason: str
    headers: httpx.Headers
    body: bytes
    links: dict[str, dict[str, str]]

    def message(self) -> str:
        """The API's own words (``{"message": "Bad credentials"}``), with the detail of each of GitHub's
        ``errors`` (a 422's ``{"message": "Validation Failed", "errors": [{"resource": "Issue", "field":
        "title", "code": "missing_field"}]}``, or an error's own ``message``), or ''."""
        try:
            data = json.loads(self.body)
        except ValueError:
            return ""
        message = data.get("message") if isinstance(data, dict) else None
        if isinstance(message, dict):  # GitLab: {"message": {"field": ["error"]}}
            message = "; ".join(
                f"{k} {', '.join(map(str, v)) if isinstance(v, list) else v}" for k, v in message.items()
            )
        errors = data.get("errors") if isinstance(data, dict) else None
        details = [_error_detail(error) for error in errors] if isinstance(errors, list) else []
        details = [detail for detail in details if detail]
        if details:
            message = f"{message or ''}: {'; '.join(details)}".lstrip(": ")
        return " ".join(str(message).split())[:300] if message else ""


def _error_detail(error: object) -> str:
    """One of GitHub's ``errors``: its own ``message``, else ``resource field code``; a plain string as
    it is."""
    if isinstance(error, str):
        return error
    if not isinstance(error, dict):
        return ""
    if error.get("message"):
        return str(error["message"])
    return " ".join(str(error[key]) for key in ("resource", "field", "code") if error.get(key))


class Session:
    """One forge's HTTP session. ``client`` is injected (tests give one whose transport talks to a local
    server; real runs give :func:`client`); ``sleep`` waits (backoff, limits); ``cache`` keeps the ETags
    and answers of conditional requests."""

    def __init__(
        self,
        client: httpx.Client,
        *,
        credentials: Credentials | None = None,
        token_names: tuple[str, ...] = (),
        label: str = "the forge",
        attempts: int = ATTEMPTS,
        backoff: float = BACKOFF,
        timeout: float = TIMEOUT,
        max_wait: float = MAX_WAIT,
        sleep: Callable[[float], None] = time.sleep,
        cache: AnswerCache | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        self.client = client
        self.credentials = credentials
        self.token_names = token_names
        self.label = label
        self.api_base = ""
        self.origin: Origin | None = None
        self.attempts = attempts
        self.backoff = backoff
        self.timeout = timeout
        self.max_wait = max_wait
        self.sleep = sleep
        self.cache = cache
        #: headers of every request to the API (the forge's media type and version)
        self.headers = dict(headers or {})
        #: how many answers were new (200), not from the cache (304): the sync's "(unchanged)"
        self.fresh = 0

    def set_base(self, base: str, env: str = "") -> None:
        """The API's address: its origin is the only one credentials go to."""
        self.api_base = base.rstrip("/")
        url = httpx.URL(self.api_base)
        if url.scheme not in ("http", "https") or not url.host:
            raise HostError(f"{env or 'the API address'} is {self.api_base!r}, not an http(s) address")
        self.origin = origin_of(url)
        if self.credentials is not None and url.scheme != "https" and not is_loopback(url.host):
            raise InsecureError(
                f"the {self.label} API address {self.api_base} ({env or 'its setting'}) is not https: the token in "
                f"{self.credentials.env} is sent only over https (or to a loopback address); use an https "
                f"address, or unset {self.credentials.env}"
            )

    def _key(self, url: httpx.URL) -> str:
        """A cache key: whether a token is sent (ETags vary by ``Authorization``), and the address below the
        API's, so a cache reads the same whichever address the API had."""
        text = str(url)
        below = text.removeprefix(self.api_base) if self.api_base and text.startswith(self.api_base) else text
        return f"{'token' if self.credentials else 'anonymous'} {below}"

    def _check(self, url: httpx.URL, why: str) -> None:
        if self.origin is not None and origin_of(url) != self.origin:
            raise OffOriginError(
                f"refused {why} {url.copy_with(query=None)}: it is not on the {self.label} API's origin "
                f"({_shown_origin(self.origin)}); nothing was sent there and nothing taken from it"
            )

    def _once(self, url: httpx.URL, headers: dict[str, str]) -> Got:
        """One request, the whole answer read within :attr:`timeout` seconds (a server that sends a byte
        every few seconds does not stall the run)."""
        deadline = time.monotonic() + self.timeout
        with self.client.stream("GET", url, headers=headers, timeout=self.timeout) as response:
            chunks = []
            for chunk in response.iter_bytes():
                chunks.append(chunk)
                if time.monotonic() > deadline:
                    raise httpx.ReadTimeout("the whole-request deadline passed", request=response.request)
            links = {str(rel): link for rel, link in response.links.items()}
            return Got(
                response.url, response.status_code, response.reason_phrase, response.headers, b"".join(chunks), links
            )

    def _limit_wait(self, got: Got) -> tuple[float, datetime | None] | None:
        """Seconds to wait for a rate limit (GitHub's order: ``retry-after``, then ``x-ratelimit-reset``
        when nothing remains, then a minute for a secondary limit) and when it lifts, where the answer
        says (None where it does not); None when the answer is no limit."""
        if got.status not in (403, 429):
            return None
        headers = got.headers
        remaining = headers.get("x-ratelimit-remaining", headers.get("ratelimit-remaining", ""))
        after = headers.get("retry-after", "").strip()
        secondary = "rate limit" in got.message().lower()
        if not (got.status == 429 or remaining == "0" or after or secondary):
            return None
        now = time.time()
        wait = retry_after(after, now)
        if wait is not None:
            return wait, datetime.fromtimestamp(int(now + wait), UTC)
        reset = headers.get("x-ratelimit-reset", headers.get("ratelimit-reset", "")).strip()
        if remaining == "0" and reset.isdigit():
            return max(self.backoff, int(reset) - now), datetime.fromtimestamp(int(reset), UTC)
        return SECONDARY_WAIT, None

    def _get(self, url: httpx.URL, etag: str | None, why: str = "the address") -> Got:
        """GET ``url``: 200 or 304, else an exception. Same-origin redirects are followed; the rest as the
        module says."""
        for _ in range(MAX_REDIRECTS + 1):
            self._check(url, why)
            headers = dict(self.headers)
            if self.credentials is not None:
                headers[self.credentials.header] = self.credentials.value
            if etag is not None:
                headers["If-None-Match"] = etag
            got = self._attempts(url, headers)
            location = got.headers.get("location")
            if got.status in (301, 302, 303, 307, 308) and location:
                url, why = got.url.join(location), f"the redirect from {got.url.copy_with(query=None)} to"
                continue
            return self._judge(got)
        raise ForgeError(f"{url}: more than {MAX_REDIRECTS} redirects")

    def _attempts(self, url: httpx.URL, headers: dict[str, str]) -> Got:
        shown = url.copy_with(query=None) if "page" not in url.params else url
        for attempt in range(1, self.attempts + 1):
            last = attempt == self.attempts
            try:
                got = self._once(url, headers)
            except httpx.TimeoutException:
                if last:
                    raise ForgeError(
                        f"{shown}: no whole answer within {self.timeout:g} s, after {attempt} attempts"
                    ) from None
                self.sleep(self.backoff * 2 ** (attempt - 1))
                continue
            except httpx.TransportError as error:
                if _unresolved(error):  # offline, or no such host: a retry seconds later finds the same
                    where = origin_of(url)
                    raise UnreachableError(
                        f"cannot reach {_shown_origin(where)}: its name does not resolve (offline, or no such "
                        "host); not retried",
                        where,
                    ) from None
                if last:
                    where = origin_of(url)
                    raise UnreachableError(
                        f"cannot reach {_shown_origin(where)}: {type(error).__name__} after {attempt} attempts", where
                    ) from None
                self.sleep(self.backoff * 2 ** (attempt - 1))
                continue
            limit = self._limit_wait(got)
            if limit is not None:
                if last or limit[0] > self.max_wait:
                    raise RateLimitError(str(shown), limit[1])
                self.sleep(limit[0])
                continue
            if got.status >= 500 and not last:
                said = retry_after(got.headers.get("retry-after", ""), time.time())
                wait = said if said is not None else self.backoff * 2 ** (attempt - 1)
                if wait > self.max_wait:
                    return got
                self.sleep(wait)
                continue
            return got
        raise AssertionError("unreachable")  # pragma: no cover

    def _judge(self, got: Got) -> Got:
        status, message = got.status, got.message()
        url = got.url.copy_with(query=None) if "page" not in got.url.params else got.url
        said = f": {message}" if message and message.lower() != got.reason.lower() else ""
        if status in (200, 304):
            return got
        if status == 404:
            raise MissingError(f"{url}{said}")
        if status == 401:
            if self.credentials is not None:
                raise HostError(
                    f"the {self.label} API refused the token in {self.credentials.env} (HTTP 401{said}); "
                    f"renew it or unset {self.credentials.env}"
                )
            names = " or ".join(self.token_names) or "a token"
            raise HostError(f"{url}: HTTP 401{said}; this API wants a token ({names})")
        if status == 403:
            held = f" (the token in {self.credentials.env} may lack access)" if self.credentials else ""
            raise ForgeError(f"{url}: HTTP 403{said}{held}")
        raise ForgeError(f"{url}: HTTP {status} {got.reason}{said}")

    def _decode(self, got: Got) -> Any:
        try:
            return json.loads(got.body)
        except ValueError:
            raise ForgeError(f"{got.url.copy_with(query=None)}: the answer is not JSON") from None

    def json(self, url: str, *, params: dict[str, str] | None = None, conditional: bool = True) -> Any:
        """The JSON of ``url`` (absolute, on the API's origin). Conditional requests send the cached ETag;
        a 304 gives the cached answer."""
        target = httpx.URL(url, params=params)
        key = self._key(target)
        cached = self.cache.get(key) if (conditional and self.cache is not None) else None
        got = self._get(target, cached[0] if cached else None)
        if got.status == 304 and cached is not None:
            return cached[1]
        data = self._decode(got)
        self.fresh += 1
        etag = got.headers.get("etag")
        if conditional and self.cache is not None and etag:
            self.cache.put(key, etag, data)
        return data

    def pages(
        self, url: str, *, params: dict[str, str] | None = None, conditional: bool = True, field: str | None = None
    ) -> list[Any]:
        """Every item of a list, following ``Link: <…>; rel="next"`` (on the API's origin only); ``field``:
        the list is that field of each page's object (GitHub's search). Only the first page is asked
        conditionally: a list that changed changes its first page (the forges list newest first); a 304
        gives every page's items as cached."""
        target = httpx.URL(url, params=params)
        key = self._key(target)
        cached = self.cache.get(key) if (conditional and self.cache is not None) else None
        got = self._get(target, cached[0] if cached else None)
        if got.status == 304 and cached is not None:
            found: list[Any] = cached[1]
            return found
        first = got
        found = []
        for data, page in self._follow(got, target):
            if field is not None and isinstance(data, dict):
                data = data.get(field)
            if not isinstance(data, list):
                raise ForgeError(f"{page.url.copy_with(query=None)}: the answer is not a list")
            found.extend(data)
        self.fresh += 1
        etag = first.headers.get("etag")
        if conditional and self.cache is not None and etag:
            self.cache.put(key, etag, found)
        return found

    def walk(self, url: str, *, params: dict[str, str] | None = None) -> Iterator[tuple[Any, Got]]:
        """Each page of a list as it comes (never cached), with its answer (a search's headers), following
        ``Link: <…>; rel="next"`` on the API's origin: what was read stays read when a later page fails
        (a rate limit halfway through a search)."""
        target = httpx.URL(url, params=params)
        yield from self._follow(self._get(target, None), target)

    def _follow(self, got: Got, target: httpx.URL) -> Iterator[tuple[Any, Got]]:
        """The decoded pages from ``got`` on, each once: a ``next`` page seen before is refused."""
        first = got
        seen = {str(target)}
        while True:
            yield self._decode(got), got
            following = got.links.get("next", {}).get("url")
            if not following:
                return
            after = got.url.join(following)
            if str(after) in seen:
                raise ForgeError(f"{after}: the list's pages go round in a circle")
            seen.add(str(after))
            got = self._get(after, None, why=f"the next page ({first.url.copy_with(query=None)}'s Link)")


def client(*, timeout: float = TIMEOUT) -> httpx.Client:
    """The httpx client of a real run: a user agent, no credentials (the session adds them to each request
    to the API's origin), no redirects of its own (the session follows only those within the origin)."""
    from ..version import __version__

    return httpx.Client(
        headers={"User-Agent": f"sphinx-contributions/{__version__}"}, timeout=timeout, follow_redirects=False
    )
