"""The optional HTTP endpoint: ``GET /healthz`` and ``GET /metrics`` (Prometheus).

Off unless ``CRIBBAGE_HTTP_PORT`` is set (:func:`http_settings`); it listens on
``CRIBBAGE_HTTP_HOST`` (default ``127.0.0.1``: this machine only; a container sets
``0.0.0.0``). The bot serves it with aiohttp on its own event loop (:class:`Endpoint`), from
``setup_hook`` until ``close``.

* ``/healthz``: ``200 ok`` when the check finds nothing wrong (the bot's: every gateway shard of
  this process connected, the database takes a write), else ``503`` and one short line per
  problem. The answer names no file, URL or error text: the port may face a network; the
  bot's log has the details.
* ``/metrics``: :mod:`bot.app.metrics`, in Prometheus' text format.

Anything else is a 404; another method than GET (or HEAD) a 405.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass

from aiohttp import web

from bot.app.config import ConfigError
from bot.app.metrics import CONTENT_TYPE, Metrics

log = logging.getLogger(__name__)

DEFAULT_HOST = "127.0.0.1"

#: The health check: the problems found now (none: healthy).
Check = Callable[[], Awaitable[Sequence[str]]]


@dataclass(frozen=True)
class HttpSettings:
    """Where the endpoint listens (``port`` 0: any free port, for tests)."""

    host: str = DEFAULT_HOST
    port: int = 0


class EndpointUnavailable(Exception):
    """The endpoint cannot listen where it was told to; the message says how to fix it."""


def http_settings(environ: Mapping[str, str]) -> HttpSettings | None:
    """``CRIBBAGE_HTTP_PORT`` (1 to 65535; empty or unset: no endpoint) and
    ``CRIBBAGE_HTTP_HOST`` (default 127.0.0.1). Raises :class:`ConfigError` for a bad port."""
    port_text = environ.get("CRIBBAGE_HTTP_PORT", "").strip()
    if not port_text:
        return None
    if not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
        raise ConfigError(
            f"CRIBBAGE_HTTP_PORT must be a TCP port (1 to 65535), not {port_text!r}. Leave it "
            "empty to serve no /healthz and /metrics."
        )
    host = environ.get("CRIBBAGE_HTTP_HOST", "").strip() or DEFAULT_HOST
    return HttpSettings(host, int(port_text))


class Endpoint:
    """``/healthz`` and ``/metrics`` on ``settings``' address: :meth:`start`, :meth:`stop`."""

    def __init__(self, settings: HttpSettings, metrics: Metrics, check: Check) -> None:
        self.settings = settings
        self.metrics = metrics
        self.check = check
        self._runner: web.AppRunner | None = None
        self._healthy: bool | None = None  # the last answer, to log only its changes
        self.port: int | None = None  # the port listened on (the one chosen, for port 0)

    async def start(self) -> None:
        """Listen; :class:`EndpointUnavailable` when the address is taken or not this host's."""
        app = web.Application()
        app.router.add_get("/healthz", self.healthz)
        app.router.add_get("/metrics", self.scrape)
        runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=1.0)
        await runner.setup()
        host, port = self.settings.host, self.settings.port
        try:
            await web.TCPSite(runner, host, port).start()
        except OSError as err:
            await runner.cleanup()
            raise EndpointUnavailable(
                f"Cannot serve /healthz and /metrics on {host}:{port} ({err.strerror or err}): "
                "another program may use that port. Set CRIBBAGE_HTTP_PORT to a free port (and "
                "CRIBBAGE_HTTP_HOST to an address of this machine), or leave CRIBBAGE_HTTP_PORT "
                "empty to serve none."
            ) from err
        self._runner = runner
        address = runner.addresses[0]
        self.port = int(address[1])
        log.info("Serving /healthz and /metrics on http://%s:%d", host, self.port)

    async def stop(self) -> None:
        """Stop listening (safe to call twice)."""
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()

    async def healthz(self, request: web.Request) -> web.Response:
        problems = list(await self.check())
        healthy = not problems
        if healthy != self._healthy:
            if healthy:
                log.info("Health check: ok")
            else:
                log.warning("Health check failing: %s", "; ".join(problems))
            self._healthy = healthy
        if healthy:
            return web.Response(text="ok\n")
        return web.Response(status=503, text="".join(f"{p}\n" for p in problems))

    async def scrape(self, request: web.Request) -> web.Response:
        response = web.Response(body=self.metrics.render())
        response.headers["Content-Type"] = CONTENT_TYPE
        return response
