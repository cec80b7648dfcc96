"""Serve Referee on the local network so the tablets at the table can reach it.

``make run`` calls this; the end-to-end tests start it too (on 127.0.0.1 and a free port), so
the tests exercise the very way the app is run. The database comes from ``DATABASE_URL``
(SQLite under ``instance/`` when unset); ``create_app`` brings it up to date and seeds the demo.
"""
from __future__ import annotations

import argparse
import os
import signal
import socket
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

SIOCGIFADDR = 0x8915  # Linux: the IPv4 address of a network interface


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback, read from the interfaces (nothing is
    sent on the network to learn them)."""
    found: list[str] = []
    try:
        import fcntl
        import struct

        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            for _index, name in socket.if_nameindex():
                try:
                    packed = fcntl.ioctl(s.fileno(), SIOCGIFADDR, struct.pack("256s", name[:15].encode()))
                except OSError:  # an interface without an IPv4 address
                    continue
                found.append(socket.inet_ntoa(packed[20:24]))
    except (ImportError, OSError):
        pass
    if not found:
        try:
            found = [info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)]
        except OSError:
            found = []
    return sorted({a for a in found if not a.startswith("127.")})


def addresses_to_show(host: str, port: int) -> list[str]:
    if host in ("0.0.0.0", ""):
        hosts = lan_addresses() or ["127.0.0.1"]
    else:
        hosts = [host]
    return [f"http://{h}:{port}/" for h in hosts]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default=os.environ.get("HOST", "0.0.0.0"),
                        help="address to listen on (default 0.0.0.0: every network the machine is on)")
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    args = parser.parse_args(argv)

    from werkzeug.serving import make_server

    from referee import create_app

    app = create_app()
    # threaded: each tablet's poll must not wait behind another tablet's write.
    server = make_server(args.host, args.port, app, threaded=True)

    def stop(_signum, _frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    print("Referee is ready. Open this on a tablet on the same network:", flush=True)
    for url in addresses_to_show(args.host, args.port):
        print(f"    {url}", flush=True)
    print("Press Ctrl+C to stop.", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
