"""The safety rules of :class:`~scrapesmith.web.fetch.HttpFetcher`, applied to what a browser loads.

A browser needs the same three rules as the HTTP client (address guard, robots.txt, politeness), but at
three different moments: before a navigation we start (raise a clear error), inside Chromium's request
interception for everything a page triggers (abort silently, remember why), and in the loopback proxy for
redirect hops. :class:`BrowserPolicy` answers all three from one set of rule objects, which it normally
shares with an ``HttpFetcher`` so that robots.txt is fetched once and both paths count against the same
per-host politeness budget.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from scrapesmith.web.browser.proxy import Refusal
from scrapesmith.web.fetch import HttpFetcher
from scrapesmith.web.page import FetchError, RobotsDisallowed
from scrapesmith.web.safety import AddressGuard, HostThrottle, RobotsPolicy


@dataclass
class BrowserPolicy:
    """Address guard, optional robots.txt policy and per-host throttle for one browser runtime."""

    guard: AddressGuard
    robots: RobotsPolicy | None
    throttle: HostThrottle
    user_agent: str

    @classmethod
    def from_http(cls, http: HttpFetcher) -> BrowserPolicy:
        """Share ``http``'s rules (and its robots.txt cache and politeness state) and its user agent."""
        return cls(guard=http.guard, robots=http.robots, throttle=http.throttle, user_agent=http.user_agent)

    @classmethod
    def from_settings(
        cls,
        *,
        allow_hosts: Iterable[str] | None = None,
        allow_private: bool = False,
        respect_robots: bool = True,
        delay: float | None = None,
        max_per_host: int | None = None,
    ) -> BrowserPolicy:
        """Rules built like ``HttpFetcher``'s defaults; robots.txt is fetched over HTTP, not rendered."""
        http = HttpFetcher(
            allow_hosts=allow_hosts,
            allow_private=allow_private,
            respect_robots=respect_robots,
            delay=delay,
            max_per_host=max_per_host,
        )
        return cls.from_http(http)

    def admit(self, url: str) -> None:
        """Raise the fetch error a navigation to ``url`` deserves, before anything is sent."""
        self.guard.check(url)
        if self.robots is not None and not self.robots.allowed(url):
            raise RobotsDisallowed(url, "robots.txt disallows fetching this URL")

    def address_refusal(self, url: str) -> Refusal | None:
        """Why a request to ``url`` may not be sent at all, or ``None``."""
        try:
            self.guard.check(url)
        except FetchError as exc:
            return Refusal(url, exc.reason, str(exc))
        return None

    def navigation_refusal(self, url: str) -> Refusal | None:
        """Why a top-level navigation to ``url`` may not happen (address or robots.txt), or ``None``."""
        try:
            self.admit(url)
        except FetchError as exc:
            return Refusal(url, exc.reason, str(exc))
        return None

    def robots_refusal(self, url: str) -> Refusal | None:
        """Robots.txt alone (the proxy has already checked the address it is about to connect to)."""
        if self.robots is None:
            return None
        try:
            if self.robots.allowed(url):
                return None
        except FetchError as exc:
            return Refusal(url, exc.reason, str(exc))
        return Refusal(url, RobotsDisallowed.reason, f"{url}: robots.txt disallows fetching this URL")

    def wait_turn(self, url: str) -> None:
        """Space a navigation the page started itself from the previous request to the same origin."""
        try:
            with self.throttle.slot(url):
                return
        except FetchError:
            return
