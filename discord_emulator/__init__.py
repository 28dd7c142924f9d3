"""A Discord emulator for tests: the real discord.py client, a fake Discord.

An aiohttp server on 127.0.0.1 (random port) speaks the part of Discord's REST API v10 and
gateway that a discord.py bot uses: login, application-command sync, the gateway handshake
(HELLO, heartbeat, IDENTIFY, READY, GUILD_CREATE, RESUME), INTERACTION_CREATE for slash
commands, button clicks, selects and modals, interaction callbacks (types 4, 5, 6, 7, 8, 9),
followups and ``@original`` edits through the interaction webhook, channel messages, DMs,
reactions. The bot under test runs unmodified; only ``discord.http.Route.BASE`` and
``DiscordWebSocket.DEFAULT_GATEWAY`` are redirected, and only inside ``emu.running(...)``.

Usage::

    from discord_emulator import DiscordEmulator

    async def test_join(make_bot):
        async with DiscordEmulator() as emu:
            guild = emu.add_guild("Test")
            channel = emu.add_text_channel(guild, "cribbage")
            alice, bob = emu.add_user("alice"), emu.add_user("bob")  # join every guild
            bot = make_bot(guild_ready_timeout=0.05)  # else on_ready waits 2 s
            async with emu.running(bot):  # logged in, READY, commands synced
                started = await emu.slash(alice, channel, "cribbage start", players=2)
                table = emu.last_public(channel)
                await emu.click(bob, table, "Join")  # by label; or custom_id=, emoji=
                assert "bob" in table.content  # messages are live: latest version
                hand = await emu.click(alice, table, "Your hand")
                assert hand.ephemeral and hand.message in emu.ephemerals_for(alice)
                assert not emu.ephemerals_for(bob)
                await emu.wait_for(lambda: len(emu.public_messages(channel)) == 3)
                assert "5♥" not in "\\n".join(emu.all_public_text())

``slash``/``click``/``select``/``submit_modal`` dispatch the interaction, wait for the initial
response (at most ``response_deadline``, 3 s), then — for an in-process bot — until the
handler tasks discord.py started for it have finished ("settled", ``settle=False`` to skip),
so everything the handler did is visible when they return. Tasks the handler spawns itself
are not waited for: use ``await emu.wait_for(lambda: ...)``. No sleeps: every wait is on
asyncio events (about 1 ms per click). If discord.py starts no handler at all (unknown
custom_id, a non-persistent view after a restart) or the handler ends without responding, the
``no_response`` violation is raised at once instead of after 3 s. The returned
:class:`InteractionResult` has ``response_type``/``response_name``, ``message`` (created, or
the clicked message for types 6/7; live), ``ephemeral``, ``followups``, ``modal``,
``latency``, ``errors``. ``emu.autocomplete(user, channel, "cmd", "option", option="par")``
returns the bot's choices.

Users can only do what Discord lets them: options are checked against the synced command
(types, required, choices, min/max), ``default_member_permissions`` and DM ``contexts`` are
enforced, and a user must be a member of the channel's guild (``EmulatorError`` otherwise).

Forged interactions (``forge.py``: what a modified client or a stale command cache sends, and a
bot must survive): ``emu.forge_click(user, channel, custom_id, message=...)``,
``emu.forge_select(user, channel, custom_id, values, message=...)`` and
``emu.forge_slash(user, channel, "cribbage start", players=9)`` skip every check above: any
custom id on any live message, any select values, option values outside their choices and
ranges, a DM (``emu.dm_channel(user)``: no guild, ``context`` 1) whatever the command's
``contexts``, a user outside the guild (``emu.stranger(name, user_id=...)``). They are answered,
timed and checked like any other interaction. ``settle=False`` on any of them (and on
``slash``/``click``) returns after the first answer; ``await emu.settle(result)`` waits for the
handler later.

Discord behaviour modelled (so tests catch what production would do):

- the first followup after a type-5 defer *replaces* the "thinking" message and keeps the
  defer's visibility: ``defer()`` then ``followup.send(..., ephemeral=True)`` is PUBLIC;
- ``@original`` of a component interaction answered with type 6/7 is the clicked message;
- ephemeral messages are visible only to ``visible_to``; a user cannot click another user's
  ephemeral message, a disabled button, or a button no longer on the message (unless
  ``allow_stale=True``);
- late, second, or wrong-type initial responses, expired/unknown/foreign tokens and messages
  over the limits are answered with Discord's HTTP errors (10062, 40060, 50035, 50006, 10015,
  50027, 10008) *and* recorded as :class:`Violation`\\ s.

Violations (strict mode, the default): each is raised as :class:`ViolationError` from the
next ``slash``/``click``/..., or when leaving ``emu.running()`` / the emulator. Take expected
ones with ``emu.take_violations(kind)`` or ``with emu.expect_violation(kind):``. Kinds:
``no_response``, ``late_response``, ``double_response``, ``invalid_response_type``,
``followup_before_response``, ``unknown_token``, ``expired_token`` (older than ``token_ttl``,
900 s of emulator clock: ``emu.advance_clock(901)``), ``foreign_token`` (another user's
ephemeral message addressed through this token), ``foreign_message`` (a message the token
neither answered with nor sent as a follow-up), ``invalid_message`` (content > 2000,
embed description > 4096 and the other embed limits, > 5 rows, > 5 buttons in a row,
custom_id > 100 or duplicated, empty message, and whatever the ``requestBody`` schema of
Discord's OpenAPI description refuses), ``invalid_request`` (another route's body the
description refuses), ``invalid_commands`` (a command sync Discord refuses), ``invalid_answer``
(with ``check_answers``: an answer of the emulator's unlike the description's response schema,
``spec.py``), ``invalid_event`` (with ``check_answers``: a gateway event whose message, member,
user or thread is unlike the description's schema of that object), ``unknown_route`` (the
emulator lacks it).
Errors discord.py logs while handling an interaction ("Ignoring exception in command ...")
are raised as :class:`BotError` the same way (``emu.take_bot_errors()``); add the bot's own
loggers with ``emu.running(bot, error_loggers=("discord", "cribbage"))``.

Pings (``pings.py``: each rule with its Discord citation): ``emu.pings`` lists every
notification (:class:`Ping`: ``user``, ``message``, ``channel``, ``at``, ``reason``, ``silent``)
by Discord's allowed-mentions rules -- mentions in content (never embeds), interaction messages
parse users by default, ``allowed_mentions`` narrows them, ephemeral messages and every edit
(the fill of a deferred response too) notify nobody; ``emu.pings_for(user)``;
``emu.ghost_pings`` (a pinging message deleted afterwards); ``emu.messages_below(message)``
(the public messages a client shows under it, oldest first).

Threads and permissions (``threads.py``): the bot starts threads from a message or without one
(THREAD_CREATE, the starter message, Discord's "started a thread" notice in the channel), posts
and answers interactions in them; ``emu.start_thread(user, channel, name, message=...)``,
``emu.threads_in(channel)``, ``emu.set_permissions(channel, role_or_user, allow=, deny=)``
(channel overwrites; interactions carry the permissions in their channel),
``emu.permissions_in(user, channel)``. What Discord refuses is refused with its error codes
(CREATE_PUBLIC_THREADS to start one, SEND_MESSAGES_IN_THREADS to post, names of 1-100
characters, one thread per message, none in a thread, archived and locked threads).

Other helpers: ``emu.public_messages(channel)``, ``emu.last_public(channel)``,
``emu.ephemerals_for(user)``, ``emu.last_ephemeral(user)``, ``emu.visible_to(user, channel)``,
``emu.dms_for(user)``, ``emu.all_public_text()``, ``emu.registered_commands(guild)``,
``emu.say(user, channel, text)``, ``emu.react(user, message, "👍")``, ``emu.wait_for(pred)``,
``emu.advance_clock(s)``, ``emu.force_reconnect()`` / ``emu.drop_connection()`` (the client
RESUMEs), ``emu.wait_ready()`` + ``emu.launch_command(module=...)`` for a bot in a subprocess
(see ``launch.py``). Messages: ``.content``, ``.embeds`` (dicts), ``.components`` (rows you
can index: ``msg.components[0][1].label``), ``.buttons``, ``.selects``,
``.find_button(label=..., custom_id=..., emoji=...)``, ``.attachments`` (filename, size,
data), ``.text``, ``.versions`` (every version), ``.ephemeral``, ``.visible_to``.

Transcript schema
-----------------
Everything is recorded in ``emu.transcript.records`` and, when ``$DISCORD_EMULATOR_TRANSCRIPT``
(or ``DiscordEmulator(transcript_path=...)``) names a file, appended to it as one JSON object
per line. Ids are strings. Every record has:

``run``    8 hex chars, one per emulator instance (a file may hold many runs);
``seq``    1, 2, 3... within the run;  ``t``  emulator clock in seconds;
``wall``   ISO-8601 UTC wall time;     ``kind`` one of the kinds below.

kind ``start``: ``url``, ``application_id``, ``bot_user``, ``test`` (pytest's current test).
kind ``client_start`` / ``client_stop``: ``client`` (class name) — an in-process bot run.
kind ``gateway``: ``event`` = identify (``session_id``, ``intents``) | resume (``replayed``) |
    resume_failed | disconnect (``close_code``, ``resumable``) | reconnect_requested | dropped.
kind ``command_sync``: ``scope`` ("global" or guild id), ``commands`` (names now registered).
kind ``interaction`` (inbound, a user acted): ``interaction_id``, ``interaction_type``
    (slash | component | modal), ``user_id``, ``user``, ``channel_id``, ``channel``,
    ``guild_id``; slash: ``command`` ("cribbage start"), ``options`` ({name: value}; users,
    channels and roles as {id, name}); component: ``custom_id``, ``component_type`` (2 button,
    3 string select...), ``label`` (buttons), ``values`` (selects), ``message_id`` (the message
    clicked); modal: ``custom_id``, ``values`` ({input: text}); ``forged: true`` when sent
    with ``forge_click``/``forge_select``/``forge_slash``.
kind ``response`` (the bot's initial response): ``interaction_id``, ``response_type`` (4, 5, 6,
    7, 9), ``response_name``, ``accepted`` (false when rejected as late), ``latency_ms``,
    ``ephemeral``; ``error`` when rejected.
kind ``message`` (outbound; every version of every message, and user posts):
    ``action`` = create | edit | fill (a deferred "thinking" message gets its content) | delete;
    ``message_id``, ``channel_id``, ``channel``, ``author``, ``visibility`` (public |
    ephemeral | dm), ``visible_to`` / ``visible_to_name`` (the only user who sees an ephemeral
    message; null when public), ``interaction_id`` (the interaction whose token created it),
    ``by_interaction_id`` (edits: the interaction whose token or click edited it), ``via``
    (interaction_response | deferred | followup | component_update | webhook_edit | channel |
    channel_edit | user | system (thread notices) | ...delete), ``version`` (1 = creation),
    ``loading``, ``content``, ``embeds`` (Discord embed dicts), ``components`` (Discord
    component dicts as sent: action rows of buttons with label, custom_id, style, disabled,
    emoji), ``attachments``
    ([{filename, size}]), ``flags``. A delete has only the ids, ``visibility`` and ``via``.
kind ``reaction``: ``action`` (add | remove), ``message_id``, ``emoji``, ``user_id``, ``user``.
kind ``violation``: ``violation`` (its kind), ``detail``, ``interaction_id``, ``route``.
kind ``bot_error``: ``text`` (a discord.py ERROR log line), ``interaction_id`` if known.
kind ``http_error``: ``route``, ``status``, ``code``, ``message``, ``errors`` — every error
    the emulator answered the bot with.
kind ``clock``: ``advanced`` (seconds added to the emulator clock).
kind ``ping``: ``message_id``, ``channel_id``, ``channel``, ``user_id``, ``user``, ``reason``
    (mention | role | everyone | reply | dm), ``silent``, ``via`` -- one per user notified.
kind ``ghost_ping``: ``message_id``, ``channel_id``, ``channel``, ``user_ids``, ``users``,
    ``lived_ms`` -- a message that had pinged them was deleted.
kind ``thread``: ``action`` (create | update), ``thread_id``, ``name``; create: ``parent_id``,
    ``parent``, ``owner``, ``thread_type``, ``message_id`` (the message it was started from);
    update: ``archived``, ``locked``.

To audit privacy, filter ``kind == "message" and visibility == "public"``: that is everything
any channel member ever saw.
"""

from .base import EmulatorTimeout
from .emulator import DiscordEmulator
from .models import (
    ActionRow,
    Attachment,
    BotError,
    Button,
    EmuChannel,
    EmuGuild,
    EmulatorError,
    EmuMember,
    EmuMessage,
    EmuRole,
    EmuUser,
    InteractionResult,
    MessageVersion,
    SelectMenu,
    Violation,
    ViolationError,
)
from .pings import Ping
from .transcript import ENV_VAR as TRANSCRIPT_ENV_VAR

__all__ = [
    "TRANSCRIPT_ENV_VAR",
    "ActionRow",
    "Attachment",
    "BotError",
    "Button",
    "DiscordEmulator",
    "EmuChannel",
    "EmuGuild",
    "EmuMember",
    "EmuMessage",
    "EmuRole",
    "EmuUser",
    "EmulatorError",
    "EmulatorTimeout",
    "InteractionResult",
    "MessageVersion",
    "Ping",
    "SelectMenu",
    "Violation",
    "ViolationError",
]
