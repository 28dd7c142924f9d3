"""What compose.yaml and the Dockerfile promise an operator, read from the files: the bot waits
for a healthy PostgreSQL and talks to it by its service name, the database keeps its data on a
named volume, and the image runs the console script as an unprivileged user with its SQLite
database on the /data volume. (``make container-test`` builds and runs the image itself.)"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]


def compose() -> dict:
    yaml = pytest.importorskip("yaml")
    return yaml.safe_load((ROOT / "compose.yaml").read_text())


def test_compose_starts_the_bot_once_postgresql_is_healthy():
    services = compose()["services"]
    bot, db = services["bot"], services["db"]
    assert bot["depends_on"]["db"]["condition"] == "service_healthy"
    assert "pg_isready" in " ".join(db["healthcheck"]["test"])
    # compose fills ${POSTGRES_PASSWORD...} in from .env
    url = urlsplit(re.sub(r"\$\{[^}]*\}", "secret", bot["environment"]["CRIBBAGE_DATABASE_URL"]))
    assert url.scheme == "postgresql" and url.hostname == "db"
    assert url.username == db["environment"]["POSTGRES_USER"]
    assert url.path == "/" + db["environment"]["POSTGRES_DB"]
    assert bot["env_file"] == ".env"  # the token comes from .env, never from this file
    assert "DISCORD_TOKEN" not in bot["environment"]


def test_compose_keeps_the_database_on_a_named_volume():
    spec = compose()
    volume, target = spec["services"]["db"]["volumes"][0].split(":")[:2]
    assert volume in spec["volumes"]
    assert target == "/var/lib/postgresql/data"


def instructions() -> list[tuple[str, str]]:
    """The Dockerfile's instructions of the final stage, continuation lines joined."""
    text = re.sub(r"\\\n\s*", " ", (ROOT / "Dockerfile").read_text())
    lines = [line.strip() for line in text.splitlines()]
    lines = [line for line in lines if line and not line.startswith("#")]
    last = max(i for i, line in enumerate(lines) if line.upper().startswith("FROM "))
    return [tuple(line.split(None, 1)) for line in lines[last:]]  # type: ignore[misc]


def test_the_image_runs_the_console_script_unprivileged_with_its_database_on_a_volume():
    final = instructions()
    said = {word.upper(): rest for word, rest in final}
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert said["ENTRYPOINT"].strip('[]"') in scripts
    assert said["USER"] not in ("root", "0")
    env = dict(re.findall(r"(\w+)=(\S+)", " ".join(r for w, r in final if w.upper() == "ENV")))
    assert env["CRIBBAGE_DB"] == "/data/cribbage.db"
    assert env["CRIBBAGE_HTTP_PORT"] == "8080"
    assert said["VOLUME"] == "/data"
    assert "/healthz" in said["HEALTHCHECK"] and "CRIBBAGE_HTTP_PORT" in said["HEALTHCHECK"]


def test_the_image_installs_from_the_lock_and_the_project_without_resolving_more():
    text = (ROOT / "Dockerfile").read_text()
    assert re.search(r"--require-hashes\s+-r\s+\S*requirements\.lock", text)
    assert re.search(r"--no-deps\s+/src", text)
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert {".git", ".venv", "tests", "*.db"} <= set(ignored)
