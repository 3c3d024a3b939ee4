"""Explicit proxy trust (issue 22 item 5, ``docs/operations.md``): the one answer to "which
address is this client?" for the login throttling (django-axes), the API's rate limits (DRF) and
the private links' guessing limit.

``settings.TRUSTED_PROXIES`` lists the reverse proxies (addresses or networks, from the
environment variable of that name). Forwarded headers (``X-Forwarded-For``,
``X-Forwarded-Proto``) count only when the connection itself comes from one of them:

- :func:`client_address`: from an untrusted peer, the connection's own address
  (``REMOTE_ADDR``), whatever ``X-Forwarded-For`` says; from a trusted proxy, the right-most
  ``X-Forwarded-For`` address that is not itself a trusted proxy (the one the outermost trusted
  proxy saw). Whatever a client writes to the left of that is never read.
- :class:`ForwardedHeadersMiddleware` removes both headers from requests of untrusted peers, so
  Django's ``SECURE_PROXY_SSL_HEADER`` (set whenever proxies are trusted) believes
  ``X-Forwarded-Proto`` only from a trusted proxy.
- :func:`check_trusted_proxies`: ``manage.py check --deploy`` warns when production trusts no
  proxy, and refuses a list that trusts every address.

The header is parsed by python-ipware (``split_proxy_chain``: ports, brackets, IPv4-mapped
addresses, garbage entries dropped). Its own ``proxy_trusted_ips`` is not used for the choice: it
matches the trailing chain positionally (one entry per hop, in order) and never looks at the
connection's address, which is exactly the check a client must not be able to skip.
"""
from __future__ import annotations

import ipaddress
from functools import lru_cache

from django.conf import settings
from django.core import checks
from python_ipware.modern.parsers import parse_ip, split_proxy_chain, unwrap_ipv4

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

#: The ``request.META`` keys of the forwarded headers this module guards.
FORWARDED_HEADERS = ("HTTP_X_FORWARDED_FOR", "HTTP_X_FORWARDED_PROTO")


def parse_networks(entries) -> tuple[Network, ...]:
    """The networks of ``entries`` (strings: ``"10.0.0.1"``, ``"10.0.0.0/8"``, ``"::1"``); a
    single address is a network of one. Raises ``ValueError`` naming the first entry that is
    neither."""
    networks = []
    for entry in entries:
        try:
            networks.append(ipaddress.ip_network(str(entry).strip(), strict=False))
        except ValueError:
            raise ValueError(f"TRUSTED_PROXIES: {entry!r} is not an address or a network") from None
    return tuple(networks)


@lru_cache(maxsize=8)
def _networks(entries: tuple[str, ...]) -> tuple[Network, ...]:
    return parse_networks(entries)


def trusted_networks() -> tuple[Network, ...]:
    """``settings.TRUSTED_PROXIES`` as networks (read at every call, parsed once per value)."""
    return _networks(tuple(getattr(settings, "TRUSTED_PROXIES", ()) or ()))


def _trusted(address, networks) -> bool:
    return address is not None and any(address.version == net.version and address in net for net in networks)


def _peer(request):
    peer = parse_ip(request.META.get("REMOTE_ADDR", ""))
    return unwrap_ipv4(peer) if peer is not None else None


def peer_is_trusted(request) -> bool:
    """Whether the connection of ``request`` comes from a trusted proxy."""
    networks = trusted_networks()
    return bool(networks) and _trusted(_peer(request), networks)


def client_address(request) -> str:
    """The client's address of ``request`` (a Django or DRF request) as a string: the
    connection's own address unless it comes from a trusted proxy; then the right-most
    ``X-Forwarded-For`` address that is not a trusted proxy (all trusted: the left-most one; no
    usable header: the proxy's own address). ``"unknown"`` when there is no address at all."""
    own = request.META.get("REMOTE_ADDR", "") or "unknown"
    networks = trusted_networks()
    if not networks or not _trusted(_peer(request), networks):
        return own
    chain = split_proxy_chain(request.META.get("HTTP_X_FORWARDED_FOR", ""), False) or []
    chain = [unwrap_ipv4(address) for address in chain]
    for address in reversed(chain):
        if not _trusted(address, networks):
            return str(address)
    return str(chain[0]) if chain else own


class ForwardedHeadersMiddleware:
    """Drops ``X-Forwarded-For`` and ``X-Forwarded-Proto`` from requests whose connection does not
    come from a trusted proxy: a client talking to the app directly cannot claim https or
    another address. Runs first (before Django's ``SecurityMiddleware``)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not peer_is_trusted(request):
            for key in FORWARDED_HEADERS:
                request.META.pop(key, None)
        return self.get_response(request)


#: Networks that hold every address: trusting them trusts every client's forwarded headers.
EVERYONE = (ipaddress.ip_network("0.0.0.0/0"), ipaddress.ip_network("::/0"))


@checks.register(checks.Tags.security, deploy=True)
def check_trusted_proxies(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    """``check --deploy``: a warning when production (``DEBUG`` off) trusts no proxy; an error
    when ``TRUSTED_PROXIES`` holds an entry that is not an address or network, or a network of
    every address (``0.0.0.0/0``, ``::/0``)."""
    try:
        networks = trusted_networks()
    except ValueError as exc:
        return [checks.Error(str(exc), id="nskt.E001")]
    messages = []
    if any(net in EVERYONE for net in networks):
        messages.append(checks.Error(
            "TRUSTED_PROXIES trusts every address (0.0.0.0/0 or ::/0): any client can choose its "
            "address and claim https with X-Forwarded-For and X-Forwarded-Proto.",
            hint="List only the reverse proxies' own addresses or networks.", id="nskt.E002"))
    if not networks and not settings.DEBUG:
        messages.append(checks.Warning(
            "TRUSTED_PROXIES is empty: forwarded headers are ignored. Behind a reverse proxy every "
            "client then has the proxy's address (one login lock or link limit for everyone).",
            hint="Set TRUSTED_PROXIES to the proxy's address (127.0.0.1 for nginx on the same "
                 "machine); leave it empty only when clients reach the app directly.", id="nskt.W001"))
    return messages
