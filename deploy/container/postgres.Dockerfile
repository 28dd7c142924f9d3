# PostgreSQL from Debian's own package, on the debootstrap base: the database server of
# `make container-test` on machines with no registry (compose.yaml uses the official image).
# It takes the official image's settings: POSTGRES_USER, POSTGRES_PASSWORD, POSTGRES_DB and
# PGDATA, and PGPORT for the port (the test runs it on the host's network, on a free port).
ARG BASE=localhost/cribbage-base:bookworm
FROM ${BASE}
RUN apt-get update \
    && apt-get install -y --no-install-recommends postgresql \
    && rm -rf /var/lib/apt/lists/* \
    && mkdir -p /var/lib/postgresql/data /var/run/postgresql \
    && chown -R postgres:postgres /var/lib/postgresql /var/run/postgresql
COPY postgres-entrypoint.sh /usr/local/bin/postgres-entrypoint
ENV PATH=/usr/lib/postgresql/15/bin:$PATH \
    PGDATA=/var/lib/postgresql/data \
    PGPORT=5432
VOLUME /var/lib/postgresql/data
USER postgres
EXPOSE 5432
HEALTHCHECK --interval=2s --timeout=3s --retries=30 \
    CMD pg_isready -h 127.0.0.1 -p "$PGPORT" -U "${POSTGRES_USER:-postgres}" -q
STOPSIGNAL SIGINT
ENTRYPOINT ["postgres-entrypoint"]
