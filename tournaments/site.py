"""The site's address as the phones in the hall reach it.

Behind a venue's router or a proxy the address a request arrived on may not be the one a phone
can open (``127.0.0.1``, an internal host name). ``SITE_URL`` (for example
``http://192.168.1.20:8000/``) names it once; every QR code and printed or shown link is made
from it. Without it, the request's own address is used.

An address of this machine only (``127.0.0.1``, ``localhost``: what ``make run`` serves by
default) is one no phone can open, and a printed code cannot be corrected: the pages that print
or show links warn (``site_warning``) and the printouts say so at their foot.
"""

import ipaddress
from urllib.parse import urlsplit

from django.conf import settings
from django.http import HttpRequest
from django.utils.translation import gettext as _


def site_url(request: HttpRequest) -> str:
    """The site's root address, ending in ``/``."""
    if settings.SITE_URL:
        return settings.SITE_URL.rstrip("/") + "/"
    return request.build_absolute_uri("/")


def absolute_url(request: HttpRequest, path: str) -> str:
    """``path`` (as ``reverse`` gives it) as an address the phones can open."""
    return site_url(request) + path.lstrip("/")


def link_host(url: str) -> str:
    """The host of ``url`` in lower case, without brackets, port or a final dot: ``::1`` for
    ``http://[::1]:8000/``; an address without a scheme (``127.0.0.1:8000``) is read as one."""
    try:
        host = urlsplit(url if "//" in url else "//" + url).hostname or ""
    except ValueError:  # an unclosed bracket
        return ""
    return host.rstrip(".")


def is_loopback(url: str) -> bool:
    """Whether ``url`` points at the machine that opens it, which for a phone in the hall is
    the phone itself: a loopback address (``127.0.0.0/8``, ``::1``, IPv4 in IPv6 included),
    ``localhost`` and its subdomains, or the unspecified ``0.0.0.0`` (``::``)."""
    host = link_host(url)
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_loopback or address.is_unspecified


def site_warning(request: HttpRequest) -> str | None:
    """What to say beside a button that prints or shows links and QR codes when the phones in
    the hall cannot open them (the site's address is this machine only); None when they can."""
    address = site_url(request)
    if not is_loopback(address):
        return None
    return _(
        "Links and QR codes point to %(address)s, which the players' phones cannot open. "
        "Serve the site on the hall's network first: make run HOST=0.0.0.0, or set SITE_URL "
        "to the address the phones reach (e.g. SITE_URL=http://192.168.1.20:8000/)."
    ) % {"address": address}
