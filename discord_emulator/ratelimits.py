"""Discord's rate limits, as its "Rate Limits" topic documents them
(https://docs.discord.com/developers/topics/rate-limits; every rule below names its section).

- **Global Rate Limit**: "All bots can make up to 50 requests per second to our API" (per bot
  token, across all its processes), and "Interaction endpoints are not bound to the bot's Global
  Rate Limit": the interaction callback ``POST /interactions/{id}/{token}/callback`` and the
  interaction webhooks ``/webhooks/{application_id}/{token}…`` never count against it.
- **Per-route rate limits** "account for top-level resources within the path … channels
  (channel_id), guilds (guild_id), and webhooks (webhook_id or webhook_id + webhook_token)": a
  bucket is (its name, that resource); two channels never share one.
- **Header Format**: every limited answer carries ``X-RateLimit-Limit``, ``-Remaining``,
  ``-Reset`` (epoch seconds), ``-Reset-After`` (seconds) and ``-Bucket``; a 429 adds
  ``X-RateLimit-Scope`` (``user``: the bot's own per-route limit, ``global``, or ``shared``: a
  resource's limit, not the bot's fault), and a global 429 ``X-RateLimit-Global: true``.
- **Exceeding A Rate Limit**: 429 with a JSON body ``{"message", "retry_after" (seconds),
  "global"}`` and a ``Retry-After`` header. (discord.py also wants Cloudflare's ``Via`` header on
  a 429, else it takes it for a Cloudflare ban: Discord's own answers carry it.)
- **Invalid Request Limit**: "IP addresses that make too many invalid HTTP requests are
  automatically and temporarily restricted": 10,000 per 10 minutes, counting 401, 403 and 429
  answers, except "429 errors returned with X-RateLimit-Scope: shared". Crossing it is recorded
  as the violation ``invalid_request_limit``.

The per-route bucket sizes are NOT published: "rate limits should not be hard coded into your
app. Instead, your app should parse response headers". The sizes here are the community's
long-observed ones (5 messages per 5 s per channel, …), each settable with :meth:`set_bucket`;
a bot that reads the headers (discord.py does, and sleeps) works with any of them.
``enabled = False`` (``DiscordEmulator(rate_limits=False)``) turns every limit off, for tests
that burst on purpose (many games in one channel); the counters keep counting.

Windows are fixed and measured in real seconds (``time.monotonic``), not the emulator's clock:
the bot sleeps real seconds.
"""

from __future__ import annotations

import contextlib
import math
import re
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

GLOBAL_LIMIT = 50  # requests per GLOBAL_PERIOD per bot token ("Global Rate Limit")
GLOBAL_PERIOD = 1.0
INVALID_LIMIT = 10_000  # invalid requests per INVALID_PERIOD ("Invalid Request Limit")
INVALID_PERIOD = 600.0
INVALID_STATUSES = (401, 403, 429)
DIGITS = re.compile(r"/\d+")


@dataclass
class BucketRule:
    limit: int
    per: float  # seconds


# (method, path pattern, bucket name); the first match names the bucket. The path's first
# (\d+) group after /channels, /guilds or /webhooks is the top-level resource.
ROUTES: list[tuple[str, str, str]] = [
    ("POST", r"/channels/(\d+)/messages", "message_create"),
    ("PATCH", r"/channels/(\d+)/messages/\d+", "message_edit"),
    ("DELETE", r"/channels/(\d+)/messages/\d+", "message_delete"),
    ("*", r"/channels/(\d+)/messages/\d+/reactions.*", "reaction"),
    ("POST", r"/channels/(\d+)/(messages/\d+/)?threads", "thread_create"),
    ("*", r"/channels/(\d+).*", "channel"),
    ("*", r"/guilds/(\d+).*", "guild"),
    ("POST", r"/webhooks/(\d+/[^/]+)", "webhook_execute"),
    ("*", r"/webhooks/(\d+/[^/]+)/messages/.*", "webhook_message"),
    ("PUT", r"/applications/(\d+)/(guilds/\d+/)?commands", "command_sync"),
    ("*", r"/(.*)", "other"),
]

DEFAULT_BUCKETS: dict[str, BucketRule] = {
    "message_create": BucketRule(5, 5.0),  # 5 messages / 5 s per channel
    "message_edit": BucketRule(5, 5.0),  # edits: the same 5 / 5 s per channel
    "message_delete": BucketRule(5, 1.0),
    "reaction": BucketRule(1, 0.25),
    "thread_create": BucketRule(10, 10.0),
    "channel": BucketRule(10, 1.0),
    "guild": BucketRule(10, 1.0),
    "webhook_execute": BucketRule(5, 2.0),  # per webhook id + token (one interaction's)
    "webhook_message": BucketRule(5, 1.0),
    "command_sync": BucketRule(2, 1.0),
    "other": BucketRule(50, 1.0),  # per route (GET /users/{id}, …): only the global limit binds
}


@dataclass
class Window:
    """A fixed window: ``used`` requests since ``started``."""

    started: float = 0.0
    used: int = 0

    def roll(self, now: float, per: float) -> None:
        if now - self.started >= per:
            self.started, self.used = now, 0

    def reset_after(self, now: float, per: float) -> float:
        return max(0.0, self.started + per - now)


@dataclass
class Decision:
    """What a request gets: its headers, and a 429 body when it is refused."""

    headers: dict[str, str] = field(default_factory=dict)
    refused: dict[str, Any] | None = None
    scope: str | None = None


def interaction_route(path: str) -> bool:
    """The callback and the interaction webhooks: "Interaction endpoints are not bound to the
    bot's Global Rate Limit" (Global Rate Limit)."""
    return path.startswith(("/interactions/", "/webhooks/"))


class RateLimits:
    def __init__(self, emulator: Any, *, enabled: bool = True) -> None:
        self.emu = emulator
        self.enabled = enabled
        self.buckets: dict[str, BucketRule] = {
            name: BucketRule(r.limit, r.per) for name, r in DEFAULT_BUCKETS.items()
        }
        self.global_limit = GLOBAL_LIMIT
        self.global_period = GLOBAL_PERIOD
        self.invalid_limit = INVALID_LIMIT
        self.invalid_period = INVALID_PERIOD
        self._windows: dict[tuple[str, str], Window] = {}
        self._global = Window()
        self._invalid = Window()
        self._banned_window = -1.0  # the invalid window already recorded as a violation
        self._routes = [(m, re.compile(p + "$"), name) for m, p, name in ROUTES]
        # counters (kept while disabled too)
        self.bot_token_requests = 0
        self.interaction_requests = 0
        self.responses_429: dict[str, int] = {"user": 0, "global": 0, "shared": 0}
        self.invalid_requests = 0
        self.by_bucket: Counter[str] = Counter()  # bot-token requests by bucket name
        self.refused_by_bucket: Counter[str] = Counter()  # 429s by bucket name ("global")

    @property
    def http_429(self) -> int:
        return sum(self.responses_429.values())

    def set_bucket(self, name: str, limit: int, per: float) -> None:
        """Size a bucket (Discord sends its sizes only in headers: they are ours to choose)."""
        if name not in self.buckets:
            raise KeyError(f"no bucket {name!r}; known: {sorted(self.buckets)}")
        self.buckets[name] = BucketRule(limit, per)
        for key in [k for k in self._windows if k[0] == name]:
            del self._windows[key]

    @contextlib.contextmanager
    def scaled(self, factor: float) -> Iterator[None]:
        """Every window (the buckets' and the global one) times ``factor`` for a while: a run
        whose people act ``1 / factor`` times faster than people do meets the limits as they
        would (benchmarks). ``factor`` 0 counts without refusing, for a run at machine speed."""
        saved = {name: BucketRule(rule.limit, rule.per) for name, rule in self.buckets.items()}
        period, enabled = self.global_period, self.enabled
        if factor <= 0:
            self.enabled = False
        else:
            for name, rule in saved.items():
                self.set_bucket(name, rule.limit, rule.per * factor)
            self.global_period = period * factor
        try:
            yield
        finally:
            self.enabled, self.global_period = enabled, period
            for name, rule in saved.items():
                self.set_bucket(name, rule.limit, rule.per)

    def bucket_of(self, method: str, path: str) -> tuple[str, str]:
        """(bucket name, top-level resource) of a request path (without /api/v10)."""
        for wanted, pattern, name in self._routes:
            found = pattern.match(path)
            if found and wanted in ("*", method):
                if name == "other":  # no top-level resource: one bucket per route
                    return name, method + " " + DIGITS.sub("/{id}", path)
                return name, found.group(1)
        return "other", ""  # pragma: no cover - the last pattern matches everything

    def check(self, method: str, path: str) -> Decision:
        """Count a request and decide: its rate-limit headers, or a 429."""
        now = time.monotonic()
        bound = not interaction_route(path)
        name, resource = self.bucket_of(method, path)
        if bound:
            self.bot_token_requests += 1
            self.by_bucket[name] += 1
        else:
            self.interaction_requests += 1
        if not self.enabled:
            return Decision()
        rule = self.buckets[name]
        window = self._windows.setdefault((name, resource), Window(started=now))
        window.roll(now, rule.per)
        if bound:  # Global Rate Limit: bot-token routes only
            self._global.roll(now, self.global_period)
            if self._global.used >= self.global_limit:
                retry = self._global.reset_after(now, self.global_period)
                self.refused_by_bucket["global"] += 1
                return self._refuse("global", retry, None)
        reset_after = window.reset_after(now, rule.per)
        headers = {
            "X-RateLimit-Limit": str(rule.limit),
            "X-RateLimit-Remaining": str(max(0, rule.limit - window.used - 1)),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": f"emu-{name}",
        }
        if window.used >= rule.limit:  # Per-route: the bot's own limit, scope "user"
            headers["X-RateLimit-Remaining"] = "0"
            self.refused_by_bucket[name] += 1
            return self._refuse("user", reset_after, headers)
        window.used += 1
        if bound:
            self._global.used += 1
        return Decision(headers=headers)

    def _refuse(self, scope: str, retry_after: float, headers: dict[str, str] | None) -> Decision:
        """Exceeding A Rate Limit: 429, ``retry_after`` in the body and ``Retry-After``."""
        retry_after = max(retry_after, 0.001)
        is_global = scope == "global"
        out = dict(headers or {})
        out.update(
            {
                "Retry-After": str(max(1, math.ceil(retry_after))),
                "X-RateLimit-Scope": scope,
                "Via": "1.1 google",  # Discord's answers come through Cloudflare/Google
            }
        )
        if is_global:
            out["X-RateLimit-Global"] = "true"
        body = {
            "message": "You are being rate limited.",
            "retry_after": round(retry_after, 3),
            "global": is_global,
        }
        self.responses_429[scope] += 1
        return Decision(headers=out, refused=body, scope=scope)

    def answered(self, status: int, scope: str | None = None) -> None:
        """Invalid Request Limit: count 401/403/429 (not a 429 of scope "shared"); past the
        limit within the window, record the violation (once a window)."""
        if status not in INVALID_STATUSES or (status == 429 and scope == "shared"):
            return
        now = time.monotonic()
        self._invalid.roll(now, self.invalid_period)
        self._invalid.used += 1
        self.invalid_requests += 1
        if self._invalid.used > self.invalid_limit and self._banned_window != self._invalid.started:
            self._banned_window = self._invalid.started
            self.emu._violation(
                "invalid_request_limit",
                f"more than {self.invalid_limit} invalid requests (401/403/429) in "
                f"{self.invalid_period:.0f} s: Discord bans the IP for a while",
            )

    def summary(self) -> dict[str, Any]:
        return {
            "bot_token_requests": self.bot_token_requests,
            "interaction_requests": self.interaction_requests,
            "http_429": self.http_429,
            "http_429_by_scope": dict(self.responses_429),
            "invalid_requests": self.invalid_requests,
            "by_bucket": dict(self.by_bucket),
            "refused_by_bucket": dict(self.refused_by_bucket),
        }
