"""Where a browser reaches the live view: the URLs to print for the address it listens on.

A server bound to every interface (``0.0.0.0``, ``::``) is reached at this machine's own
addresses, not at ``0.0.0.0``: the tablet beside the dealer needs the table network's address,
the Pi's own browser the loopback one (docs/display.md, "Where it listens").
"""

from __future__ import annotations

import contextlib
import socket

# Every interface, as a bind address: not an address to browse.
ANY_HOST = ("0.0.0.0", "::", "")
# TEST-NET-1 (RFC 5737): a UDP socket "connected" there learns the interface that routes out,
# and no packet is sent.
_PROBE = ("192.0.2.1", 9)


def _url(host: str, port: int, tls: bool = False) -> str:
    scheme = "https" if tls else "http"
    return f"{scheme}://[{host}]:{port}" if ":" in host else f"{scheme}://{host}:{port}"


def lan_address() -> str | None:
    """This machine's address on the network its default route leaves by, or None."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.connect(_PROBE)
        address: str = s.getsockname()[0]
        return None if address.startswith(("0.", "127.")) else address
    return None


def browse_urls(host: str, port: int, *, tls: bool = False) -> list[str]:
    """The URLs (no trailing slash) to browse the live view at, best first: a bound address
    itself; for every interface, the network address and the host name a tablet can reach,
    then the loopback one."""
    if host not in ANY_HOST:
        return [_url(host, port, tls)]
    found = [lan_address(), socket.gethostname(), "127.0.0.1"]
    urls: list[str] = []
    for name in found:
        if name and _url(name, port, tls) not in urls:
            urls.append(_url(name, port, tls))
    return urls
