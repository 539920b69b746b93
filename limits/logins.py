"""Failed logins: which slow a guesser, and which lock a user name at one address.

Only real attempts are counted: a user name and a non-empty password, checked and found wrong.
A request without a user name or a password (``{}``, an empty form) is answered as a wrong
password is and counts against nobody, so no flood of malformed requests from a venue's shared
address keeps anyone there out. Whether the user name belongs to an account is never asked: a
name is counted the same either way, so that neither the answer, its time nor a lock tells a
guesser which names exist (a name without an account belongs to nobody, so counting it costs
nobody anything).

Failures are counted in fixed windows (``limits.windows``), by user name (folded: case and
surrounding spaces do not matter, stored as a hash), never by address alone:

- **per user name at one address** (``LOGIN_RATE_USERNAME_ADDRESS``, 10 in 15 minutes): once
  used up, that name is refused from that address, even with the right password, until the
  window ends. This is the only lock, and it holds at one address only: wrong passwords from
  anywhere else never stop the owner.
- **per user name** (``LOGIN_RATE_USERNAME``, 10 in 15 minutes, from any addresses): once used
  up, the guesser is slowed: each address gets one try at that name a minute
  (``LOGIN_RATE_SLOWED``), sooner tries are refused without checking the password, and failures
  are answered 429. An address that has not failed at that name always has its password
  checked, so guessers elsewhere never keep the owner out.

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
    this address rather than only slowed."""

    wait: float
    locked: bool


@dataclass(frozen=True)
class Attempt:
    """One login attempt from an address: ``name`` is the folded user name of a real attempt
    (a user name and a non-empty password), None for a request that is no attempt at all."""

    name: str | None
    address: str

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

    def _slowed(self) -> bool:
        """Whether this name has failed so often, from anywhere, that its guessers are slowed."""
        return rate_exceeded(self._user, settings.LOGIN_RATE_USERNAME) is not None


def login_refusal(attempt: Attempt) -> LoginRefusal | None:
    """Whether to refuse ``attempt`` before its password is checked: the name locked at this
    address, or slowed and tried here within the minute."""
    if attempt.name is None:
        return None
    if (wait := rate_exceeded(attempt._pair, settings.LOGIN_RATE_USERNAME_ADDRESS)) is not None:
        return LoginRefusal(wait, locked=True)
    wait = rate_exceeded(attempt._pace, settings.LOGIN_RATE_SLOWED)
    if wait is not None and attempt._slowed():
        return LoginRefusal(wait, locked=False)
    return None


def login_failed(attempt: Attempt) -> LoginRefusal | None:
    """Count a failed ``attempt`` (nothing for a request that was no attempt). A
    ``LoginRefusal`` (answer 429) when its name was slowed already and this was its try for
    the minute: the seconds until the next one."""
    if attempt.name is None:
        return None
    slowed = attempt._slowed()
    rate_count(attempt._user, settings.LOGIN_RATE_USERNAME)
    rate_count(attempt._pair, settings.LOGIN_RATE_USERNAME_ADDRESS)
    rate_count(attempt._pace, settings.LOGIN_RATE_SLOWED)
    if slowed and (wait := rate_exceeded(attempt._pace, settings.LOGIN_RATE_SLOWED)) is not None:
        return LoginRefusal(wait, locked=False)
    return None
