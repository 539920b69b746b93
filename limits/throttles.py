"""DRF throttles over the fixed windows (``limits.windows``), for the public rules API.

Each client that can be told apart is counted on its own: by user when it authenticates
(token), else by the signed client cookie (``limits.clients``). One generous limit per address,
counting every request, stops a single machine from flooding the server; it is the only limit
for a client that sends no cookie (``PUBLIC_API_RATE_CLIENT``, ``PUBLIC_API_RATE_ADDRESS``).
"""

from django.conf import settings
from rest_framework.throttling import BaseThrottle

from limits.clients import client_id
from limits.windows import rate_count


class FixedWindowThrottle(BaseThrottle):
    """A DRF throttle counting each request with ``rate_count`` under ``scope`` and whom the
    request counts for, at the rate of the setting named ``setting``."""

    scope: str
    setting: str

    def get_ident_key(self, request) -> str | None:
        """Whom the request counts for; None: not counted by this limit. By address here."""
        return self.get_ident(request)

    def allow_request(self, request, view) -> bool:
        ident = self.get_ident_key(request)
        if ident is None:
            return True
        self.retry_after = rate_count(f"{self.scope}:{ident}", getattr(settings, self.setting))
        return self.retry_after is None

    def wait(self) -> float | None:
        return self.retry_after


class PublicClientThrottle(FixedWindowThrottle):
    scope = "public_client"
    setting = "PUBLIC_API_RATE_CLIENT"

    def get_ident_key(self, request) -> str | None:
        if request.user and request.user.is_authenticated:
            return f"user-{request.user.pk}"
        if cid := client_id(request):
            return f"client-{cid}"
        return None  # a first request, or a client that keeps no cookies: address only


class PublicAddressThrottle(FixedWindowThrottle):
    scope = "public_address"
    setting = "PUBLIC_API_RATE_ADDRESS"
