"""How many registrations one client and one address may send on the public registration page
and its API (``REGISTRATION_RATE_CLIENT``, ``REGISTRATION_RATE_ADDRESS``): low per client (the
signed client cookie, ``limits.clients``), high per address, so that a club registering its
members from one shared connection gets through. Only sent registrations count, never a
page read."""

import math

from django.conf import settings

from limits.clients import address_of, client_id
from limits.windows import rate_count


def registration_rate_wait(request) -> int | None:
    """Count one registration sent by this request's client and address: None while within
    both limits, else the seconds to wait (for Retry-After). Both are counted, as the password
    reset counts both."""
    limits = [(f"register:addr:{address_of(request)}", settings.REGISTRATION_RATE_ADDRESS)]
    if cid := client_id(request):
        limits.append((f"register:client:{cid}", settings.REGISTRATION_RATE_CLIENT))
    waits = [wait for key, rate in limits if (wait := rate_count(key, rate)) is not None]
    return max(1, math.ceil(max(waits))) if waits else None
