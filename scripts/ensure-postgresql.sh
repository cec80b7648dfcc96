#!/usr/bin/env bash
# `make test` runs the race and lost-answer tests on a real PostgreSQL too
# (scripts/with-postgresql.sh starts one of its own): Debian's `postgresql` package gives the
# binaries. Like Chromium (scripts/ensure-chromium.sh), installed here when missing.
set -euo pipefail

if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
        SUDO="sudo"
    else
        echo "PostgreSQL is missing and this user cannot install it: run as root" \
             "'apt-get install -y postgresql'." >&2
        exit 1
    fi
fi

echo "Installing Debian's postgresql for the PostgreSQL part of the tests..."
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q postgresql </dev/null
ls /usr/lib/postgresql/*/bin/initdb >/dev/null
