"""The bot's logs: their level and format (``LOG_LEVEL``, ``LOG_FORMAT``), and no secret in them.

At DEBUG, discord.py logs every request's URL (an interaction's token is in it), every payload
sent and received (a private hand among them) and every gateway event (an INTERACTION_CREATE
carries its token and the message clicked). The filter ``python -m bot`` installs on the root
handlers leaves none of that in any line, in text or in JSON."""

from __future__ import annotations

import io
import json
import logging
import re

import discord
import pytest

from bot.app.client import CribbageBot
from bot.app.config import Config, ConfigError
from bot.app.logs import REDACTED, JsonLines, RedactSecrets, configure, install
from tests.support.discord_players import TOKEN, Seat, hidden_cards, open_club


def card_pattern(cards) -> re.Pattern[str]:
    """Any of ``cards`` as the players see it (``5♥``), or as a custom id or a stored action
    carries it (``crib:p:7:12:5H``, ``"5H"``)."""
    shown = "|".join(re.escape(str(c)) for c in cards)
    codes = "|".join(re.escape(c.code) for c in cards)
    return re.compile(rf"(?<![0-9A-Za-z])(?:{shown})|(?<=[:'\"])(?:{codes})(?![0-9A-Za-z])")


@pytest.fixture(params=["text", "json"])
def debug_logs(request):
    """The whole process at DEBUG into two buffers: ``raw`` as discord.py writes it, ``safe``
    through the filter, as text or as JSON lines (the raw handler comes first: the filter
    rewrites the records)."""
    raw, safe = io.StringIO(), io.StringIO()
    raw_handler, safe_handler = logging.StreamHandler(raw), logging.StreamHandler(safe)
    redactor = RedactSecrets([TOKEN])
    raw_handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    safe_handler.setFormatter(
        JsonLines(redactor)
        if request.param == "json"
        else logging.Formatter("%(levelname)s %(name)s: %(message)s")
    )
    safe_handler.addFilter(redactor)
    root = logging.getLogger()
    level = root.level
    root.handlers.insert(0, raw_handler)
    root.addHandler(safe_handler)
    root.setLevel(logging.DEBUG)
    try:
        yield raw, safe
    finally:
        root.removeHandler(raw_handler)
        root.removeHandler(safe_handler)
        root.setLevel(level)


async def test_a_game_at_debug_logs_no_token_and_no_hidden_card(tmp_path, debug_logs):
    raw, safe = debug_logs
    async with open_club(tmp_path, privacy=False) as driver:
        alice, bob = driver.users[:2]
        # no pictures: a hand is then sent as JSON text, which discord.py logs whole
        await driver.bot.manager.settings.update_server(driver.guild.id, images=False)
        await driver.start_game(alice, [bob])
        seats = {u.id: Seat(u) for u in (alice, bob)}
        live, game_id = driver.bot.manager.live, driver.game_id()
        while live[game_id].game is None or len(live[game_id].game.played) < 2:  # the pegging
            for user_id in driver.whose_move():
                await driver.move(seats[user_id])
        for seat in seats.values():  # both hands open: a click shows one, the other is redrawn
            await driver.click(seat.user, driver.table_message(), "Your hand")
        # cards in hands (or the pack) now, never shown in the channel (the cut for the deal
        # showed some, then a fresh pack was shuffled: they may be in a hand now)
        public = "\n".join(driver.emu.all_public_text())
        hidden = {c for c in hidden_cards(driver.bot, driver.game_id()) if str(c) not in public}
        tokens = [pending.result.token for pending in driver.emu.interactions.values()]
        # a line of ours that would print the token (an error message quoting the config)
        logging.getLogger("bot.app").warning("login with %s failed", TOKEN)
    raw_text, safe_text = raw.getvalue(), safe.getvalue()
    if safe_text.startswith("{"):  # JSON lines: every line one object; decoded, checked too
        records = [json.loads(line) for line in safe_text.splitlines()]
        safe_text += "\n".join(str(value) for record in records for value in record.values())
    assert len(tokens) > 10 and len(hidden) > 8
    # discord.py's own debug lines are there, and the raw ones show what must not be shown
    for line in ("has returned", "has received", "WebSocket Event", "INTERACTION_CREATE"):
        assert line in safe_text
    assert sum(token in raw_text for token in tokens) == len(tokens)
    assert card_pattern(hidden).search(raw_text) and TOKEN in raw_text

    assert not [token for token in tokens if token in safe_text]
    assert TOKEN not in safe_text
    leaked = card_pattern(hidden).search(safe_text)
    assert leaked is None, safe_text[max(0, leaked.start() - 300) : leaked.end() + 100]
    assert f"/interactions/{tokens[0].split('.')[0][3:]}/{REDACTED}/callback" in safe_text


def test_every_kind_of_secret_is_redacted_in_message_arguments_and_traceback():
    redactor = RedactSecrets(["s3cret-bot-token"])
    lines = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(logging.Formatter("%(message)s").format(record))

    logger = logging.getLogger("tests.logs.redaction")
    handler = Keep()
    handler.addFilter(redactor)
    logger.addHandler(handler)
    logger.propagate = False
    logger.setLevel(logging.DEBUG)
    try:
        logger.warning("token %s", "s3cret-bot-token")
        logger.warning(
            "%s %s with %s has returned %s",
            "POST",
            "https://discord.com/api/v10/webhooks/42/aW50.tok3n/messages/@original",
            {"content": "Your hand: 5♥ 6♣"},
            200,
        )
        event = {
            "t": "INTERACTION_CREATE",
            "s": 7,
            "d": {
                "id": "1",
                "type": 3,
                "token": "aW50.tok3n",
                "data": {"custom_id": "crib:h:3"},
                "message": {"content": "Your hand: 5♥ 6♣"},
            },
        }
        logger.debug("For Shard ID %s: WebSocket Event: %s", None, event)
        logger.info('{"token": "aW50.tok3n", "x": 1}')
        logger.info("a token of that shape: MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.%s", "a" * 38)
        try:
            raise RuntimeError("POST /interactions/9/aW50.tok3n/callback failed")
        except RuntimeError:
            logger.exception("it failed")
    finally:
        logger.removeHandler(handler)
    text = "\n".join(lines)
    for secret in ("s3cret-bot-token", "tok3n", "5♥", "MTIzNDU2Nzg5MDEyMzQ1Njc4"):
        assert secret not in text, text
    assert "crib:h:3" in text and "/webhooks/42/[redacted]/messages/@original" in text
    assert "INTERACTION_CREATE" in text and "has returned 200" in text


def test_install_puts_the_filter_on_every_handler_of_the_root_logger():
    root = logging.getLogger()
    added = [logging.StreamHandler(io.StringIO()) for _ in range(2)]
    for handler in added:
        root.addHandler(handler)
    try:
        redactor = install("s3cret")
        assert all(redactor in handler.filters for handler in root.handlers)
        logging.getLogger("discord.http").error("using s3cret")
        assert all("s3cret" not in h.stream.getvalue() for h in added)
        assert all(REDACTED in h.stream.getvalue() for h in added)
    finally:
        for handler in root.handlers:
            if redactor in handler.filters:
                handler.removeFilter(redactor)
        for handler in added:
            root.removeHandler(handler)


@pytest.fixture
def logger():
    """A logger of its own (not the root's), as ``configure`` sets one up; emptied after."""
    log = logging.getLogger("tests.logs.configured")
    log.propagate = False
    yield log
    for handler in list(log.handlers):
        log.removeHandler(handler)
    log.setLevel(logging.NOTSET)


def test_json_lines_carry_time_level_logger_message_and_exception_without_the_token(logger):
    out = io.StringIO()
    configure(TOKEN, {"LOG_FORMAT": "json"}, stream=out, logger=logger)
    logger.info("connected with %s to %s", TOKEN, "/webhooks/42/aW50.tok3n/messages/@original")
    logger.warning("an extra field", extra={"config": {"token": "s3cret", "used": TOKEN}})
    try:
        raise RuntimeError(f"login with {TOKEN} failed")
    except RuntimeError:
        logger.exception("start failed")
    logger.debug("below INFO: not written")
    text = out.getvalue()
    assert TOKEN not in text and "tok3n" not in text and "s3cret" not in text
    first, extra, failed = (json.loads(line) for line in text.splitlines())
    assert list(first) == ["time", "level", "logger", "message"]
    assert first["time"].endswith("+00:00") and first["level"] == "INFO"
    assert first["logger"] == "tests.logs.configured"
    assert (
        first["message"]
        == f"connected with {REDACTED} to /webhooks/42/{REDACTED}/messages/@original"
    )
    assert extra["config"] == {"token": REDACTED, "used": REDACTED}
    assert failed["level"] == "ERROR" and failed["message"] == "start failed"
    assert failed["exception"].startswith("Traceback (most recent call last):")
    assert failed["exception"].endswith(f"RuntimeError: login with {REDACTED} failed")


def test_text_lines_by_default_at_info(logger):
    out = io.StringIO()
    configure(TOKEN, {}, stream=out, logger=logger)
    logger.info("token %s", TOKEN)
    logger.debug("hidden")
    (line,) = out.getvalue().splitlines()
    assert re.fullmatch(
        rf"\d{{4}}-\d\d-\d\d \d\d:\d\d:\d\d,\d{{3}} INFO tests.logs.configured: token "
        rf"{re.escape(REDACTED)}",
        line,
    )


def test_log_level_sets_the_level_and_an_unknown_one_is_refused(logger):
    out = io.StringIO()
    configure(TOKEN, {"LOG_LEVEL": "warning", "LOG_FORMAT": "JSON"}, stream=out, logger=logger)
    logger.info("not written")
    logger.warning("written")
    assert [json.loads(line)["message"] for line in out.getvalue().splitlines()] == ["written"]
    for environ, wrong in (
        (
            {"LOG_LEVEL": "verbose"},
            "LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL",
        ),
        ({"LOG_LEVEL": "10"}, "not '10'"),
        ({"LOG_FORMAT": "xml"}, "LOG_FORMAT must be text or json, not 'xml'"),
    ):
        handlers = list(logger.handlers)
        with pytest.raises(ConfigError, match=re.escape(wrong)):
            configure(TOKEN, environ, stream=out, logger=logger)
        assert logger.handlers == handlers and logger.level == logging.WARNING  # unchanged


def test_the_bot_starts_without_discord_py_s_voice_warnings(tmp_path, caplog, monkeypatch):
    """discord.py warns at a client's creation that PyNaCl and davey (voice) are missing; the
    bot has no voice and turns the warnings off."""
    # discord.py before 2.7.1 has no davey (DAVE) and so no warning about it
    dave = hasattr(discord.voice_client, "has_dave")
    flags = ("warn_nacl", "warn_dave") if dave else ("warn_nacl",)
    for flag in flags:  # as in a fresh process without the libraries
        monkeypatch.setattr(discord.VoiceClient, flag, True)
    config = Config(token=TOKEN, database=tmp_path / "c.db", guild_id=None)
    with caplog.at_level(logging.WARNING, logger="discord"):
        CribbageBot(config)
    assert not [r for r in caplog.records if "voice will NOT be supported" in r.getMessage()]
    for flag in flags:  # what a plain discord.Client would warn about
        monkeypatch.setattr(discord.VoiceClient, flag, True)
    with caplog.at_level(logging.WARNING, logger="discord"):
        discord.Client(intents=discord.Intents.none())
    warned = [
        r.getMessage() for r in caplog.records if "voice will NOT be supported" in r.getMessage()
    ]
    assert warned == [
        "PyNaCl is not installed, voice will NOT be supported",
        *(["davey is not installed, voice will NOT be supported"] if dave else []),
    ]
