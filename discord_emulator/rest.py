"""The emulated REST API (v10; v9 is accepted too).

Every handler answers JSON with ``content-type: application/json`` exactly (discord.py only
parses JSON when the header is exactly that), errors in Discord's shape
(``{"message": ..., "code": ...}``, plus ``errors`` for HTTP 400 / 50035), and 204 with no body
where Discord does. Unknown routes answer 404 and are recorded as ``unknown_route``.
"""

from __future__ import annotations

import json
import logging
import mimetypes
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from aiohttp import web

from . import spec
from .limits import Problem, check_commands
from .models import (
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    EmuChannel,
    EmuMessage,
    PendingInteraction,
)
from .ratelimits import RateLimits

if TYPE_CHECKING:
    from .emulator import DiscordEmulator

log = logging.getLogger("discord_emulator.rest")

Handler = Callable[..., Awaitable[web.StreamResponse]]


@dataclass
class Upload:
    index: int
    filename: str
    data: bytes
    content_type: str | None


class HTTPError(Exception):
    def __init__(self, status: int, code: int, message: str, errors: dict[str, Any] | None = None):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors


def json_response(data: Any, status: int = 200) -> web.Response:
    # Not web.json_response: it appends "; charset=utf-8", which discord.py does not accept.
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        headers={"Content-Type": "application/json"},
    )


def no_content() -> web.Response:
    return web.Response(status=204)


# Discord's code for each kind of form error, by its message
ERROR_CODES = tuple(
    (re.compile(pattern), code)
    for pattern, code in (
        (r"This field is required", "BASE_TYPE_REQUIRED"),
        (r"Must be between \d+ and \d+ in length", "BASE_TYPE_BAD_LENGTH"),
        (r"Must be \d+ or fewer in length", "BASE_TYPE_MAX_LENGTH"),
        (r"Must be \d+ or more in length", "BASE_TYPE_MIN_LENGTH"),
        (r"(int|float) value should be less than or equal", "NUMBER_TYPE_MAX"),
        (r"(int|float) value should be greater than or equal", "NUMBER_TYPE_MIN"),
        (r"Value must be one of", "BASE_TYPE_CHOICES"),
        (r"Could not interpret", "BASE_TYPE_COERCE"),
        (r"Not a well formed URL", "URL_TYPE_INVALID_URL"),
        (r"Command name is invalid", "APPLICATION_COMMAND_INVALID_NAME"),
    )
)


def error_code(message: str) -> str:
    return next((code for found, code in ERROR_CODES if found.match(message)), "INVALID")


def form_errors(problems: list[Problem]) -> dict[str, Any]:
    """Discord's ``errors`` of an "Invalid Form Body": nested by the field's path, each with
    ``_errors``: [{code, message}]."""
    errors: dict[str, Any] = {}
    for path, message in problems:
        node = errors
        for part in [p for p in path.split(".") if p] or ["_root"]:
            node = node.setdefault(part, {})
        node.setdefault("_errors", []).append({"code": error_code(message), "message": message})
    return errors


def _truthy(value: str | None) -> bool:
    return value is not None and value.lower() in ("1", "true", "yes")


# where a request keeps its body once read
BODY = web.RequestKey("discord_emulator.body", tuple)


async def read_body(request: web.Request) -> tuple[Any, list[Upload]]:
    """The JSON payload and uploaded files of a request (JSON or multipart with payload_json);
    read once, then kept on the request."""
    if BODY not in request:
        request[BODY] = await _read_body(request)
    found: tuple[Any, list[Upload]] = request[BODY]
    return found


async def _read_body(request: web.Request) -> tuple[Any, list[Upload]]:
    if request.content_type.startswith("multipart/"):
        payload: Any = {}
        uploads: list[Upload] = []
        reader = await request.multipart()
        async for part in reader:
            name = getattr(part, "name", None)
            if name is None or not hasattr(part, "read"):
                continue
            if name == "payload_json":
                payload = json.loads(await part.text())  # type: ignore[union-attr]
                continue
            match = re.fullmatch(r"files?\[(\d+)\]", name)
            index = int(match.group(1)) if match else len(uploads)
            data = await part.read(decode=False)  # type: ignore[union-attr]
            filename = part.filename or f"file{index}"  # type: ignore[union-attr]
            content_type = mimetypes.guess_type(filename)[0]
            uploads.append(Upload(index, filename, bytes(data), content_type))
        return payload, uploads
    raw = await request.read()
    return (json.loads(raw) if raw else {}), []


class RestApi:
    def __init__(self, emulator: DiscordEmulator, *, rate_limits: bool = True):
        self.emu = emulator
        self.limits = RateLimits(emulator, enabled=rate_limits)  # Discord's rate limits
        S = r"(\d+)"
        T = r"([^/]+)"
        self.routes: list[tuple[str, re.Pattern[str], Handler]] = []
        table: list[tuple[str, str, Handler]] = [
            ("GET", "/gateway", self.get_gateway),
            ("GET", "/gateway/bot", self.get_gateway_bot),
            ("GET", "/users/@me", self.get_me),
            ("GET", f"/users/{S}", self.get_user),
            ("POST", "/users/@me/channels", self.create_dm),
            ("GET", "/oauth2/applications/@me", self.get_application),
            ("GET", "/applications/@me", self.get_application),
            ("GET", f"/applications/{S}/emojis", self.list_app_emojis),
            ("GET", f"/applications/{S}/commands", self.get_commands),
            ("PUT", f"/applications/{S}/commands", self.put_commands),
            ("POST", f"/applications/{S}/commands", self.post_command),
            ("GET", f"/applications/{S}/commands/{S}", self.get_command),
            ("PATCH", f"/applications/{S}/commands/{S}", self.patch_command),
            ("DELETE", f"/applications/{S}/commands/{S}", self.delete_command),
            ("GET", f"/applications/{S}/guilds/{S}/commands/permissions", self.get_perms),
            ("GET", f"/applications/{S}/guilds/{S}/commands", self.get_commands),
            ("PUT", f"/applications/{S}/guilds/{S}/commands", self.put_commands),
            ("POST", f"/applications/{S}/guilds/{S}/commands", self.post_command),
            ("GET", f"/applications/{S}/guilds/{S}/commands/{S}", self.get_command),
            ("PATCH", f"/applications/{S}/guilds/{S}/commands/{S}", self.patch_command),
            ("DELETE", f"/applications/{S}/guilds/{S}/commands/{S}", self.delete_command),
            ("POST", f"/interactions/{S}/{T}/callback", self.interaction_callback),
            ("POST", f"/webhooks/{S}/{T}", self.followup),
            ("GET", f"/webhooks/{S}/{T}/messages/{T}", self.get_webhook_message),
            ("PATCH", f"/webhooks/{S}/{T}/messages/{T}", self.edit_webhook_message),
            ("DELETE", f"/webhooks/{S}/{T}/messages/{T}", self.delete_webhook_message),
            ("GET", f"/channels/{S}", self.get_channel),
            ("PATCH", f"/channels/{S}", self.edit_channel),
            ("POST", f"/channels/{S}/messages/{S}/threads", self.thread_from_message),
            ("POST", f"/channels/{S}/threads", self.thread_without_message),
            ("PUT", f"/channels/{S}/thread-members/@me", self.join_thread),
            ("DELETE", f"/channels/{S}/thread-members/@me", self.join_thread),
            ("POST", f"/channels/{S}/typing", self.typing),
            ("GET", f"/channels/{S}/messages", self.list_messages),
            ("POST", f"/channels/{S}/messages", self.create_message),
            ("GET", f"/channels/{S}/messages/{S}", self.get_message),
            ("PATCH", f"/channels/{S}/messages/{S}", self.edit_message),
            ("DELETE", f"/channels/{S}/messages/{S}", self.delete_message),
            ("PUT", f"/channels/{S}/messages/{S}/reactions/{T}/@me", self.add_reaction),
            ("DELETE", f"/channels/{S}/messages/{S}/reactions/{T}/@me", self.remove_reaction),
            ("DELETE", f"/channels/{S}/messages/{S}/reactions", self.clear_reactions),
            ("GET", f"/guilds/{S}", self.get_guild),
            ("GET", f"/guilds/{S}/channels", self.get_guild_channels),
            ("GET", f"/guilds/{S}/roles", self.get_roles),
            ("GET", f"/guilds/{S}/members", self.list_members),
            ("GET", f"/guilds/{S}/members/{S}", self.get_member),
        ]
        for method, pattern, handler in table:
            self.routes.append((method, re.compile(pattern + "$"), handler))

    # -- dispatch --------------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.StreamResponse:
        match = re.match(r"^/api/v\d+(/.*)$", request.path)
        path = match.group(1) if match else request.path
        # never write interaction tokens to logs or the transcript
        shown = re.sub(r"^/(webhooks|interactions)/(\d+)/[^/]+", r"/\1/\2/{token}", path)
        route = f"{request.method} {shown}"
        for method, pattern, handler in self.routes:
            found = pattern.match(path)
            if found and method == request.method:
                return await self._limited(request, path, route, handler, found.groups())
        log.warning("discord emulator: unknown route %s", route)
        detail = f"the emulator does not implement {route}"
        self.emu._violation("unknown_route", detail, route=route)
        return self._error(route, HTTPError(404, 0, "404: Not Found"))

    async def _limited(
        self, request: web.Request, path: str, route: str, handler: Handler, args: tuple[str, ...]
    ) -> web.StreamResponse:
        """Run a handler within Discord's rate limits (ratelimits.py): a 429 instead when a
        bucket or the global limit is spent; the bucket's headers on every answer."""
        decision = self.limits.check(request.method, path)
        if decision.refused is not None:
            self.emu._record(
                "rate_limited", route=route, scope=decision.scope, **decision.refused
            )
            self.limits.answered(429, decision.scope)
            response: web.StreamResponse = json_response(decision.refused, 429)
        else:
            operation = spec.operation(request.method, path)
            try:
                if not path.startswith(("/interactions/", "/webhooks/")):
                    self._check_auth(request)
                if operation is not None and handler not in self._command_syncs:
                    await self._check_request(request, path, route, operation, handler)
                response = await handler(request, *args)
            except HTTPError as exc:
                response = self._error(route, exc)
            self.limits.answered(response.status)
            if self.emu.check_answers and operation is not None:
                self._check_answer(route, operation, response)
        response.headers.update(decision.headers)
        return response

    @property
    def _command_syncs(self) -> tuple[Handler, ...]:
        """Handlers that check their bodies themselves (limits.check_commands: the same
        schemas, and the developer docs' rules on top)."""
        return (self.put_commands, self.post_command, self.patch_command)

    def _interaction_of(self, path: str) -> int | None:
        """The interaction a callback or webhook request answers, if it is one."""
        found = re.match(r"/(interactions|webhooks)/(\d+)/([^/]+)", path)
        if found is None:
            return None
        if found.group(1) == "interactions":
            return int(found.group(2))
        pending = self.emu._by_token.get(found.group(3))
        return pending.id if pending is not None else None

    async def _check_request(
        self,
        request: web.Request,
        path: str,
        route: str,
        operation: spec.Operation,
        handler: Handler,
    ) -> None:
        """Refuse a body the description's ``requestBody`` schema refuses: HTTP 400, 50035.
        Recorded as ``invalid_message`` for the routes that carry a message, else
        ``invalid_request``."""
        if operation.body is None or not request.can_read_body:
            return
        try:
            body, _ = await read_body(request)
        except ValueError as exc:
            self.emu._violation("invalid_request", f"the body is not JSON: {exc}", route=route)
            raise HTTPError(400, 50109, "The request body contains invalid JSON.") from exc
        problems = spec.request_problems(operation, body)
        if not problems:
            return
        detail = "; ".join(f"{where or 'body'}: {msg}" for where, msg in problems)
        carries = (
            self.create_message, self.edit_message, self.followup, self.edit_webhook_message,
            self.interaction_callback,
        )
        kind = "invalid_message" if handler in carries else "invalid_request"
        self.emu._violation(kind, detail, interaction_id=self._interaction_of(path), route=route)
        raise HTTPError(400, 50035, "Invalid Form Body", form_errors(problems))

    def _check_answer(
        self, route: str, operation: spec.Operation, response: web.StreamResponse
    ) -> None:
        """Record (``invalid_answer``) how a successful answer differs from the description."""
        if response.status >= 400 or not isinstance(response, web.Response):
            return
        raw = response.body
        body = json.loads(raw) if isinstance(raw, bytes) and raw else None
        problems = spec.answer_problems(operation, response.status, body)
        if problems:
            detail = f"{operation.method.upper()} {operation.template}: " + "; ".join(
                f"{where or 'answer'}: {msg}" for where, msg in problems
            )
            self.emu._violation("invalid_answer", detail, route=route)

    def _error(self, route: str, exc: HTTPError) -> web.Response:
        body: dict[str, Any] = {"message": exc.message, "code": exc.code}
        if exc.errors is not None:
            body["errors"] = exc.errors
        self.emu._record(
            "http_error", route=route, status=exc.status, code=exc.code, message=exc.message,
            errors=exc.errors,
        )
        return json_response(body, exc.status)

    def _check_auth(self, request: web.Request) -> None:
        header = request.headers.get("Authorization", "")
        expected = self.emu.bot_token
        if not header.startswith("Bot ") or (expected is not None and header != f"Bot {expected}"):
            raise HTTPError(401, 0, "401: Unauthorized")

    # -- helpers ---------------------------------------------------------------------------

    def _channel(self, channel_id: str) -> EmuChannel:
        channel = self.emu.channels.get(int(channel_id))
        if channel is None:
            raise HTTPError(404, 10003, "Unknown Channel")
        return channel

    def _channel_message(self, channel_id: str, message_id: str) -> EmuMessage:
        channel = self._channel(channel_id)
        message = self.emu.messages.get(int(message_id))
        if (
            message is None
            or message.deleted
            or message.channel is not channel
            or message.ephemeral
        ):
            raise HTTPError(404, 10008, "Unknown Message")
        return message

    def _invalid(
        self, route: str, problems: list[Problem], interaction_id: int | None
    ) -> HTTPError:
        detail = "; ".join(f"{path or 'message'}: {msg}" for path, msg in problems)
        self.emu._violation("invalid_message", detail, interaction_id=interaction_id, route=route)
        if any(msg == "Cannot send an empty message" for _, msg in problems):
            return HTTPError(400, 50006, "Cannot send an empty message")
        return HTTPError(400, 50035, "Invalid Form Body", form_errors(problems))

    def _json(self, message: EmuMessage) -> web.Response:
        return json_response(message.payload(self.emu.base_url))

    def _token(self, app_id: str, token: str, route: str) -> PendingInteraction:
        emu = self.emu
        pending = emu._by_token.get(token)
        if pending is None or int(app_id) != emu.application_id:
            emu._violation("unknown_token", "no interaction has this token", route=route)
            raise HTTPError(404, 10015, "Unknown Webhook")
        age = emu.now() - pending.created_at
        if age > emu.token_ttl:
            emu._violation(
                "expired_token",
                f"the interaction token is {age:.0f}s old (tokens live {emu.token_ttl:.0f}s)",
                interaction_id=pending.id,
                route=route,
            )
            raise HTTPError(401, 50027, "Invalid Webhook Token")
        return pending

    def _webhook_message(
        self, pending: PendingInteraction, message_id: str, route: str
    ) -> EmuMessage:
        if message_id == "@original":
            message = pending.original
            if message is None or message.deleted:
                raise HTTPError(404, 10008, "Unknown Message")
            return message
        message = self.emu.messages.get(int(message_id)) if message_id.isdigit() else None
        if message is None or message.deleted:
            raise HTTPError(404, 10008, "Unknown Message")
        if message.ephemeral and message.visible_to is not pending.user:
            self.emu._violation(
                "foreign_token",
                f"message {message.id} is ephemeral for "
                f"{message.visible_to and message.visible_to.name}, the token belongs to "
                f"{pending.user.name}'s interaction",
                interaction_id=pending.id,
                route=route,
            )
            raise HTTPError(404, 10008, "Unknown Message")
        if message.author is not self.emu.bot_user:
            raise HTTPError(403, 50005, "Cannot edit a message authored by another user")
        # Edit Webhook Message: "Edits a previously-sent webhook message from the same token"
        # (Edit/Delete Followup Message "function the same"): a token addresses only its own
        # original response (for a click, the message clicked) and its own follow-ups.
        if message is not pending.original and message not in pending.result.followups:
            self.emu._violation(
                "foreign_message",
                f"message {message.id} was not sent through this token "
                f"({pending.user.name}'s interaction {pending.id})",
                interaction_id=pending.id,
                route=route,
            )
            raise HTTPError(404, 10008, "Unknown Message")
        return message

    # -- gateway, users, application -------------------------------------------------------

    async def get_gateway(self, request: web.Request) -> web.Response:
        return json_response({"url": self.emu.gateway_url})

    async def get_gateway_bot(self, request: web.Request) -> web.Response:
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        data = {"url": self.emu.gateway_url, "shards": 1, "session_start_limit": limit}
        return json_response(data)

    async def get_me(self, request: web.Request) -> web.Response:
        data = self.emu.bot_user.payload()
        data.update({"verified": True, "mfa_enabled": False, "locale": "en-US", "email": None})
        return json_response(data)

    async def get_user(self, request: web.Request, user_id: str) -> web.Response:
        user = self.emu.users.get(int(user_id))
        if user is None:
            raise HTTPError(404, 10013, "Unknown User")
        return json_response(user.payload())

    async def create_dm(self, request: web.Request) -> web.Response:
        body, _ = await read_body(request)
        user = self.emu.users.get(int(body.get("recipient_id", 0)))
        if user is None:
            raise HTTPError(404, 10013, "Unknown User")
        return json_response(self.emu.dm_channel(user).payload())

    async def get_application(self, request: web.Request) -> web.Response:
        emu = self.emu
        return json_response(
            {
                "id": str(emu.application_id),
                "type": None,
                "name": emu.bot_user.name,
                "icon": None,
                "description": "",
                "summary": "",
                "rpc_origins": [],
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": emu.app_owner.payload(),
                "team": None,
                "verify_key": "0" * 64,
                "flags": 0,
                "flags_new": "0",
                "role_connections_verification_url": None,
                "explicit_content_filter": 0,  # INHERIT
                "eligible_oauth2_scopes": ["applications.commands", "bot"],
                "approximate_user_install_count": 0,
                "approximate_user_authorization_count": 0,
                "bot": emu.bot_user.payload(),
                "interactions_endpoint_url": None,
                "redirect_uris": [],
                "tags": [],
                "approximate_guild_count": len(emu.guilds),
            }
        )

    async def list_app_emojis(self, request: web.Request, app_id: str) -> web.Response:
        return json_response({"items": []})

    # -- application commands --------------------------------------------------------------

    def _scope(self, app_id: str, guild_id: str | None) -> int | None:
        if int(app_id) != self.emu.application_id:
            raise HTTPError(403, 50001, "Missing Access")
        if guild_id is None:
            return None
        if int(guild_id) not in self.emu.guilds:
            raise HTTPError(404, 10004, "Unknown Guild")
        return int(guild_id)

    async def get_commands(self, request: web.Request, app_id: str, guild_id: str | None = None):
        scope = self._scope(app_id, guild_id)
        return json_response(list(self.emu.commands.get(scope, {}).values()))

    def _check_commands(self, request: web.Request, body: Any, way: str) -> None:
        """Refuse a command sync that Discord would (limits.check_commands): HTTP 400, 50035."""
        problems = check_commands(body, way)
        if problems:
            path = re.sub(r"^/api/v\d+", "", request.path)
            route = f"{request.method} {path}"
            detail = "; ".join(f"{where or 'body'}: {msg}" for where, msg in problems)
            self.emu._violation("invalid_commands", detail, route=route)
            raise HTTPError(400, 50035, "Invalid Form Body", form_errors(problems))

    async def put_commands(self, request: web.Request, app_id: str, guild_id: str | None = None):
        scope = self._scope(app_id, guild_id)
        body, _ = await read_body(request)
        self._check_commands(request, body, "bulk")
        return json_response(self.emu._sync_commands(scope, body or [], replace=True))

    async def post_command(self, request: web.Request, app_id: str, guild_id: str | None = None):
        scope = self._scope(app_id, guild_id)
        body, _ = await read_body(request)
        self._check_commands(request, body, "create")
        return json_response(self.emu._sync_commands(scope, [body], replace=False)[0], 201)

    def _command_args(self, args: tuple[str, ...]) -> tuple[int | None, int]:
        if len(args) == 3:
            return self._scope(args[0], args[1]), int(args[2])
        return self._scope(args[0], None), int(args[1])

    async def get_command(self, request: web.Request, *args: str) -> web.Response:
        scope, command_id = self._command_args(args)
        for command in self.emu.commands.get(scope, {}).values():
            if int(command["id"]) == command_id:
                return json_response(command)
        raise HTTPError(404, 10063, "Unknown application command")

    async def patch_command(self, request: web.Request, *args: str) -> web.Response:
        scope, command_id = self._command_args(args)
        body, _ = await read_body(request)
        self._check_commands(request, body, "edit")
        for command in self.emu.commands.get(scope, {}).values():
            if int(command["id"]) == command_id:
                merged = {**command, **body}
                return json_response(self.emu._sync_commands(scope, [merged], replace=False)[0])
        raise HTTPError(404, 10063, "Unknown application command")

    async def delete_command(self, request: web.Request, *args: str) -> web.Response:
        scope, command_id = self._command_args(args)
        commands = self.emu.commands.get(scope, {})
        for key, command in list(commands.items()):
            if int(command["id"]) == command_id:
                del commands[key]
                self.emu._touch()
                return no_content()
        raise HTTPError(404, 10063, "Unknown application command")

    async def get_perms(self, request: web.Request, app_id: str, guild_id: str) -> web.Response:
        return json_response([])

    # -- interactions ----------------------------------------------------------------------

    async def interaction_callback(
        self, request: web.Request, interaction_id: str, token: str
    ) -> web.Response:
        emu = self.emu
        route = f"POST /interactions/{interaction_id}/{{token}}/callback"
        body, uploads = await read_body(request)
        pending = emu.interactions.get(int(interaction_id))
        if pending is None or pending.result.token != token:
            emu._violation("unknown_token", "callback for an unknown interaction", route=route)
            raise HTTPError(404, 10062, "Unknown interaction")
        message = await emu._respond(pending, body, uploads, route)
        if not _truthy(request.query.get("with_response")):
            return no_content()
        rtype = int(body.get("type", 0))
        interaction: dict[str, Any] = {"id": str(pending.id), "type": pending.type}
        answer: dict[str, Any] = {"interaction": interaction}
        if message is not None:
            interaction["response_message_id"] = str(message.id)
            interaction["response_message_loading"] = bool(message.flags & FLAG_LOADING)
            interaction["response_message_ephemeral"] = bool(message.flags & FLAG_EPHEMERAL)
        # the description answers a resource for a message (4), an update (7) and a launched
        # activity (12), and the message itself for 4 and 7 only
        if rtype in (4, 7, 12):
            answer["resource"] = {"type": rtype}
            if message is not None and rtype in (4, 7):
                answer["resource"]["message"] = message.payload(emu.base_url)
        return json_response(answer)

    async def followup(self, request: web.Request, app_id: str, token: str) -> web.Response:
        route = f"POST /webhooks/{app_id}/{{token}}"
        pending = self._token(app_id, token, route)
        body, uploads = await read_body(request)
        message = await self.emu._followup(pending, body, uploads, route)
        if not _truthy(request.query.get("wait", "0")):
            return no_content()
        return self._json(message)

    async def get_webhook_message(
        self, request: web.Request, app_id: str, token: str, message_id: str
    ) -> web.Response:
        route = f"GET /webhooks/{app_id}/{{token}}/messages/{message_id}"
        pending = self._token(app_id, token, route)
        return self._json(self._webhook_message(pending, message_id, route))

    async def edit_webhook_message(
        self, request: web.Request, app_id: str, token: str, message_id: str
    ) -> web.Response:
        route = f"PATCH /webhooks/{app_id}/{{token}}/messages/{message_id}"
        pending = self._token(app_id, token, route)
        message = self._webhook_message(pending, message_id, route)
        body, uploads = await read_body(request)
        problems = self.emu._check(body, creating=False, uploads=uploads, flags=message.flags)
        if problems:
            raise self._invalid(route, problems, pending.id)
        await self.emu._edit(message, body, uploads, via="webhook_edit", interaction=pending)
        return self._json(message)

    async def delete_webhook_message(
        self, request: web.Request, app_id: str, token: str, message_id: str
    ) -> web.Response:
        route = f"DELETE /webhooks/{app_id}/{{token}}/messages/{message_id}"
        pending = self._token(app_id, token, route)
        message = self._webhook_message(pending, message_id, route)
        await self.emu._delete(message, via="webhook_delete")
        return no_content()

    # -- channels and messages -------------------------------------------------------------

    async def get_channel(self, request: web.Request, channel_id: str) -> web.Response:
        return json_response(self._channel(channel_id).payload())

    async def edit_channel(self, request: web.Request, channel_id: str) -> web.Response:
        channel = self._channel(channel_id)
        body, _ = await read_body(request)
        await self.emu.thread_rules.update(self.emu.bot_user, channel, body)
        return json_response(channel.payload())

    async def thread_from_message(
        self, request: web.Request, channel_id: str, message_id: str
    ) -> web.Response:
        channel = self._channel(channel_id)
        message = self.emu.messages.get(int(message_id))
        if message is None:
            raise HTTPError(404, 10008, "Unknown Message")
        body, _ = await read_body(request)
        thread = await self.emu.thread_rules.start(self.emu.bot_user, channel, body, message)
        return json_response(thread.payload(), 201)

    async def thread_without_message(self, request: web.Request, channel_id: str):
        channel = self._channel(channel_id)
        body, _ = await read_body(request)
        thread = await self.emu.thread_rules.start(self.emu.bot_user, channel, body)
        return json_response(thread.payload(), 201)

    async def join_thread(self, request: web.Request, channel_id: str) -> web.Response:
        channel = self._channel(channel_id)
        if not channel.is_thread:
            raise HTTPError(400, 50024, "Cannot execute action on this channel type")
        return no_content()

    async def typing(self, request: web.Request, channel_id: str) -> web.Response:
        self._channel(channel_id)
        return no_content()

    async def list_messages(self, request: web.Request, channel_id: str) -> web.Response:
        channel = self._channel(channel_id)
        query = request.query
        limit = min(int(query.get("limit", 50)), 100)
        messages = [
            m for m in self.emu.messages.values()
            if m.channel is channel and not m.deleted and not m.ephemeral
        ]
        if "before" in query:
            messages = [m for m in messages if m.id < int(query["before"])]
        if "after" in query:
            messages = [m for m in messages if m.id > int(query["after"])][:limit]
        if "around" in query:
            around = int(query["around"])
            older = [m for m in messages if m.id <= around][-(limit // 2 + 1):]
            newer = [m for m in messages if m.id > around][: limit // 2]
            messages = older + newer
        messages = sorted(messages, key=lambda m: m.id, reverse=True)[:limit]
        return json_response([m.payload(self.emu.base_url) for m in messages])

    async def create_message(self, request: web.Request, channel_id: str) -> web.Response:
        route = f"POST /channels/{channel_id}/messages"
        channel = self._channel(channel_id)
        body, uploads = await read_body(request)
        problems = self.emu._check(body, creating=True, uploads=uploads)
        if problems:
            raise self._invalid(route, problems, None)
        self.emu.thread_rules.check_send(self.emu.bot_user, channel)
        message = await self.emu._create(
            channel, self.emu.bot_user, body, uploads, via="channel"
        )
        return self._json(message)

    async def get_message(self, request: web.Request, channel_id: str, message_id: str):
        return self._json(self._channel_message(channel_id, message_id))

    async def edit_message(self, request: web.Request, channel_id: str, message_id: str):
        route = f"PATCH /channels/{channel_id}/messages/{message_id}"
        message = self._channel_message(channel_id, message_id)
        if message.author is not self.emu.bot_user:
            raise HTTPError(403, 50005, "Cannot edit a message authored by another user")
        self.emu.thread_rules.check_edit(message.channel)
        body, uploads = await read_body(request)
        problems = self.emu._check(body, creating=False, uploads=uploads, flags=message.flags)
        if problems:
            raise self._invalid(route, problems, None)
        await self.emu._edit(message, body, uploads, via="channel_edit")
        return self._json(message)

    async def delete_message(self, request: web.Request, channel_id: str, message_id: str):
        message = self._channel_message(channel_id, message_id)
        await self.emu._delete(message, via="channel_delete")
        return no_content()

    async def add_reaction(
        self, request: web.Request, channel_id: str, message_id: str, emoji: str
    ) -> web.Response:
        message = self._channel_message(channel_id, message_id)
        await self.emu._react(message, self.emu.bot_user, emoji, True)
        return no_content()

    async def remove_reaction(
        self, request: web.Request, channel_id: str, message_id: str, emoji: str
    ) -> web.Response:
        message = self._channel_message(channel_id, message_id)
        await self.emu._react(message, self.emu.bot_user, emoji, False)
        return no_content()

    async def clear_reactions(self, request: web.Request, channel_id: str, message_id: str):
        message = self._channel_message(channel_id, message_id)
        message.reactions.clear()
        self.emu._touch()
        return no_content()

    # -- guilds ----------------------------------------------------------------------------

    def _guild(self, guild_id: str):
        guild = self.emu.guilds.get(int(guild_id))
        if guild is None:
            raise HTTPError(404, 10004, "Unknown Guild")
        return guild

    async def get_guild(self, request: web.Request, guild_id: str) -> web.Response:
        return json_response(self._guild(guild_id).payload())

    async def get_guild_channels(self, request: web.Request, guild_id: str) -> web.Response:
        guild = self._guild(guild_id)
        return json_response([c.payload() for c in guild.channels])

    async def get_roles(self, request: web.Request, guild_id: str) -> web.Response:
        return json_response([r.payload() for r in self._guild(guild_id).roles.values()])

    async def list_members(self, request: web.Request, guild_id: str) -> web.Response:
        guild = self._guild(guild_id)
        limit = int(request.query.get("limit", 1))
        after = int(request.query.get("after", 0))
        members = sorted(guild.members.values(), key=lambda m: m.user.id)
        members = [m for m in members if m.user.id > after][:limit]
        return json_response([m.payload() for m in members])

    async def get_member(self, request: web.Request, guild_id: str, user_id: str) -> web.Response:
        guild = self._guild(guild_id)
        member = guild.members.get(int(user_id))
        if member is None:
            raise HTTPError(404, 10007, "Unknown Member")
        return json_response(member.payload())
