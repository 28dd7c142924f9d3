# The cribbage bot: `podman build -t cribbage-bot .` (or docker build), then
#   podman run -d --env-file .env -v cribbage-data:/data -p 8080:8080 cribbage-bot
# docs/admin/deploy.md covers compose, PostgreSQL and the settings.
#
# BASE: any Debian bookworm image with Python 3.11. The default is the official slim image;
# machines with no registry build one from Debian's packages (deploy/container/build-base.sh,
# used by `make container-test`) and pass --build-arg BASE=localhost/cribbage-base:bookworm.
# Build with `--format docker` under podman: the OCI image format has no HEALTHCHECK.
ARG BASE=python:3.11-slim-bookworm

FROM ${BASE} AS python
# A base without Python's venv module (a plain Debian image) gets Debian's python3 here; the
# official python images and the debootstrap base have it and skip this.
RUN if ! python3 -c 'import ensurepip, venv' 2>/dev/null; then \
        apt-get update \
        && apt-get install -y --no-install-recommends python3 python3-venv \
        && rm -rf /var/lib/apt/lists/*; \
    fi

FROM python AS build
# Marks this stage's images, which only the final stage uses: `podman image prune --filter
# label=org.cribbage-bot.stage=build` drops the ones a later build left behind.
LABEL org.cribbage-bot.stage=build
RUN python3 -m venv /opt/venv
# The dependencies first, from the lock alone (its hashes checked), so a change to the code
# reuses this layer; then the project itself, resolving nothing more.
COPY requirements.lock /tmp/requirements.lock
RUN /opt/venv/bin/pip install --no-cache-dir --disable-pip-version-check --quiet \
        --require-hashes -r /tmp/requirements.lock
COPY pyproject.toml README.md LICENSE /src/
COPY bot /src/bot
COPY cogs /src/cogs
COPY db /src/db
RUN /opt/venv/bin/pip install --no-cache-dir --disable-pip-version-check --quiet \
        --no-deps /src \
    && /opt/venv/bin/pip check

FROM python
LABEL org.opencontainers.image.title="cribbage-bot" \
      org.opencontainers.image.description="A Discord bot for games of cribbage" \
      org.opencontainers.image.licenses="MIT"
# The bot runs as its own unprivileged user; its SQLite database lives on the /data volume
# (owned by that user, so a new named volume is writable), unless CRIBBAGE_DATABASE_URL names
# a PostgreSQL database.
RUN groupadd --gid 10001 cribbage \
    && useradd --uid 10001 --gid 10001 --no-log-init --home-dir /data --no-create-home \
        --shell /usr/sbin/nologin cribbage \
    && mkdir /data && chown cribbage:cribbage /data
COPY --from=build /opt/venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    CRIBBAGE_DB=/data/cribbage.db \
    CRIBBAGE_HTTP_PORT=8080 \
    CRIBBAGE_HTTP_HOST=0.0.0.0
VOLUME /data
WORKDIR /data
USER cribbage
EXPOSE 8080
# /healthz and /metrics listen on every address of the container (the port is published only
# as `-p` says); /healthz answers 200 while the bot is connected to Discord and its database is writable,
# 503 otherwise (urlopen raises on anything but 2xx, so the check fails).
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python3", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ['CRIBBAGE_HTTP_PORT'], timeout=4)"]
# SIGTERM (podman stop, docker stop, compose down) shuts the bot down cleanly.
STOPSIGNAL SIGTERM
ENTRYPOINT ["cribbage-bot"]
