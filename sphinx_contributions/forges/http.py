"""The HTTP session of ``contributions sync``: httpx, with the token, conditional requests, retries with
backoff, pagination by ``Link`` headers, and a clean stop at a rate limit.

Only ``contributions sync`` and ``contributions new`` import this module (httpx is the ``sync`` extra);
the build never does.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import httpx

from .base import MissingError, UnchangedError

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

#: attempts per request (the first and two retries) on a 5xx answer, a timeout or a dropped connection
ATTEMPTS = 3
#: the wait before retry n (1, 2, …) is BACKOFF * 2 ** (n - 1) seconds
BACKOFF = 1.0
#: seconds to connect, and to wait for an answer
TIMEOUT = 10.0


class ForgeError(Exception):
    """A request that failed for good (after its retries); the message names the address and the reason."""


class RateLimitError(ForgeError):
    """The forge refused for its rate limit (403 or 429); ``reset`` is when it lifts, when it says."""

    def __init__(self, url: str, reset: datetime | None) -> None:
        self.url = url
        self.reset = reset
        when = f"retry after {reset:%Y-%m-%d %H:%M:%S} UTC" if reset else "retry later"
        super().__init__(f"rate limit reached at {url}; {when}")


def rate_limit_reset(response: httpx.Response) -> datetime | None:
    """When a rate limit lifts: ``X-RateLimit-Reset`` (GitHub, epoch seconds), ``RateLimit-Reset``
    (GitLab), or ``Retry-After`` (seconds)."""
    for name in ("x-ratelimit-reset", "ratelimit-reset"):
        value = response.headers.get(name, "")
        if value.isdigit():
            return datetime.fromtimestamp(int(value), UTC)
    after = response.headers.get("retry-after", "")
    if after.isdigit():
        return datetime.fromtimestamp(int(time.time()) + int(after), UTC)
    return None


def _is_rate_limit(response: httpx.Response) -> bool:
    if response.status_code == 429:
        return True
    if response.status_code != 403:
        return False
    if response.headers.get("x-ratelimit-remaining") == "0" or "retry-after" in response.headers:
        return True
    return "rate limit" in response.text.lower()


class Session:
    """One forge's HTTP session. ``client`` is injected (tests give one whose transport talks to a local
    server; real runs give :func:`client`); ``sleep`` is the backoff's wait."""

    def __init__(
        self,
        client: httpx.Client,
        *,
        attempts: int = ATTEMPTS,
        backoff: float = BACKOFF,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.client = client
        #: the API's address: ETags are stored under the path below it (``/repos/o/r/pulls/1``), so a lock
        #: reads the same whichever address (``GITHUB_API_URL``) the API had
        self.api_base = ""
        self.attempts = attempts
        self.backoff = backoff
        self.sleep = sleep

    def get(
        self, url: str, *, params: dict[str, str] | None = None, etags: dict[str, str] | None = None
    ) -> httpx.Response:
        """GET ``url`` (absolute); with ``etags``, conditionally on the ETag stored under its path below
        :attr:`api_base`, and the new ETag stored there. Raises :class:`UnchangedError` (304),
        :class:`MissingError` (404), :class:`RateLimitError` and :class:`ForgeError`."""
        headers = {}
        key = url.removeprefix(self.api_base) if self.api_base else url
        if etags is not None and key in etags:
            headers["If-None-Match"] = etags[key]
        for attempt in range(1, self.attempts + 1):
            try:
                response = self.client.get(url, params=params, headers=headers)
            except (httpx.TimeoutException, httpx.TransportError) as error:
                if attempt == self.attempts:
                    raise ForgeError(f"{url}: {type(error).__name__} after {attempt} attempts") from None
                self.sleep(self.backoff * 2 ** (attempt - 1))
                continue
            if response.status_code >= 500 and attempt < self.attempts:
                self.sleep(self.backoff * 2 ** (attempt - 1))
                continue
            break
        if response.status_code == 304:
            raise UnchangedError(url)
        if response.status_code == 404:
            raise MissingError(url)
        if _is_rate_limit(response):
            raise RateLimitError(url, rate_limit_reset(response))
        if response.status_code >= 400:
            raise ForgeError(f"{url}: HTTP {response.status_code} {response.reason_phrase}")
        if etags is not None and "etag" in response.headers:
            etags[key] = response.headers["etag"]
        return response

    def json(self, url: str, *, params: dict[str, str] | None = None, etags: dict[str, str] | None = None) -> Any:
        response = self.get(url, params=params, etags=etags)
        try:
            return response.json()
        except ValueError:
            raise ForgeError(f"{url}: the answer is not JSON") from None

    def pages(
        self, url: str, *, params: dict[str, str] | None = None, etags: dict[str, str] | None = None
    ) -> Iterator[Any]:
        """Each page of a list, following ``Link: <…>; rel="next"``; only the first is asked conditionally
        (a list that changed changes its first page: the forges list newest first)."""
        response = self.get(url, params=params, etags=etags)
        while True:
            try:
                yield response.json()
            except ValueError:
                raise ForgeError(f"{response.url}: the answer is not JSON") from None
            following = response.links.get("next", {}).get("url")
            if not following:
                return
            response = self.get(following)


def client(token_header: tuple[str, str] | None, *, timeout: float = TIMEOUT) -> httpx.Client:
    """The httpx client of a real run: JSON, a user agent, the token when there is one."""
    from ..version import __version__

    headers = {"Accept": "application/json", "User-Agent": f"sphinx-contributions/{__version__}"}
    if token_header is not None:
        headers[token_header[0]] = token_header[1]
    return httpx.Client(headers=headers, timeout=timeout, follow_redirects=True)
