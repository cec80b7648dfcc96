#!/usr/bin/env bash
# The end-to-end tests drive Debian's Chromium: Playwright's own browser download cannot work
# on machines whose network reaches only the package registries.
set -euo pipefail

CHROMIUM=/usr/bin/chromium
if [ -x "$CHROMIUM" ]; then
    exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
        SUDO="sudo"
    else
        echo "Chromium is missing and this user cannot install it: run as root" \
             "'apt-get install -y chromium'." >&2
        exit 1
    fi
fi

echo "Installing Debian's chromium for the end-to-end tests..."
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q chromium </dev/null
test -x "$CHROMIUM"
