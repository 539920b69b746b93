"""What is known of an account's second factor."""

import datetime
from dataclasses import dataclass

from django.contrib.auth.models import User
from django_otp import DEVICE_ID_SESSION_KEY, user_has_device
from django_otp.models import Device
from django_otp.plugins.otp_static.models import StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice


@dataclass(frozen=True)
class SecondFactor:
    """An account's authenticator: since when, and how many backup codes are left."""

    since: datetime.datetime | None
    backup_codes_left: int


def second_factor_of(*, user: User) -> SecondFactor | None:
    """The account's authenticator app, or None when it has set up none."""
    device = TOTPDevice.objects.filter(user=user, confirmed=True).order_by("-pk").first()
    if device is None:
        return None
    left = StaticToken.objects.filter(device__user=user, device__confirmed=True).count()
    return SecondFactor(since=device.created_at, backup_codes_left=left)


def asks_for_a_code(*, user: User) -> bool:
    """Whether a login as ``user`` asks for a code after the password: he has an authenticator
    or backup codes."""
    return user_has_device(user, confirmed=True)


def session_verified(*, session, user: User) -> bool:
    """Whether this session of ``user`` was logged in, or confirmed, with his second factor
    (the device django-otp keeps in it, still his)."""
    persistent_id = session.get(DEVICE_ID_SESSION_KEY)
    if not isinstance(persistent_id, str):
        return False
    device = Device.from_persistent_id(persistent_id)
    return device is not None and device.user_id == user.pk and device.confirmed
