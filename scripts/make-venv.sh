#!/usr/bin/env bash
# Creates the project's virtual environment (.venv) with Python 3.11 or newer. Debian splits
# venv support into its own package, so a bare machine gets it from apt first.
set -euo pipefail

PYTHON="${1:-python3}"
VENV="${2:-.venv}"

if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    echo "Referee needs Python 3.11 or newer; $PYTHON is $("$PYTHON" --version 2>&1)." >&2
    exit 1
fi

if "$PYTHON" -m venv "$VENV" 2>/dev/null && [ -x "$VENV/bin/pip" ]; then
    exit 0
fi

# A failed attempt leaves a half-made folder that would hide the next one.
rm -rf "$VENV"
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    minor="$("$PYTHON" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q
    apt-get install -y -q "python${minor}-venv" </dev/null || apt-get install -y -q python3-venv </dev/null
    "$PYTHON" -m venv "$VENV"
else
    echo "'$PYTHON -m venv' does not work here: install your distribution's venv package" \
         "(on Debian: apt-get install python3-venv)." >&2
    exit 1
fi
