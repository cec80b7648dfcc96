"""``python -m referee``: serve the app on the local network and say which address a tablet opens."""
from __future__ import annotations

import os
import socket


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback, from the host's own name table and the
    route the system would use (a UDP socket is connected, nothing is sent)."""
    found: set[str] = set()
    try:
        found.update(info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET))
    except OSError:
        pass
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # TEST-NET: connecting a UDP socket sends no packet
            found.add(s.getsockname()[0])
    except OSError:
        pass
    return sorted(a for a in found if not a.startswith("127."))


def main() -> None:
    from werkzeug.serving import run_simple

    from .. import create_app

    host = os.environ.get("HOST", "0.0.0.0")
    port = int(os.environ.get("PORT", "5000"))
    app = create_app()
    print("Referee is ready. Open one of these on a tablet on the same network:", flush=True)
    for address in (lan_addresses() if host == "0.0.0.0" else [host]) or ["127.0.0.1"]:
        print(f"    http://{address}:{port}/", flush=True)
    # threaded: one tablet's poll must not wait behind another tablet's write.
    run_simple(host, port, app, threaded=True)
