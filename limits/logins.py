"""Failed logins: which slow a guesser, and which lock a user name at one address.

Only failed attempts are counted, in fixed windows (``limits.windows``), by user name (folded:
case and surrounding spaces do not matter, stored as a hash) and by the client's address:

- **per user name at one address** (``LOGIN_RATE_USERNAME_ADDRESS``, 10 in 15 minutes): once
  used up, that name is refused from that address, even with the right password, until the
  window ends. This is the only lock on an account, and it holds at one address only: wrong
  passwords from anywhere else never stop the owner.
- **per user name** (``LOGIN_RATE_USERNAME``, 10 in 15 minutes, from any addresses) and **per
  address** (``LOGIN_RATE_ADDRESS``, 50 in 15 minutes, across any names): once either is used
  up, the guesser is slowed: each address gets one try at that name a minute
  (``LOGIN_RATE_SLOWED``), sooner tries are refused without checking the password, and failures
  are answered 429. An address that has not failed at a name always has its password checked,
  so neither guessers elsewhere nor one player's wrong guesses behind a venue's shared address
  keep anyone else out.
- **per address, flood cap** (``LOGIN_RATE_ADDRESS_FLOOD``, 500 in 15 minutes, across any
  names): so many failures that no venue makes them; from then on every attempt from that
  address is refused until the window ends. The one refusal of a right password from an
  address that has not failed at that name.

Attempts refused without a check are not counted. When the cache does not answer, nothing is
limited (fail open).
"""

from dataclasses import dataclass

from django.conf import settings

from limits.clients import address_of
from limits.windows import folded, rate_count, rate_exceeded


@dataclass(frozen=True)
class LoginRefusal:
    """A login refused or slowed: the seconds to wait, and whether the account is locked at
    this address (or the address flooded) rather than only slowed."""

    wait: float
    locked: bool


@dataclass(frozen=True)
class Attempt:
    """One login attempt: a user name (None when none was given) from an address."""

    name: str | None
    address: str

    @classmethod
    def of(cls, request, username: object) -> "Attempt":
        """The attempt a request makes with ``username`` (anything a client sent)."""
        name = folded(username) if isinstance(username, str) and username.strip() else None
        return cls(name=name, address=address_of(request))

    # The counters' keys.
    @property
    def _pair(self) -> str:
        return f"login-fail:pair:{self.name}:{self.address}"

    @property
    def _pace(self) -> str:
        return f"login-fail:pace:{self.name}:{self.address}"

    @property
    def _user(self) -> str:
        return f"login-fail:user:{self.name}"

    @property
    def _addr(self) -> str:
        return f"login-fail:addr:{self.address}"

    @property
    def _flood(self) -> str:
        return f"login-fail:flood:{self.address}"

    def _slowed(self) -> bool:
        """Whether this name, or this address, has failed so often that its guesser is slowed."""
        if rate_exceeded(self._addr, settings.LOGIN_RATE_ADDRESS) is not None:
            return True
        return (
            self.name is not None
            and rate_exceeded(self._user, settings.LOGIN_RATE_USERNAME) is not None
        )


def login_refusal(attempt: Attempt) -> LoginRefusal | None:
    """Whether to refuse ``attempt`` before its password is checked: the address flooded, the
    name locked at this address, or slowed and tried here within the minute."""
    if (wait := rate_exceeded(attempt._flood, settings.LOGIN_RATE_ADDRESS_FLOOD)) is not None:
        return LoginRefusal(wait, locked=True)
    if attempt.name is None:
        return None
    if (wait := rate_exceeded(attempt._pair, settings.LOGIN_RATE_USERNAME_ADDRESS)) is not None:
        return LoginRefusal(wait, locked=True)
    wait = rate_exceeded(attempt._pace, settings.LOGIN_RATE_SLOWED)
    if wait is not None and attempt._slowed():
        return LoginRefusal(wait, locked=False)
    return None


def login_failed(attempt: Attempt) -> LoginRefusal | None:
    """Count a failed ``attempt``. A ``LoginRefusal`` (answer 429) when its name or address was
    slowed already and this was its try for the minute: the seconds until the next one."""
    slowed = attempt._slowed()
    rate_count(attempt._flood, settings.LOGIN_RATE_ADDRESS_FLOOD)
    rate_count(attempt._addr, settings.LOGIN_RATE_ADDRESS)
    if attempt.name is None:
        return None
    rate_count(attempt._user, settings.LOGIN_RATE_USERNAME)
    rate_count(attempt._pair, settings.LOGIN_RATE_USERNAME_ADDRESS)
    rate_count(attempt._pace, settings.LOGIN_RATE_SLOWED)
    if slowed and (wait := rate_exceeded(attempt._pace, settings.LOGIN_RATE_SLOWED)) is not None:
        return LoginRefusal(wait, locked=False)
    return None
