"""A login half done: the password was right, the second factor is still to come (its code, or
setting it up where the account must have one). Kept in the session for five minutes, with the
account's session hash, so that a password changed meanwhile ends it; nobody is logged in until
it is done."""

import time
from dataclasses import dataclass

from django.contrib.auth import login as auth_login
from django.contrib.auth.models import User
from django.utils.crypto import constant_time_compare
from django_otp.models import Device

from limits.devices import device_cookie_set

PENDING = "login_pending"
PENDING_SECONDS = 5 * 60


@dataclass(frozen=True)
class Pending:
    """The account whose password was right, where to go once logged in, and whether it sets
    up its second factor (else: gives its code)."""

    user: User
    backend: str
    next_url: str
    setup: bool


def pending_start(request, *, user: User, next_url: str, setup: bool) -> None:
    """Remember that ``user`` gave the right password, for the second step."""
    request.session[PENDING] = {
        "user": user.pk,
        "backend": getattr(user, "backend", ""),
        "hash": user.get_session_auth_hash(),
        "next": next_url,
        "setup": setup,
        "until": time.time() + PENDING_SECONDS,
    }


def pending_of(request) -> Pending | None:
    """The login half done in this session, if it is still on."""
    data = request.session.get(PENDING)
    if not isinstance(data, dict) or not time.time() < data.get("until", 0):
        return None
    pk, session_hash = data.get("user"), data.get("hash")
    if not isinstance(pk, int) or not isinstance(session_hash, str):
        return None
    user = User.objects.filter(pk=pk, is_active=True).first()
    if user is None or not constant_time_compare(user.get_session_auth_hash(), session_hash):
        return None
    return Pending(
        user=user,
        backend=str(data.get("backend")),
        next_url=str(data.get("next") or "/"),
        setup=bool(data.get("setup")),
    )


def login_complete(request, response, *, user: User, backend: str, device: Device | None) -> None:
    """Log ``user`` in (with the ``device`` of his second factor, which django-otp keeps in the
    session), end any login half done, and let ``response`` renew the device's cookie."""
    if device is not None:
        user.otp_device = device  # type: ignore[attr-defined]  # django-otp's receiver reads it
    auth_login(request, user, backend=backend or None)
    request.session.pop(PENDING, None)
    device_cookie_set(request, response, username=user.get_username())
