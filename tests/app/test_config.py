import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.app.config import ConfigError, load_config

ROOT = Path(__file__).resolve().parents[2]
GOOD = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB"


def test_a_valid_environment():
    config = load_config({"DISCORD_TOKEN": GOOD, "DISCORD_GUILD_ID": "123"}, dotenv=False)
    assert config.token == GOOD and config.guild_id == 123
    assert str(config.database) == "cribbage.db"
    assert GOOD not in repr(config) and "hidden" in repr(config)


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({}, "DISCORD_TOKEN is not set"),
        ({"DISCORD_TOKEN": "not-a-token"}, "does not look like"),
        ({"DISCORD_TOKEN": GOOD, "DISCORD_GUILD_ID": "abc"}, "digits only"),
    ],
)
def test_bad_environments_are_explained(env, message):
    with pytest.raises(ConfigError, match=message) as err:
        load_config(env, dotenv=False)
    assert ".env.example" in str(err.value) or "digits" in str(err.value)
    assert "not-a-token" not in str(err.value)


def run_bot(tmp_path, token: str | None):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "CRIBBAGE_"))}
    env["PYTHONPATH"] = str(ROOT)
    if token is not None:
        env["DISCORD_TOKEN"] = token
    return subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_python_m_bot_without_a_token_exits_2_with_one_paragraph(tmp_path):
    result = run_bot(tmp_path, None)
    assert result.returncode == 2
    assert "cp .env.example .env" in result.stderr
    assert result.stderr.strip().count("\n") == 0  # one paragraph


def test_a_malformed_token_is_refused_without_being_printed(tmp_path):
    secret = "definitely-secret-value"
    result = run_bot(tmp_path, secret)
    assert result.returncode == 2
    assert secret not in result.stderr + result.stdout
