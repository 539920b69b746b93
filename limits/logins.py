"""Failed logins: which slow a guesser, and which lock a device out of one name.

Only real attempts are counted: a user name and a non-empty password, checked and found wrong,
and, after the right password, a second factor's code found wrong. A request without a user
name or a password (``{}``, an empty form) is answered as a wrong password is and counts against
nobody, so no flood of malformed requests from a venue's shared address keeps anyone there out.
Whether the user name belongs to an account is never asked: a name is counted the same either
way, so that neither the answer, its time nor a lock tells a guesser which names exist (a name
without an account belongs to nobody, so counting it costs nobody anything).

Failures are counted in fixed windows (``limits.windows``), by user name (folded: case and
surrounding spaces do not matter, stored as a hash), never by address alone, and apart for the
devices that signed in as that name before (``limits.devices``: a signed cookie every
successful login sets), which the rest never touch:

- **a device that signed in as the name before** (``LOGIN_RATE_DEVICE``, 10 in 15 minutes):
  once used up, that device is refused that name, even with the right password, until the
  window ends. This is the only lock, and it holds on that device only: nothing any other
  device or address does refuses it, so the owner who brings a laptop or phone he signed in on
  before always gets in, at a venue whose address a guesser shares too.
- **every other device** (no cookie, or one that never signed in as the name) is slowed, never
  locked: once a name has failed 10 times from anywhere (``LOGIN_RATE_USERNAME``, the known
  devices' failures included), or 10 times from one address (``LOGIN_RATE_USERNAME_ADDRESS``),
  each address gets one try at it a minute (``LOGIN_RATE_SLOWED``); a sooner try is refused
  without checking the password, and failures are answered 429. An address that has not failed
  at that name within the minute always has its password checked, so a fresh laptop at the
  hall where someone guesses at its name waits a minute at most after his last guess.
- **codes** (the second factor, which only the right password reaches) count as failures of
  the name as passwords do, and the same way on a known device; from other devices a slowed
  name's code is tried once a minute in all, not per address, so that whoever has the password
  cannot try a million codes from many addresses.

Attempts refused without a check are not counted. When the cache does not answer, nothing is
limited (fail open).
"""

import math
from dataclasses import dataclass

from django.conf import settings
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from limits.clients import address_of
from limits.devices import device_of
from limits.windows import folded, rate_count, rate_exceeded


@dataclass(frozen=True)
class LoginRefusal:
    """A login refused or slowed: the seconds to wait, and whether the device is locked out of
    the name rather than only slowed."""

    wait: float
    locked: bool


MESSAGE = _("Too many failed login attempts. Please wait a few minutes and try again.")


def refusal_message(refusal: LoginRefusal) -> str:
    """What a refused or slowed attempt is told: a lock lasts minutes, a slowed name a minute."""
    if refusal.locked:
        return str(MESSAGE)
    seconds = max(1, math.ceil(refusal.wait))
    return ngettext(
        "Too many failed login attempts. Please wait %(seconds)d second before trying again.",
        "Too many failed login attempts. Please wait %(seconds)d seconds before trying again.",
        seconds,
    ) % {"seconds": seconds}


def too_many(response, refusal: LoginRefusal):
    """``response`` as the answer to a refused or slowed attempt: 429, with Retry-After."""
    response.status_code = 429
    response["Retry-After"] = str(max(1, math.ceil(refusal.wait)))
    return response


@dataclass(frozen=True)
class Attempt:
    """One login attempt: ``name`` is the folded user name of a real attempt (a user name and
    a non-empty password), None for a request that is no attempt at all; ``device`` the id of
    the device when it signed in as that name before, else None; ``code`` whether it is the
    second factor's code rather than the password."""

    name: str | None
    address: str
    device: str | None = None
    code: bool = False

    @classmethod
    def of(cls, request, username: object, password: object) -> "Attempt":
        """The attempt a request makes with ``username`` and ``password`` (anything a client
        sent)."""
        name = (
            folded(username)
            if isinstance(username, str)
            and username.strip()
            and isinstance(password, str)
            and password
            else None
        )
        return cls._from(request, name, code=False)

    @classmethod
    def code_of(cls, request, username: str) -> "Attempt":
        """The second step of a login as ``username`` (whose password was right): its code."""
        return cls._from(request, folded(username), code=True)

    @classmethod
    def _from(cls, request, name: str | None, *, code: bool) -> "Attempt":
        device = device_of(request)
        known = device is not None and name is not None and name in device.names
        return cls(
            name=name,
            address=address_of(request),
            device=device.id if known and device is not None else None,
            code=code,
        )

    # The counters' keys.
    @property
    def _device(self) -> str:
        return f"login-fail:device:{self.name}:{self.device}"

    @property
    def _pair(self) -> str:
        return f"login-fail:pair:{self.name}:{self.address}"

    @property
    def _pace(self) -> str:
        if self.code:
            return f"login-fail:code-pace:{self.name}"
        return f"login-fail:pace:{self.name}:{self.address}"

    @property
    def _user(self) -> str:
        return f"login-fail:user:{self.name}"

    def _slowed(self) -> bool:
        """Whether this name has failed so often, from anywhere or from this address, that the
        devices unknown to it are slowed."""
        return (
            rate_exceeded(self._user, settings.LOGIN_RATE_USERNAME) is not None
            or rate_exceeded(self._pair, settings.LOGIN_RATE_USERNAME_ADDRESS) is not None
        )


def login_refusal(attempt: Attempt) -> LoginRefusal | None:
    """Whether to refuse ``attempt`` before its password (or code) is checked: its known device
    locked out of the name, or the name slowed and tried here within the minute."""
    if attempt.name is None:
        return None
    if attempt.device is not None:
        wait = rate_exceeded(attempt._device, settings.LOGIN_RATE_DEVICE)
        return None if wait is None else LoginRefusal(wait, locked=True)
    wait = rate_exceeded(attempt._pace, settings.LOGIN_RATE_SLOWED)
    if wait is not None and attempt._slowed():
        return LoginRefusal(wait, locked=False)
    return None


def login_failed(attempt: Attempt) -> LoginRefusal | None:
    """Count a failed ``attempt`` (nothing for a request that was no attempt). A
    ``LoginRefusal`` (answer 429) when its name was slowed already for its device and this was
    its try for the minute: the seconds until the next one."""
    if attempt.name is None:
        return None
    slowed = attempt.device is None and attempt._slowed()
    rate_count(attempt._user, settings.LOGIN_RATE_USERNAME)
    if attempt.device is not None:
        rate_count(attempt._device, settings.LOGIN_RATE_DEVICE)
        return None
    rate_count(attempt._pair, settings.LOGIN_RATE_USERNAME_ADDRESS)
    rate_count(attempt._pace, settings.LOGIN_RATE_SLOWED)
    if slowed and (wait := rate_exceeded(attempt._pace, settings.LOGIN_RATE_SLOWED)) is not None:
        return LoginRefusal(wait, locked=False)
    return None
