"""This machine's addresses on the club's network: where the server tells a tablet to look, and
what a join link or QR code may be built from."""
from __future__ import annotations

import socket
import struct

try:
    import fcntl
except ImportError:  # not a POSIX system: the interfaces are not asked
    fcntl = None


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback, read from the host's name table and from
    each network interface (no traffic leaves the machine to find them)."""
    found: set[str] = set()
    try:
        found.update(info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET))
    except OSError:
        pass
    found.update(_interface_addresses())
    return sorted(a for a in found if not a.startswith("127."))


def _interface_addresses() -> set[str]:
    """IPv4 address of each interface via the SIOCGIFADDR ioctl (Linux); empty elsewhere."""
    if fcntl is None:
        return set()
    out: set[str] = set()
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for _index, name in socket.if_nameindex():
            try:
                packed = fcntl.ioctl(s.fileno(), 0x8915, struct.pack("256s", name[:15].encode()))
            except OSError:
                continue  # an interface with no IPv4 address
            out.add(socket.inet_ntoa(packed[20:24]))
    return out
