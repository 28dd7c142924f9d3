"""``make container-test``: the bot's container image plays a whole game and survives a restart.

Builds the base image from Debian's packages (``build-base.sh``, skipped when it exists), the
bot's image from the repository's ``Dockerfile`` on that base, and a PostgreSQL image
(``postgres.Dockerfile``); starts PostgreSQL in one container and the bot's image in another,
both on the host's network, the bot pointed at the Discord emulator this script runs on the
host (test code, not in the image: ``tests/`` is mounted read-only and the entrypoint
overridden with the emulator's launcher, so the image's installed bot is what runs). One
scripted person plays a 121-point game against the computer; after the second discard the
bot's container is restarted (``podman restart``: SIGTERM, then a new process), and the game
goes on from the same table and hands to its end. The finished game is then read back from
PostgreSQL and its whole log replayed.

Prints ``name: value unit`` figures; exits non-zero on any failure. Run from the repository
root with the project's venv and ``CONTAINERS_CONF`` set (the Makefile does both)::

    PYTHONPATH=. .venv/bin/python deploy/container/game_test.py

Not a pytest module: ``make test`` neither collects nor runs it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import secrets
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
BASE = "localhost/cribbage-base:bookworm"
BOT_IMAGE = "localhost/cribbage-bot:container-test"
PG_IMAGE = "localhost/cribbage-postgres:15"
HOST_CA = Path("/etc/ssl/certs/ca-certificates.crt")
CONTAINER_TESTS = "/opt/cribbage-tests"  # where discord_emulator/ is mounted in the container


class Failure(Exception):
    """The container test failed; the message says where."""


def figure(name: str, value: object, unit: str = "") -> None:
    print(f"{name}: {value} {unit}".rstrip(), flush=True)


def podman(*args: str, check: bool = True, timeout: float = 900) -> subprocess.CompletedProcess:
    done = subprocess.run(
        ["podman", *args], capture_output=True, text=True, timeout=timeout, cwd=ROOT
    )
    if check and done.returncode != 0:
        said = (done.stdout + done.stderr).strip()[-4000:]
        raise Failure(f"podman {' '.join(args[:3])} ... failed ({done.returncode}):\n{said}")
    return done


def build_flags() -> list[str]:
    """Builds in the docker format (the OCI format drops HEALTHCHECK). Where this machine trusts
    a TLS-intercepting proxy's certificate, its bundle is lent to the build's RUN steps (a
    mount, not a layer) so that pip and apt reach their registries; the image keeps its own."""
    flags = ["--format", "docker"]
    if HOST_CA.is_file():
        flags += ["--volume", f"{HOST_CA}:/etc/ssl/certs/ca-certificates.crt:ro"]
    return flags


def timed(action, *args) -> float:
    began = time.perf_counter()
    action(*args)
    return time.perf_counter() - began


def build_base() -> None:
    done = subprocess.run(
        [str(HERE / "build-base.sh"), BASE], capture_output=True, text=True, timeout=1800
    )
    if done.returncode != 0:
        raise Failure(f"the base image did not build:\n{(done.stdout + done.stderr)[-4000:]}")


def build_bot() -> None:
    podman("build", *build_flags(), "--build-arg", f"BASE={BASE}", "-t", BOT_IMAGE, str(ROOT))
    # what earlier builds left untagged: their build stages, and images since replaced
    for label in ("org.cribbage-bot.stage=build", "org.opencontainers.image.title=cribbage-bot"):
        podman("image", "prune", "--force", "--filter", f"label={label}")


def build_postgres() -> None:
    podman(
        "build", *build_flags(), "--build-arg", f"BASE={BASE}", "-t", PG_IMAGE,
        "-f", str(HERE / "postgres.Dockerfile"), str(HERE),
    )


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextlib.contextmanager
def container(name: str) -> Iterator[str]:
    """Removes the container ``name`` (and its anonymous volumes) on the way out."""
    podman("rm", "--force", "--volumes", name, check=False)
    try:
        yield name
    finally:
        podman("rm", "--force", "--volumes", "--time", "5", name, check=False)


def start_postgres(name: str, port: int, password: str) -> None:
    podman(
        "run", "--detach", "--name", name, "--network", "host",
        "--env", "POSTGRES_USER=cribbage", "--env", f"POSTGRES_PASSWORD={password}",
        "--env", "POSTGRES_DB=cribbage", "--env", f"PGPORT={port}",
        "--env", "POSTGRES_LISTEN=127.0.0.1", PG_IMAGE,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # the image's own HEALTHCHECK: pg_isready
        if podman("healthcheck", "run", name, check=False).returncode == 0:
            return
        if "running" not in podman("inspect", "--format", "{{.State.Status}}", name).stdout:
            break
        time.sleep(0.5)
    logs = podman("logs", name, check=False)
    raise Failure(f"PostgreSQL did not become ready:\n{(logs.stdout + logs.stderr)[-3000:]}")


def start_bot(name: str, emulator_url: str, *database: str) -> None:
    """The image's bot in container ``name``, launched at the emulator; ``database``: the
    podman options that give it its database (an --env with the URL, or a --volume)."""
    from tests.support.discord_players import TOKEN

    podman(
        "run", "--detach", "--name", name, "--network", "host",
        "--volume", f"{ROOT / 'discord_emulator'}:{CONTAINER_TESTS}/discord_emulator:ro",
        "--workdir", CONTAINER_TESTS,
        "--env", f"DISCORD_TOKEN={TOKEN}", *database,
        "--env", f"CRIBBAGE_HTTP_PORT={free_port()}", "--env", "CRIBBAGE_HTTP_HOST=127.0.0.1",
        "--entrypoint", "python3", BOT_IMAGE,
        "-m", "discord_emulator.launch", "--url", emulator_url, "-m", "bot",
    )


def bot_logs(name: str) -> str:
    done = podman("logs", name, check=False)
    return done.stdout + done.stderr


HEALTH_PROBE = (
    "import os, urllib.error, urllib.request\n"
    "url = 'http://127.0.0.1:%s/healthz' % os.environ['CRIBBAGE_HTTP_PORT']\n"
    "try:\n"
    "    print(urllib.request.urlopen(url, timeout=4).status)\n"
    "except urllib.error.HTTPError as err:\n"
    "    print(err.code)\n"
    "except OSError:\n"
    "    print('refused')\n"
)


def health(name: str) -> str:
    """What the image's HEALTHCHECK says of the running bot: healthy, or unhealthy and why;
    "none" when this bot serves no HTTP endpoint at all (CRIBBAGE_HTTP_PORT unknown to it)."""
    status = podman("exec", name, "python3", "-c", HEALTH_PROBE, check=False).stdout.strip()
    if status == "refused":
        knows = podman(
            "exec", name, "sh", "-c",
            "grep -rlq CRIBBAGE_HTTP_PORT /opt/venv/lib/python3*/site-packages/bot",
            check=False,
        )
        if knows.returncode != 0:
            return "none"
    verdict = podman("healthcheck", "run", name, check=False)
    return "healthy" if verdict.returncode == 0 else f"unhealthy (/healthz: {status})"


async def wait_healthy(name: str, timeout: float = 30) -> str:
    deadline = time.monotonic() + timeout
    while True:
        said = await asyncio.to_thread(health, name)
        if said in ("healthy", "none") or time.monotonic() > deadline:
            return said
        await asyncio.sleep(1)


async def wait_connected(emu, name: str, known: set[str], timeout: float = 90) -> str:
    """Wait until the bot in container ``name`` has a new READY gateway session (not in
    ``known``) and its commands; its id."""

    def ready() -> str | None:
        for session in emu.gateway.live_sessions():
            if session.id not in known and session.ready and session.connected:
                return str(session.id)
        return None

    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        found = ready()
        if found and emu.has_commands():
            return found
        state = (await asyncio.to_thread(
            podman, "inspect", "--format", "{{.State.Status}}", name
        )).stdout.strip()
        if state not in ("running", "created", "configured", "initialized"):
            raise Failure(f"the bot's container is {state}:\n{bot_logs(name)[-4000:]}")
        with contextlib.suppress(Exception):
            await emu.wait_for(ready, timeout=1)
    raise Failure(f"the bot did not connect in {timeout:.0f} s:\n{bot_logs(name)[-4000:]}")


async def play(driver, seats, *, until=None, max_rounds: int = 3000) -> None:
    """Move when the table says so, until the game is over (or ``until()``)."""
    for _ in range(max_rounds):
        if driver.game_over() or (until is not None and until()):
            return
        await driver.emu.wait_for(
            lambda: driver.game_over() or driver.whose_move() or driver.between_deals(),
            timeout=30, what="the table to move on",
        )
        if not driver.game_over():
            await driver.round(seats)
    raise Failure("the game did not end")


async def check_database(database_url: str, game_id: int) -> tuple[int, int]:
    """The game is finished in PostgreSQL and its whole log replays to its stored result;
    (its deals, the winner's score)."""
    from bot.app.verify import verify_game
    from db import Store

    store = await Store.open(database_url)
    try:
        record = await store.games.load_game(game_id)
        if record is None or record.status != "finished":
            raise Failure(f"game {game_id} is not finished in PostgreSQL: {record!r}")
        check = await verify_game(store, game_id)
        if not check.replayed or check.problems:
            raise Failure(f"game {game_id} does not replay: {check!r}")
        deals = {row.deal for row in await store.games.deal_points(game_id)}
        best = max(result.final_score for result in await store.games.results(game_id))
        return len(deals), best
    finally:
        await store.close()


async def game(args: argparse.Namespace, pg_port: int, password: str) -> None:
    from discord_emulator import DiscordEmulator
    from tests.support.discord_players import TOKEN, Driver, Seat

    database_url = f"postgresql://cribbage:{password}@127.0.0.1:{pg_port}/cribbage"
    name = f"cribbage-container-test-bot-{os.getpid()}"
    async with DiscordEmulator(rate_limits=False, host="127.0.0.1") as emu:
        guild = emu.add_guild("Container Club")
        channel = emu.add_text_channel(guild, "cribbage")
        alice = emu.add_user("alice")
        with container(name):
            began = time.perf_counter()
            await asyncio.to_thread(
                start_bot, name, emu.url, "--env", f"CRIBBAGE_DATABASE_URL={database_url}"
            )
            first = await wait_connected(emu, name, set())
            figure("bot container start to ready", f"{time.perf_counter() - began:.1f}", "s")
            said = await wait_healthy(name)
            if said == "none":
                figure("healthcheck", "skipped (this bot serves no /healthz)")
            elif said != "healthy":
                raise Failure(f"the image's HEALTHCHECK failed: {said}")
            else:
                figure("healthcheck before the restart", said)

            driver = Driver(emu, channel, None)
            seats = {alice.id: Seat(alice)}
            played = time.perf_counter()
            await driver.slash(alice, "cribbage start", target=args.target, computer="easy")

            def lobby():
                return next(
                    m for m in reversed(emu.public_messages(channel)) if m.find_button("Start")
                )

            start = await emu.wait_for(lobby, timeout=20, what="the lobby")
            await driver.click(alice, start, "Start", kind="lobby")
            await driver.follow()
            await play(driver, seats, until=lambda: driver.clicks_by_kind["discard"] >= 2)
            if driver.game_over():
                raise Failure("the game ended before the restart")
            game_id = driver.shown_game_id()
            if game_id is None:
                raise Failure("the table shows no game")
            before = driver.clicks

            began = time.perf_counter()
            await asyncio.to_thread(podman, "restart", "--time", "20", name)
            second = await wait_connected(emu, name, {first})
            figure("bot restart to ready", f"{time.perf_counter() - began:.1f}", "s")
            said = await wait_healthy(name)
            if said not in ("healthy", "none"):
                raise Failure(f"the image's HEALTHCHECK failed after the restart: {said}")

            await play(driver, seats)  # on the table and hand the first process drew
            if not driver.game_over() or driver.clicks <= before:
                raise Failure("the game did not finish after the restart")
            figure("game played", f"{time.perf_counter() - played:.1f}", "s")
            figure("clicks before the restart", before, "clicks")
            figure("clicks after the restart", driver.clicks - before, "clicks")
            logs = bot_logs(name)
            if TOKEN in logs:
                raise Failure("the bot's log shows its token")
            if "Traceback" in logs:
                raise Failure(f"the bot's log has a traceback:\n{logs[-4000:]}")
            if "Shutting down" not in logs:
                raise Failure(f"the restart did not shut the bot down cleanly:\n{logs[-4000:]}")
            known = {first, second}
        deals, best = await check_database(database_url, game_id)
        figure("game deals", deals, "deals")
        figure("winner's score", best, "points")
        figure("game finished across a restart", "yes")
        await sqlite_on_the_volume(emu, known)


async def sqlite_on_the_volume(emu, known: set[str]) -> None:
    """The image as ``docker run -v VOLUME:/data`` runs it, with no database setting: its
    unprivileged user makes the SQLite database on a new named volume, and /healthz (a write
    to the database among its checks) passes."""
    name = f"cribbage-container-test-sqlite-{os.getpid()}"
    volume = f"{name}-data"
    podman("volume", "rm", "--force", volume, check=False)
    try:
        with container(name):
            await asyncio.to_thread(start_bot, name, emu.url, "--volume", f"{volume}:/data")
            await wait_connected(emu, name, known)
            said = await wait_healthy(name)
            if said not in ("healthy", "none"):
                raise Failure(f"the HEALTHCHECK failed on SQLite in /data: {said}")
            made = podman("exec", name, "test", "-s", "/data/cribbage.db", check=False)
            if made.returncode != 0:
                raise Failure(f"no database in /data:\n{bot_logs(name)[-4000:]}")
            figure("SQLite on the /data volume", said)
    finally:
        podman("volume", "rm", "--force", volume, check=False)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--target", type=int, default=121, choices=(61, 121),
                        help="the game's points (default 121)")
    args = parser.parse_args(argv)
    began = time.perf_counter()
    try:
        cached = subprocess.run(["podman", "image", "exists", BASE]).returncode == 0
        figure("base image build", f"{timed(build_base):.1f}", "s")
        figure("base image cached", "yes" if cached else "no")
        figure("bot image build", f"{timed(build_bot):.1f}", "s")
        size = int(podman("image", "inspect", "--format", "{{.Size}}", BOT_IMAGE).stdout)
        figure("bot image size", f"{size / 1e6:.0f}", "MB")
        figure("postgres image build", f"{timed(build_postgres):.1f}", "s")
        pg_port, password = free_port(), secrets.token_hex(12)
        with container(f"cribbage-container-test-pg-{os.getpid()}") as pg:
            start_postgres(pg, pg_port, password)
            asyncio.run(game(args, pg_port, password))
    except Failure as failure:
        print(f"container test FAILED: {failure}", file=sys.stderr)
        return 1
    figure("container test", f"{time.perf_counter() - began:.1f}", "s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
