"""How many registrations one client and one address may send on the public registration page
and its API (``REGISTRATION_RATE_CLIENT``, ``REGISTRATION_RATE_ADDRESS``): low per client (the
signed client cookie, ``limits.clients``), high per address, so that a club registering its
members from one shared connection gets through. Only sent registrations count, never a
page read.

A client without a valid cookie (a script that keeps none, or one that makes its own up) cannot
be told from the next one: all of them at one address share one bucket of the client's rate
(issue 44), so that dropping the cookie buys nothing. A phone that read the page has its
cookie and is counted on its own."""

import math

from django.conf import settings

from limits.clients import address_of, client_id
from limits.windows import rate_count


def registration_rate_wait(request) -> int | None:
    """Count one registration sent by this request's client and address: None while within
    both limits, else the seconds to wait (for Retry-After). Both are counted, as the password
    reset counts both."""
    address = address_of(request)
    limits = [(f"register:addr:{address}", settings.REGISTRATION_RATE_ADDRESS)]
    if cid := client_id(request):
        limits.append((f"register:client:{cid}", settings.REGISTRATION_RATE_CLIENT))
    else:
        limits.append((f"register:cookieless:{address}", settings.REGISTRATION_RATE_CLIENT))
    waits = [wait for key, rate in limits if (wait := rate_count(key, rate)) is not None]
    return max(1, math.ceil(max(waits))) if waits else None
