"""The emulated gateway: plain JSON text frames, no compression.

HELLO (op 10) → the client heartbeats (op 1, answered by op 11) and IDENTIFYs (op 2) → READY,
then one GUILD_CREATE per guild. RESUME (op 6) replays the events the session missed and sends
RESUMED; an unknown or invalidated session gets INVALID_SESSION (op 9, ``d: false``). A client
that closes with 1000/1001 ends its session. REQUEST_GUILD_MEMBERS (op 8) is answered with one
GUILD_MEMBERS_CHUNK.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import uuid
from collections import deque
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

if TYPE_CHECKING:
    from .emulator import DiscordEmulator

log = logging.getLogger("tests.support.emulator.gateway")

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

HEARTBEAT_INTERVAL_MS = 41250
BUFFER_SIZE = 2000

INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
INTENT_MESSAGE_CONTENT = 1 << 15


class GatewaySession:
    """One identified gateway session; it survives reconnects until invalidated."""

    def __init__(self, intents: int):
        self.id = uuid.uuid4().hex
        self.intents = intents
        self.seq = 0
        self.buffer: deque[dict[str, Any]] = deque(maxlen=BUFFER_SIZE)
        self.ws: web.WebSocketResponse | None = None
        self.invalid = False
        self.ready = False
        self._send_lock = asyncio.Lock()

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

    def invalidate(self, session_id: str | None) -> None:
        session = self.sessions.get(session_id or "")
        if session is not None:
            session.invalid = True

    # -- sending ---------------------------------------------------------------------------

    async def broadcast(self, event: str, data: dict[str, Any], intent: int = 0) -> None:
        for session in self.live_sessions():
            if intent and not session.intents & intent:
                continue
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

    async def _identify(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> GatewaySession:
        session = GatewaySession(int(data.get("intents", 0)))
        session.ws = ws
        self.sessions[session.id] = session
        self.current = session
        self.emu._record(
            "gateway", event="identify", session_id=session.id, intents=session.intents
        )
        emu = self.emu
        guilds = list(emu.guilds.values())
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
        self.current = session
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
