"""Where the bot may send its token: Discord itself, or a stand-in on this machine only.

``BOULANGER_DISCORD_API_BASE`` and ``BOULANGER_DISCORD_GATEWAY`` point the bot at
another Discord (the test suite's fake). Every request to that address carries
the bot token, so a typo or a hostile ``.env`` could hand the token to anyone:
an override is accepted for loopback addresses (127.0.0.0/8, ::1,
``localhost``) only, unless ``BOULANGER_ALLOW_REMOTE_DISCORD`` is set; even
then, plain ``http``/``ws`` to another machine is refused.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

ALLOW_REMOTE = "BOULANGER_ALLOW_REMOTE_DISCORD"
_SECURE = {"https", "wss"}
_SCHEMES = {"http", "https", "ws", "wss"}


def is_loopback(host: str) -> bool:
    if host.lower().rstrip(".") == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check(variable: str, url: str, *, allow_remote: bool) -> str | None:
    """Why ``url`` may not be used (a sentence naming ``variable``), or None when it may."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
    except ValueError as exc:
        return f"{variable} is not a URL ({exc})"
    if parts.scheme not in _SCHEMES or not host:
        return f"{variable} must be an http(s):// or ws(s):// URL with a host, not {url!r}"
    if is_loopback(host):
        return None
    if not allow_remote:
        return (
            f"{variable} points at {host!r}, which is not this machine: the bot token would be sent "
            f"there. Only loopback addresses (127.0.0.1, ::1, localhost) are accepted; set "
            f"{ALLOW_REMOTE}=1 to allow another host (over https/wss only), or unset {variable} "
            "to use Discord."
        )
    if parts.scheme not in _SECURE:
        return (
            f"{variable} uses plain {parts.scheme}:// to {host!r}: the bot token would cross the "
            "network unencrypted. Use https:// (wss:// for the gateway)."
        )
    return None
