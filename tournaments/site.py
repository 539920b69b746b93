"""The site's address as the phones in the hall reach it.

Behind a venue's router or a proxy the address a request arrived on may not be the one a phone
can open (``127.0.0.1``, an internal host name). ``SITE_URL`` (for example
``http://192.168.1.20:8000/``) names it once; every QR code and printed or shown link is made
from it. Without it, the request's own address is used.
"""

from django.conf import settings
from django.http import HttpRequest


def site_url(request: HttpRequest) -> str:
    """The site's root address, ending in ``/``."""
    if settings.SITE_URL:
        return settings.SITE_URL.rstrip("/") + "/"
    return request.build_absolute_uri("/")


def absolute_url(request: HttpRequest, path: str) -> str:
    """``path`` (as ``reverse`` gives it) as an address the phones can open."""
    return site_url(request) + path.lstrip("/")
