"""The players' personal links (``/p/<key>/`` and the API's ``X-Player-Key``): a key looked up
for a request, with a limit on made-up keys per address (``PERSONAL_LINK_RATE_UNKNOWN``), as
``scoring.links`` limits the seats' keys. Only requests with a key that opens nothing are
counted: one machine cannot flood the server with keys, and the players behind a venue's Wi-Fi
never count against each other. A key is 192 random bits and cannot be guessed however many
tries are allowed. A fixed window in the cache (``limits.windows``), answered with HTTP 429
and Retry-After; it fails open when the cache is down."""

from django.conf import settings

from limits.clients import address_of
from limits.windows import rate_count
from registration.models import Registration
from registration.selectors.personal import personal_link_find
from tournaments.models import Entry


class KeyLimited(Exception):
    """Too many made-up keys from this address."""

    def __init__(self, wait: float):
        super().__init__(wait)
        self.wait = wait


def personal_link_for(request, key: str) -> Entry | Registration | None:
    """What the key opens (``personal_link_find``); None for a key that opens nothing, which
    is counted against the address. Raises ``KeyLimited`` once the address used up its limit."""
    found = personal_link_find(key=key)
    if found is None:
        unknown = f"personal-unknown:{address_of(request)}"
        if (wait := rate_count(unknown, settings.PERSONAL_LINK_RATE_UNKNOWN)) is not None:
            raise KeyLimited(wait)
    return found
