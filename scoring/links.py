"""The seats' private scoresheet links (``/s/<key>/``, the QR code on the printed sheet, and the
API's ``X-Seat-Key``): a key looked up, with two limits on these public writes.

- **Per link** (``SEAT_LINK_RATE``): every request through a link other than a read (a hand
  saved or struck out, the live check of the row being typed, the sheet handed in or
  confirmed) is counted for its seat. A scorekeeper types a few rows a minute; the limit stops
  a script holding a player's key from flooding the sheet and its history.
- **Per address** (``SEAT_LINK_RATE_ADDRESS``): every request through any link, known key or
  not, read or write. A venue puts all its tables behind one address, so this limit is
  generous; it stops one machine from flooding the server with keys. A key is 192 random bits
  and cannot be guessed, however many tries are allowed.

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
    """Too many requests from this address, or too many writes through this link."""

    def __init__(self, wait: float):
        super().__init__(wait)
        self.wait = wait


def seat_for_key(request, key: str) -> Seat | None:
    """The seat of a link key, the request counted against the limits; None for an unknown key.

    Raises ``LinkLimited`` with the seconds to wait once a limit is used up.
    """
    address = f"seat-address:{address_of(request)}"
    if (wait := rate_count(address, settings.SEAT_LINK_RATE_ADDRESS)) is not None:
        raise LinkLimited(wait)
    seat = selectors.seat_by_token(key) if 0 < len(key) <= KEY_LENGTH else None
    if seat is None or request.method in SAFE_METHODS:
        return seat
    if (wait := rate_count(f"seat-link:{seat.pk}", settings.SEAT_LINK_RATE)) is not None:
        raise LinkLimited(wait)
    return seat
