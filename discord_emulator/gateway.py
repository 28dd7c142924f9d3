"""The emulated gateway: plain JSON text frames, no compression.

HELLO (op 10) → the client heartbeats (op 1, answered by op 11) and IDENTIFYs (op 2) → READY,
then one GUILD_CREATE per guild. RESUME (op 6) replays the events the session missed and sends
RESUMED; an unknown or invalidated session gets INVALID_SESSION (op 9, ``d: false``). A client
that closes with 1000/1001 ends its session. REQUEST_GUILD_MEMBERS (op 8) is answered with one
GUILD_MEMBERS_CHUNK.

Sharding (Discord's Gateway docs, "Sharding"): an IDENTIFY may carry ``shard: [id, count]``
(none: ``[0, 1]``, every guild). The session's READY lists, and its GUILD_CREATEs cover, only the
guilds of its shard, ``(guild_id >> 22) % count == id`` ("Sharding Formula"); every later event
of a guild goes to the sessions of that guild's shard, and an event without a ``guild_id`` (a
DM) only to shard 0 ("Gateway events that do not contain a guild_id will only be sent to the
first shard"). An interaction goes to one session: the latest identified (or resumed) of its
guild's shard (:meth:`Gateway.route`). Several sessions may share a shard, or use different
counts ("num_shards ... is only used for routing traffic"). A shard outside ``0 <= id < count``
is closed with 4010 ("Invalid Shard", the Gateway close codes).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import uuid
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from . import spec

if TYPE_CHECKING:
    from .emulator import DiscordEmulator

log = logging.getLogger("discord_emulator.gateway")

OP_DISPATCH = 0
OP_HEARTBEAT = 1
OP_IDENTIFY = 2
OP_PRESENCE = 3
OP_VOICE_STATE = 4
OP_RESUME = 6
OP_RECONNECT = 7
OP_REQUEST_MEMBERS = 8
OP_INVALID_SESSION = 9
OP_HELLO = 10
OP_HEARTBEAT_ACK = 11

CLOSE_INVALID_SHARD = 4010  # Gateway close codes: "You sent us an invalid shard when identifying."

HEARTBEAT_INTERVAL_MS = 41250
BUFFER_SIZE = 2000

INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
INTENT_MESSAGE_CONTENT = 1 << 15


class GatewaySession:
    """One identified gateway session; it survives reconnects until invalidated."""

    def __init__(self, intents: int, shard: tuple[int, int] = (0, 1)):
        self.id = uuid.uuid4().hex
        self.intents = intents
        self.shard = shard  # [shard_id, num_shards] from the IDENTIFY
        self.active = 0  # when it was last identified or resumed (Gateway's own counter)
        self.seq = 0
        self.buffer: deque[dict[str, Any]] = deque(maxlen=BUFFER_SIZE)
        self.ws: web.WebSocketResponse | None = None
        self.invalid = False
        self.ready = False
        # called with each event before it is sent (the emulator's check of its own events)
        self.check: Callable[[str, dict[str, Any]], None] | None = None
        self._send_lock = asyncio.Lock()

    def owns(self, guild_id: int | None) -> bool:
        """Whether Discord routes this guild's events to this session (``None``: a DM)."""
        shard_id, count = self.shard
        return (0 if guild_id is None else (guild_id >> 22) % count) == shard_id

    @property
    def connected(self) -> bool:
        return self.ws is not None and not self.ws.closed

    async def send(self, payload: dict[str, Any], ws: web.WebSocketResponse | None = None) -> None:
        target = ws or self.ws
        if target is None or target.closed:
            return
        async with self._send_lock:
            try:
                await target.send_str(json.dumps(payload))
            except (ConnectionResetError, RuntimeError) as exc:
                log.debug("gateway send failed: %s", exc)

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        if self.check is not None:
            self.check(event, data)
        self.seq += 1
        payload = {"op": OP_DISPATCH, "t": event, "s": self.seq, "d": data}
        self.buffer.append(payload)
        await self.send(payload)


class Gateway:
    def __init__(self, emulator: DiscordEmulator):
        self.emu = emulator
        self.sessions: dict[str, GatewaySession] = {}
        self.current: GatewaySession | None = None
        self._sockets: set[web.WebSocketResponse] = set()
        self._dropped: set[web.WebSocketResponse] = set()  # closed by us: session survives
        self.resumes = 0
        self._activations = 0

    # -- queries ---------------------------------------------------------------------------

    def live_sessions(self) -> list[GatewaySession]:
        return [s for s in self.sessions.values() if not s.invalid]

    def target(self) -> GatewaySession | None:
        """The session interactions go to: the latest one identified, if valid and connected.

        (discord.py closes with code 4000 even on ``Client.close()``, so a closed client's
        session stays resumable; ``running()`` invalidates it explicitly.)
        """
        session = self.current
        if session is not None and not session.invalid and session.connected:
            return session
        return None

    def route(self, guild_id: int | None) -> GatewaySession | None:
        """The session an interaction of ``guild_id`` (``None``: a DM) goes to: the latest one
        identified or resumed on that guild's shard, if still valid and connected."""
        owners = [s for s in self.sessions.values() if s.owns(guild_id)]
        if not owners:
            return None
        session = max(owners, key=lambda s: s.active)
        return session if not session.invalid and session.connected else None

    def receivers(self, guild_id: int | None, intent: int = 0) -> list[GatewaySession]:
        """The live sessions a ``guild_id`` event is sent to (with ``intent``, if given)."""
        return [
            s
            for s in self.live_sessions()
            if s.owns(guild_id) and (not intent or s.intents & intent)
        ]

    def _activate(self, session: GatewaySession) -> None:
        self._activations += 1
        session.active = self._activations
        self.current = session

    def invalidate(self, session_id: str | None) -> None:
        session = self.sessions.get(session_id or "")
        if session is not None:
            session.invalid = True

    # -- sending ---------------------------------------------------------------------------

    def _check_event(self, event: str, data: dict[str, Any]) -> None:
        """Record (``invalid_event``) how an event's objects differ from the description."""
        problems = spec.event_problems(event, data)
        if problems:
            detail = "; ".join(f"{where}: {msg}" for where, msg in problems)
            self.emu._violation("invalid_event", detail)

    async def broadcast(self, event: str, data: dict[str, Any], intent: int = 0) -> None:
        """Send ``event`` to the sessions of its guild's shard (a guild's own events carry its
        id as ``id``, the others as ``guild_id``; without one, shard 0)."""
        for session in self.receivers(guild_of(event, data), intent):
            await session.dispatch(event, data)

    async def request_reconnect(self) -> None:
        """Send RECONNECT (op 7) to the current session: the client closes and RESUMEs."""
        session = self.target()
        if session is None:
            raise RuntimeError("no bot is connected to the gateway")
        self.emu._record("gateway", event="reconnect_requested", session_id=session.id)
        await session.send({"op": OP_RECONNECT, "d": None})

    async def drop_connection(self, code: int = 4000) -> None:
        """Close the current session's socket from the server side (the client resumes)."""
        session = self.target()
        if session is None or session.ws is None:
            raise RuntimeError("no bot is connected to the gateway")
        self.emu._record("gateway", event="dropped", session_id=session.id, close_code=code)
        self._dropped.add(session.ws)
        await session.ws.close(code=code)

    async def close(self) -> None:
        for ws in list(self._sockets):
            with contextlib.suppress(Exception):
                await ws.close(code=1001, message=b"emulator shutting down")
        for session in self.sessions.values():
            session.invalid = True

    # -- the websocket endpoint ------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True, timeout=2.0)
        await ws.prepare(request)
        self._sockets.add(ws)
        session: GatewaySession | None = None
        hello = {"op": OP_HELLO, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}}
        await ws.send_str(json.dumps(hello))
        try:
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                op = frame.get("op")
                data = frame.get("d")
                if op == OP_HEARTBEAT:
                    if session is not None:
                        await session.send({"op": OP_HEARTBEAT_ACK}, ws)
                    else:
                        await ws.send_str(json.dumps({"op": OP_HEARTBEAT_ACK}))
                elif op == OP_IDENTIFY:
                    session = await self._identify(ws, data or {})
                elif op == OP_RESUME:
                    session = await self._resume(ws, data or {})
                elif op == OP_REQUEST_MEMBERS and session is not None:
                    await self._members_chunk(session, data or {})
                elif op in (OP_PRESENCE, OP_VOICE_STATE):
                    pass
                else:
                    log.warning("gateway: unexpected op %s", op)
        finally:
            self._sockets.discard(ws)
            code = ws.close_code
            dropped = ws in self._dropped
            self._dropped.discard(ws)
            if session is not None and session.ws is ws:
                session.ws = None
                if code in (1000, 1001) and not dropped:
                    session.invalid = True
                self.emu._record(
                    "gateway",
                    event="disconnect",
                    session_id=session.id,
                    close_code=int(code) if code is not None else None,
                    resumable=not session.invalid,
                )
                self.emu._touch()
        return ws

    async def _identify(
        self, ws: web.WebSocketResponse, data: dict[str, Any]
    ) -> GatewaySession | None:
        shard = shard_of(data.get("shard"))
        if shard is None:
            self.emu._record("gateway", event="invalid_shard", shard=data.get("shard"))
            await ws.close(code=CLOSE_INVALID_SHARD, message=b"Invalid shard.")
            return None
        session = GatewaySession(int(data.get("intents", 0)), shard)
        session.ws = ws
        if self.emu.check_answers:
            session.check = self._check_event
        self.sessions[session.id] = session
        self._activate(session)
        self.emu._record(
            "gateway",
            event="identify",
            session_id=session.id,
            intents=session.intents,
            shard=list(shard),
        )
        emu = self.emu
        guilds = [g for g in emu.guilds.values() if session.owns(g.id)]
        ready = {
            "v": 10,
            "user": emu.bot_user.payload(),
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": emu.gateway_url,
            "application": {"id": str(emu.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "user_settings": {},
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "auth": {},
        }
        if "shard" in data:
            ready["shard"] = data["shard"]
        await session.dispatch("READY", ready)
        for guild in guilds:
            await session.dispatch("GUILD_CREATE", guild.create_payload())
        session.ready = True
        emu._touch()
        return session

    async def _resume(
        self, ws: web.WebSocketResponse, data: dict[str, Any]
    ) -> GatewaySession | None:
        session = self.sessions.get(str(data.get("session_id")))
        if session is None or session.invalid:
            self.emu._record("gateway", event="resume_failed", session_id=data.get("session_id"))
            await ws.send_str(json.dumps({"op": OP_INVALID_SESSION, "d": False}))
            return None
        old = session.ws
        session.ws = ws
        if old is not None and old is not ws and not old.closed:
            with contextlib.suppress(Exception):
                await old.close(code=4000)
        last = int(data.get("seq") or 0)
        missed = [p for p in session.buffer if p["s"] > last]
        self.emu._record("gateway", event="resume", session_id=session.id, replayed=len(missed))
        for payload in missed:
            await session.send(payload)
        await session.dispatch("RESUMED", {})
        self._activate(session)
        self.resumes += 1
        self.emu._touch()
        return session

    async def _members_chunk(self, session: GatewaySession, data: dict[str, Any]) -> None:
        guild = self.emu.guilds.get(int(data.get("guild_id", 0)))
        if guild is None:
            return
        members = list(guild.members.values())
        query = data.get("query") or ""
        if data.get("user_ids"):
            wanted = {int(u) for u in data["user_ids"]}
            members = [m for m in members if m.user.id in wanted]
        elif query:
            members = [m for m in members if m.user.name.startswith(query)]
        chunk: dict[str, Any] = {
            "guild_id": str(guild.id),
            "members": [m.payload() for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        await session.dispatch("GUILD_MEMBERS_CHUNK", chunk)


def shard_of(value: Any) -> tuple[int, int] | None:
    """The ``[shard_id, num_shards]`` of an IDENTIFY (none: ``(0, 1)``); ``None`` if invalid."""
    if value is None:
        return (0, 1)
    if not isinstance(value, list | tuple) or len(value) != 2:
        return None
    shard_id, count = value
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        return None
    return (shard_id, count) if 0 <= shard_id < count else None


GUILD_EVENTS = ("GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE")


def guild_of(event: str, data: dict[str, Any]) -> int | None:
    """The guild an event belongs to, which picks its shard (``None``: DMs and the like)."""
    value = data.get("id") if event in GUILD_EVENTS else data.get("guild_id")
    return int(value) if value is not None else None


def on_shard(snowflake: int, shard: tuple[int, int]) -> int:
    """The first snowflake from ``snowflake`` on whose guild ``shard`` gets the events (its
    timestamp moved on by less than ``num_shards`` milliseconds)."""
    shard_id, count = shard
    return snowflake + (((shard_id - (snowflake >> 22)) % count) << 22)
