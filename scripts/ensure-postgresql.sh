#!/usr/bin/env bash
# `make test` runs the race and lost-answer tests on a real PostgreSQL too
# (scripts/with-postgresql.sh starts one of its own): Debian's `postgresql` package gives the
# binaries. Like Chromium (scripts/ensure-chromium.sh), installed here when missing.
set -euo pipefail

if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    exit 0
fi

"$(dirname "$0")/apt-install.sh" postgresql "for the PostgreSQL part of the tests"
ls /usr/lib/postgresql/*/bin/initdb >/dev/null
