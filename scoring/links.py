"""The seats' private scoresheet links (``/s/<key>/``, the QR code on the printed sheet, and the
API's ``X-Seat-Key``): a key looked up, with two limits on these public writes that never meet.

- **Per link** (``SEAT_LINK_RATE``): every request through a valid link other than a read (a
  hand saved or struck out, the live check of the row being typed, the sheet handed in or
  confirmed) is counted for its seat. A scorekeeper types a few rows a minute; the limit stops
  a script holding a player's key from flooding the sheet and its history. This is the only
  limit on a valid key: neither other devices' made-up keys nor the other tables behind the
  same address (a venue's Wi-Fi) count against it. Reads through a valid link are not limited,
  as public pages are not.
- **Made-up keys per address** (``SEAT_LINK_RATE_UNKNOWN``): only requests with a key that
  opens no seat are counted, per address. It stops one machine from flooding the server with
  keys; a key is 192 random bits and cannot be guessed, however many tries are allowed.

Both are fixed windows in the cache (``limits.windows``), answered with HTTP 429 and
Retry-After, and fail open when the cache is down.
"""

from django.conf import settings

from limits.clients import address_of
from limits.windows import rate_count
from scoring import selectors
from tournaments.models import Seat

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
KEY_LENGTH = 32  # Seat.token: 24 random bytes, URL-safe base64


class LinkLimited(Exception):
    """Too many made-up keys from this address, or too many writes through this link."""

    def __init__(self, wait: float):
        super().__init__(wait)
        self.wait = wait


def seat_for_key(request, key: str) -> Seat | None:
    """The seat of a link key, the request counted against its limit; None for an unknown key.

    Raises ``LinkLimited`` with the seconds to wait once a limit is used up: the link's own
    for a valid key, the address's for made-up ones.
    """
    seat = selectors.seat_by_token(key) if 0 < len(key) <= KEY_LENGTH else None
    if seat is None:
        unknown = f"seat-unknown:{address_of(request)}"
        if (wait := rate_count(unknown, settings.SEAT_LINK_RATE_UNKNOWN)) is not None:
            raise LinkLimited(wait)
        return None
    if request.method in SAFE_METHODS:
        return seat
    if (wait := rate_count(f"seat-link:{seat.pk}", settings.SEAT_LINK_RATE)) is not None:
        raise LinkLimited(wait)
    return seat
