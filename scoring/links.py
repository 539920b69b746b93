"""The seats' private scoresheet links (``/s/<key>/``, the QR code on the printed sheet, and the
API's ``X-Seat-Key``): a key looked up, with two limits on these public writes that never meet.

- **Per link** (``SEAT_LINK_RATE``): every request through a valid link other than a read (a
  hand saved or struck out, the live check of the row being typed, the sheet handed in or
  confirmed) is counted for its key, which opens one seat for good. A scorekeeper types a few
  rows a minute; the limit stops a script holding a player's key from flooding the sheet and
  its history. This is the only limit on a valid key: neither other devices' made-up keys nor
  the other tables behind the same address (a venue's Wi-Fi) count against it. Reads through a
  valid link are not limited, as public pages are not.
- **Made-up keys per address** (``SEAT_LINK_RATE_UNKNOWN``): only requests with a key that
  opens no seat are counted, per address. It stops one machine from flooding the server with
  keys; a key is 192 random bits and cannot be guessed, however many tries are allowed. (A
  write's count is sent before its key is looked up, so a made-up key's write is counted
  under that key too, in an entry that goes with its window.)

Both are fixed windows in the cache (``limits.windows``), answered with HTTP 429 and
Retry-After, and fail open when the cache is down.
"""

import hashlib

from django.conf import settings

from limits.clients import address_of
from limits.windows import rate_count, rate_count_begin
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
    for a valid key, the address's for made-up ones. A write's count is sent to the cache
    before the key is looked up and its answer read after (``rate_count_begin``): the request
    waits once for both, where every hand typed waited for each in turn. So the link's count
    goes by the key (a digest of it: the cache holds no key), which names one seat for good.
    """
    seat, wait = None, None
    if 0 < len(key) <= KEY_LENGTH:
        if request.method in SAFE_METHODS:
            seat = selectors.seat_by_token(key)
        else:
            with rate_count_begin(f"seat-link:{_digest(key)}", settings.SEAT_LINK_RATE) as count:
                seat = selectors.seat_by_token(key)
                wait = count.end()
    if seat is None:
        unknown = f"seat-unknown:{address_of(request)}"
        if (wait := rate_count(unknown, settings.SEAT_LINK_RATE_UNKNOWN)) is not None:
            raise LinkLimited(wait)
        return None
    if wait is not None:
        raise LinkLimited(wait)
    return seat


def _digest(key: str) -> str:
    return hashlib.blake2b(key.encode(), digest_size=16).hexdigest()
