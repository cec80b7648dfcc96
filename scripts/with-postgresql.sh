#!/usr/bin/env bash
# Runs a command with a PostgreSQL server of its own: Debian's PostgreSQL binaries (installed by
# scripts/ensure-postgresql.sh, as `make test` installs Chromium), a cluster made in a temporary
# folder, listening on 127.0.0.1 on a free port, thrown away afterwards. The command finds the
# server in REFEREE_TEST_POSTGRES (tests/_databases.py makes a database of its own there per test).
# PostgreSQL will not run as root: as root, the server runs as the `postgres` user (or `nobody`).
#   scripts/with-postgresql.sh .venv/bin/python -m pytest tests/table/test_several_workers.py
set -euo pipefail

BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$BIN" ] || [ ! -x "$BIN/initdb" ]; then
    echo "PostgreSQL's binaries are missing: run scripts/ensure-postgresql.sh (make test does)." >&2
    exit 1
fi

DIR=$(mktemp -d "${TMPDIR:-/tmp}/referee-pg.XXXXXX")
AS=()
if [ "$(id -u)" -eq 0 ]; then
    OWNER=postgres
    getent passwd postgres >/dev/null || OWNER=nobody
    chown "$OWNER" "$DIR"
    chmod 700 "$DIR"
    AS=(runuser -u "$OWNER" --)
fi
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

stop() {
    "${AS[@]}" "$BIN/pg_ctl" -D "$DIR/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$DIR"
}
trap stop EXIT

"${AS[@]}" "$BIN/initdb" -D "$DIR/data" -U postgres --auth=trust -E UTF8 --no-sync >"$DIR/initdb.log" 2>&1 \
    || { cat "$DIR/initdb.log" >&2; exit 1; }
# A test server: no fsync (its data is thrown away), enough connections for several workers.
"${AS[@]}" "$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w -t 60 \
    -o "-h 127.0.0.1 -p $PORT -k $DIR -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
    start >/dev/null || { cat "$DIR/server.log" >&2; exit 1; }

export REFEREE_TEST_POSTGRES="postgresql+psycopg://postgres@127.0.0.1:$PORT"
set +e
"$@"
status=$?
set -e
exit $status
