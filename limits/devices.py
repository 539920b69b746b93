"""The devices that signed in before: a signed cookie of their own for the login's limits.

Every successful login (the login page, the administration's, the API's token endpoint, after
the second factor where the account has one) sets or renews ``doko_device`` on the device it
came from: a random id for the device and the accounts that signed in on it (their user names,
folded and hashed as ``limits.windows.folded`` counts them; the latest ``NAMES``), signed with
the site's key, for a year from the last login. Nobody makes one without the password of every
account it names: a made-up, altered or expired cookie counts as none. ``limits.logins`` counts
a device that signed in as a name before on its own for that name, so that failures elsewhere
never refuse it; the cookie is kept at logout.
"""

import secrets
from dataclasses import dataclass

from django.conf import settings
from django.core import signing

from limits.windows import folded

DEVICE_COOKIE = "doko_device"
_SALT = "limits.devices"
MAX_AGE = 365 * 24 * 3600
# The accounts a device remembers: a desk's laptop signs in as its few desk accounts and an
# organiser; more would only grow the cookie.
NAMES = 8


@dataclass(frozen=True)
class Device:
    """A device that signed in before: its id and the folded names it signed in as."""

    id: str
    names: tuple[str, ...]


def device_of(request) -> Device | None:
    """The device named by the request's cookie, if this site signed it within a year."""
    value = request.COOKIES.get(DEVICE_COOKIE)
    if not value:
        return None
    try:
        data = signing.loads(value, salt=_SALT, max_age=MAX_AGE)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict):
        return None
    device, names = data.get("d"), data.get("n")
    if not isinstance(device, str) or not isinstance(names, list):
        return None
    return Device(id=device, names=tuple(name for name in names if isinstance(name, str)))


def device_cookie_set(request, response, *, username: str) -> None:
    """After a successful login as ``username``: the device's cookie, naming it too."""
    device = device_of(request)
    name = folded(username)
    names = [known for known in (device.names if device else ()) if known != name]
    value = signing.dumps(
        {
            "d": device.id if device else secrets.token_urlsafe(16),
            "n": [*names[-(NAMES - 1) :], name],
        },
        salt=_SALT,
        compress=True,
    )
    response.set_cookie(
        DEVICE_COOKIE,
        value,
        max_age=MAX_AGE,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )
