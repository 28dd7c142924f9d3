"""The bot's Prometheus metrics, in a registry of its own (``GET /metrics``: :mod:`bot.app.health`).

What it measures, and where each measure comes from:

* interactions answered and how long each took: every interaction discord.py receives is noted
  (:meth:`Metrics.received`, from the bot's ``on_interaction``) with its kind; its answer is the
  POST to ``/interactions/<id>/<token>/callback`` (one per interaction: a reply, a deferral, an
  update of the clicked message or autocomplete's choices), seen through the ``aiohttp``
  ``TraceConfig`` discord.py accepts as ``http_trace`` (:meth:`Metrics.trace_config`). The
  latency runs from the interaction's creation, read from its id (Discord's clock, as
  Discord's three seconds to answer run), to the answer's response: what the player waits.
* HTTP 429s: every response of Discord with status 429, on the same trace (discord.py's own
  requests and the interaction webhooks share its session), by ``X-RateLimit-Scope``.
* commit latency: the database's group-commit writer calls :meth:`Metrics.committed` after each
  batch it commits (``Store.observe_commits``); ``db`` itself knows nothing of Prometheus.
* live games and gateway latency: read when scraped, from the callable the bot gives
  (:class:`Snapshot`).

Labels take values from small fixed sets only (a forged interaction cannot add a series).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord
from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

#: What ``/metrics`` answers with (Prometheus' text exposition format, version 0.0.4).
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

#: The label ``kind`` of an interaction, by its type.
KINDS: Mapping[discord.InteractionType, str] = {
    discord.InteractionType.component: "click",
    discord.InteractionType.application_command: "command",
    discord.InteractionType.autocomplete: "autocomplete",
    discord.InteractionType.modal_submit: "modal",
}
#: ``X-RateLimit-Scope`` of a 429 (Discord's "Rate Limits" page); "unknown" without one.
SCOPES = ("user", "global", "shared")
#: Seconds: Discord drops an interaction not answered within 3 s.
ANSWER_BUCKETS = (0.05, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 2.5, 3.0, 5.0, 10.0)
COMMIT_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
#: Interactions noted and not yet answered, at most (the oldest are forgotten first).
PENDING_LIMIT = 4096

_CALLBACK = re.compile(r"/interactions/([0-9]+)/[^/]+/callback$")
_DISCORD_EPOCH_MS = 1_420_070_400_000


@dataclass(frozen=True)
class Snapshot:
    """The bot's state at a scrape: live lobbies and games by status, and each shard of this
    process as (latency in seconds, connected)."""

    live: Mapping[str, int] = field(default_factory=dict)
    shards: Mapping[int, tuple[float, bool]] = field(default_factory=dict)


def created_at(interaction_id: int) -> float:
    """The Unix time Discord created a snowflake (its top 42 bits: milliseconds since 2015)."""
    return ((interaction_id >> 22) + _DISCORD_EPOCH_MS) / 1000


class Metrics:
    """The bot's counters, histograms and gauges; ``render()`` is the scrape's body."""

    def __init__(self, snapshot: Callable[[], Snapshot] = Snapshot) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.answered = Counter(
            "cribbage_interactions_answered",
            "Interactions (clicks, slash commands, ...) the bot answered, by kind",
            ["kind"],
            registry=self.registry,
        )
        self.answer_latency = Histogram(
            "cribbage_interaction_answer_seconds",
            "Seconds from an interaction's creation (its id) to the bot's answer, by kind",
            ["kind"],
            buckets=ANSWER_BUCKETS,
            registry=self.registry,
        )
        self.commit_latency = Histogram(
            "cribbage_db_commit_seconds",
            "Seconds one group commit of the games' actions took (BEGIN to COMMIT)",
            buckets=COMMIT_BUCKETS,
            registry=self.registry,
        )
        self.committed = Counter(
            "cribbage_db_committed_actions",
            "Game actions written by the group commit",
            registry=self.registry,
        )
        self.rate_limited = Counter(
            "cribbage_discord_rate_limited",
            "HTTP 429 responses from Discord, by X-RateLimit-Scope",
            ["scope"],
            registry=self.registry,
        )
        for kind in KINDS.values():  # every series from the start, at 0: rates need no gap
            self.answered.labels(kind=kind)
            self.answer_latency.labels(kind=kind)
        for scope in (*SCOPES, "unknown"):
            self.rate_limited.labels(scope=scope)
        self.registry.register(_StateCollector(snapshot))
        self._pending: dict[int, str] = {}

    # ------------------------------------------------------------------ interactions

    def received(self, interaction: discord.Interaction[Any]) -> None:
        """Note an interaction until its answer (its kind labels the answer)."""
        kind = KINDS.get(interaction.type)
        if kind is None:  # a ping: discord.py never answers one over the gateway
            return
        self._pending[interaction.id] = kind
        while len(self._pending) > PENDING_LIMIT:  # never answered: forget the oldest
            del self._pending[next(iter(self._pending))]

    def answer_seen(self, path: str, status: int, now: float | None = None) -> None:
        """A response to a request of the bot: an interaction's answer when ``path`` is its
        callback (counted once, on success); a 429 wherever it is."""
        found = _CALLBACK.search(path)
        if found is None or not 200 <= status < 300:
            return
        interaction_id = int(found.group(1))
        kind = self._pending.pop(interaction_id, None)
        if kind is None:  # not noted (e.g. received before a restart): kind unknown
            return
        waited = (time.time() if now is None else now) - created_at(interaction_id)
        self.answered.labels(kind=kind).inc()
        self.answer_latency.labels(kind=kind).observe(max(0.0, waited))

    def rate_limit_seen(self, scope: str | None) -> None:
        """Count one 429 (``scope``: its ``X-RateLimit-Scope`` header)."""
        scope = (scope or "").lower()
        self.rate_limited.labels(scope=scope if scope in SCOPES else "unknown").inc()

    def trace_config(self) -> aiohttp.TraceConfig:
        """The ``http_trace`` for discord.py's HTTP session: sees each response's status."""
        trace = aiohttp.TraceConfig()

        async def on_request_end(
            session: aiohttp.ClientSession,
            context: SimpleNamespace,
            params: aiohttp.TraceRequestEndParams,
        ) -> None:
            status = params.response.status
            if status == 429:
                self.rate_limit_seen(params.response.headers.get("X-RateLimit-Scope"))
            elif params.method == "POST":
                self.answer_seen(params.url.path, status)

        trace.on_request_end.append(on_request_end)
        return trace

    # ------------------------------------------------------------------ the database

    def commit_seen(self, seconds: float, actions: int) -> None:
        """One group commit: ``actions`` written in ``seconds`` (the store's commit observer)."""
        self.commit_latency.observe(seconds)
        self.committed.inc(actions)

    # ------------------------------------------------------------------ the scrape

    def render(self) -> bytes:
        """Every metric in Prometheus' text format (:data:`CONTENT_TYPE`)."""
        return generate_latest(self.registry)


class _StateCollector(Collector):
    """The gauges read at each scrape from the bot's :class:`Snapshot`."""

    def __init__(self, snapshot: Callable[[], Snapshot]) -> None:
        self._snapshot = snapshot

    def describe(self) -> list[Metric]:
        return []  # the families are only known when collected

    def collect(self) -> Iterator[Metric]:
        state = self._snapshot()
        live = GaugeMetricFamily(
            "cribbage_live_games",
            "Open lobbies and games in progress, by status",
            labels=["status"],
        )
        for status in ("lobby", "active"):
            live.add_metric([status], state.live.get(status, 0))
        latency = GaugeMetricFamily(
            "cribbage_gateway_latency_seconds",
            "Seconds between a gateway heartbeat and its acknowledgement, by shard",
            labels=["shard"],
        )
        connected = GaugeMetricFamily(
            "cribbage_gateway_connected",
            "1 when the shard's gateway connection is open, else 0",
            labels=["shard"],
        )
        for shard, (seconds, up) in sorted(state.shards.items()):
            latency.add_metric([str(shard)], seconds)
            connected.add_metric([str(shard)], 1.0 if up else 0.0)
        yield from (live, latency, connected)
