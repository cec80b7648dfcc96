#!/usr/bin/env bash
# Installs one Debian package for the tests, as root or through sudo: `apt-install.sh PACKAGE WHY`.
# Shared by ensure-chromium.sh and ensure-postgresql.sh, which first look whether it is there.
set -euo pipefail
PACKAGE=$1
WHY=$2

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
        SUDO="sudo"
    else
        echo "$PACKAGE is missing and this user cannot install it: run as root" \
             "'apt-get install -y $PACKAGE'." >&2
        exit 1
    fi
fi

echo "Installing Debian's $PACKAGE $WHY..."
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q "$PACKAGE" </dev/null
