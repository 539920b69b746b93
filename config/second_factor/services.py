"""The writes of a second factor: set one up, check a code, make new backup codes, remove it.

An authenticator app's code is six digits (RFC 6238, 30 seconds, one step either way for a clock
that is a little off; a code once taken is taken); a backup code is eight letters and digits,
each good once. Spaces and hyphens in a code typed do not matter, nor its case.
"""

import re

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django_otp import devices_for_user
from django_otp.models import Device
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from config.second_factor import policies
from tournaments.policies import enforce

BACKUP_CODES = 10
# The devices' names, as the administration lists them; stored in no language.
AUTHENTICATOR_NAME = "authenticator app"
BACKUP_CODES_NAME = "backup codes"
_AUTHENTICATOR = re.compile(r"[0-9]{6}")
_BACKUP = re.compile(r"[a-z2-7]{8}")
_GAPS = re.compile(r"[\s-]+")


def wrong_code() -> ValidationError:
    """A code that is not one of the account's (also one of no code's shape)."""
    return ValidationError(
        {"code": _("This code is wrong, or was used already. Please type the code shown now.")},
        code="wrong_code",
    )


def _new_backup_codes(*, user: User) -> list[str]:
    """Replace the account's backup codes with new ones."""
    StaticDevice.objects.filter(user=user).delete()
    device = StaticDevice.objects.create(user=user, name=BACKUP_CODES_NAME, confirmed=True)
    codes = [StaticToken.random_token() for _ in range(BACKUP_CODES)]
    StaticToken.objects.bulk_create(StaticToken(device=device, token=code) for code in codes)
    return codes


def second_factor_verify(*, user: User, code: str) -> Device | None:
    """The device of ``user`` that takes ``code`` (his authenticator's, or one of his backup
    codes, used up with it), or None."""
    typed = _GAPS.sub("", code).lower()
    if _AUTHENTICATOR.fullmatch(typed):
        kind: type[Device] = TOTPDevice
    elif _BACKUP.fullmatch(typed):
        kind = StaticDevice
    else:
        return None
    with transaction.atomic():
        # Locked while it is checked, so that one code is taken once by two requests at once.
        for device in devices_for_user(user, for_verify=True):
            if isinstance(device, kind) and device.verify_token(typed):
                return device
    return None


@transaction.atomic
def second_factor_add(*, user: User, key: str, code: str) -> tuple[TOTPDevice, list[str]]:
    """Give ``user`` the authenticator app whose secret is ``key`` (hex), once ``code`` shows
    that it works, in place of any he had, and ten new backup codes (returned: shown once)."""
    TOTPDevice.objects.filter(user=user).delete()
    device = TOTPDevice.objects.create(user=user, name=AUTHENTICATOR_NAME, key=key)
    typed = _GAPS.sub("", code)
    if not _AUTHENTICATOR.fullmatch(typed) or not device.verify_token(typed):
        raise wrong_code()  # and nothing is kept
    return device, _new_backup_codes(user=user)


@transaction.atomic
def backup_codes_renew(*, user: User, code: str) -> list[str]:
    """New backup codes for ``user`` in place of those he has, once ``code`` shows that he
    holds his second factor; returned, to be shown once."""
    if second_factor_verify(user=user, code=code) is None:
        raise wrong_code()
    return _new_backup_codes(user=user)


@transaction.atomic
def second_factor_remove(*, person: User, by: User, code: str | None = None) -> int:
    """Remove ``person``'s second factor (his authenticator and backup codes): by himself
    with a code, or by an administrator (a lost phone). Returns how many devices went."""
    enforce(policies.may_remove_second_factor(actor=by, person=person))
    if by.pk == person.pk and (
        code is None or second_factor_verify(user=person, code=code) is None
    ):
        raise wrong_code()
    removed = 0
    for kind in (TOTPDevice, StaticDevice):
        _count, by_model = kind.objects.filter(user=person).delete()
        removed += by_model.get(kind._meta.label, 0)
    return removed
