#!/bin/sh
# Create the cluster on first start (the official image's settings: POSTGRES_USER,
# POSTGRES_PASSWORD, POSTGRES_DB), then run the server in the foreground on PGPORT.
set -eu
USER_NAME=${POSTGRES_USER:-postgres}
if [ ! -s "$PGDATA/PG_VERSION" ]; then
    : "${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD}"
    PWFILE=$(mktemp)
    printf '%s\n' "$POSTGRES_PASSWORD" >"$PWFILE"
    # passwords over TCP; the server's own socket (inside the container) trusts, as in the
    # official image
    initdb --username="$USER_NAME" --pwfile="$PWFILE" --auth-local=trust \
        --auth-host=scram-sha-256 --encoding=UTF8 --locale=C.UTF-8 -D "$PGDATA" >/dev/null
    rm -f "$PWFILE"
    printf 'host all all all scram-sha-256\n' >>"$PGDATA/pg_hba.conf"
    DB=${POSTGRES_DB:-$USER_NAME}
    if [ "$DB" != postgres ]; then
        pg_ctl -D "$PGDATA" -o "-c listen_addresses='' -p $PGPORT" -w start >/dev/null
        createdb -h /var/run/postgresql -p "$PGPORT" -U "$USER_NAME" "$DB"
        pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
    fi
    echo "postgres-entrypoint: cluster created in $PGDATA"
fi
# POSTGRES_LISTEN: the addresses to listen on (the test, on the host's network: 127.0.0.1)
exec postgres -D "$PGDATA" -p "$PGPORT" -c listen_addresses="${POSTGRES_LISTEN:-*}"
