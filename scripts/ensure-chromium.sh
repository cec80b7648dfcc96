#!/usr/bin/env bash
# The end-to-end tests drive Debian's Chromium: Playwright's own browser download cannot work
# on machines whose network reaches only the package registries.
set -euo pipefail

CHROMIUM=/usr/bin/chromium
if [ -x "$CHROMIUM" ]; then
    exit 0
fi

"$(dirname "$0")/apt-install.sh" chromium "for the end-to-end tests"
test -x "$CHROMIUM"
