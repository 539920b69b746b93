"""Invitation links (``services.staff_invite``): a key of 256 bits in the link, kept in the
database only as its SHA-256 (``StaffInvitation.key_hash``), valid ``VALID_FOR`` (seven days),
once.

The key is an HMAC, with the site's secret key, of a random seed that the database keeps
(``StaffInvitation.key_seed``): so the staff page can show an open invitation's link again to
the organisers who may pass it on (``policies.may_read_invitation_link``), while a copy of the
database alone still gives nobody a working link (that also needs ``SECRET_KEY``). A link the
secret key no longer makes (the key was changed) is not shown: "Invite again" makes a new one.

Before invitations were stored, an invitation made an account without a password at once and
its link was a token to set it (``InvitationTokenGenerator`` below, the page
``config.accounts.InvitationTokenView``). Those links are still honoured until they run out, a
week after the new invitations came; then the token, its page and its route can go.

Such a link was Django's password-reset token with a key of its own and a longer life: a
password-reset link is not an invitation and an invitation is not a password-reset link, and
the one setting (``PASSWORD_RESET_TIMEOUT``) stays the reset link's. Like a reset token, it
hashes the account's password: setting the password (or "Invite again", which gives the
account a new unusable one) makes every earlier link of that account dead, so a link works
once.
"""

import base64
import hashlib
import secrets
from datetime import timedelta

from django.contrib.auth.models import User
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.urls import reverse
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.encoding import force_bytes
from django.utils.http import base36_to_int, urlsafe_base64_encode

VALID_FOR = timedelta(days=7)


class InvitationTokenGenerator(PasswordResetTokenGenerator):
    """Tokens of invitation links: valid for ``VALID_FOR`` (seven days), one use."""

    key_salt = "adjudication.invitations.InvitationTokenGenerator"
    timeout = int(VALID_FOR.total_seconds())

    def check_token(self, user: User | None, token: str | None) -> bool:
        """Django's check (5.2), with this generator's ``timeout`` in place of
        ``settings.PASSWORD_RESET_TIMEOUT``, which ``PasswordResetTokenGenerator.check_token``
        reads with no way to give it another: the token's signature, then its age."""
        if not (user and token):
            return False
        try:
            ts_b36, _hash = token.split("-")
            ts = base36_to_int(ts_b36)
        except ValueError:
            return False
        if not any(
            constant_time_compare(self._make_token_with_timestamp(user, ts, secret), token)
            for secret in [self.secret, *self.secret_fallbacks]
        ):
            return False
        return self._num_seconds(self._now()) - ts <= self.timeout


invitation_tokens = InvitationTokenGenerator()


def invitation_path(user: User) -> str:
    """The path of a fresh invitation link for ``user`` (``config.accounts.InvitationTokenView``);
    ``tournaments.site.absolute_url`` makes it a link."""
    return reverse(
        "invitation-token",
        kwargs={
            "uidb64": urlsafe_base64_encode(force_bytes(user.pk)),
            "token": invitation_tokens.make_token(user),
        },
    )


KEY_SALT = "adjudication.invitations.invitation_key"


def invitation_key_new() -> str:
    """A fresh key for an invitation link: 256 random bits, in the link's alphabet."""
    return secrets.token_urlsafe(32)


def invitation_key_seed_new() -> str:
    """A fresh seed of an invitation link's key (``invitation_key_of_seed``): 192 random bits."""
    return secrets.token_urlsafe(24)


def invitation_key_of_seed(seed: str) -> str:
    """The key of an invitation link made from its seed with the site's secret key (an HMAC,
    SHA-256): 256 bits in the link's alphabet, as ``invitation_key_new``."""
    digest = salted_hmac(KEY_SALT, seed, algorithm="sha256").digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def invitation_key_again(invitation) -> str | None:
    """The key of an invitation's link, made again from its seed; None if it was made before
    the seeds were kept, or the site's secret key makes another (its hash does not match)."""
    if not invitation.key_seed:
        return None
    key = invitation_key_of_seed(invitation.key_seed)
    return key if constant_time_compare(invitation_key_hash(key), invitation.key_hash) else None


def invitation_key_hash(key: str) -> str:
    """What is stored of a key: its SHA-256 (a key is random, so no salt or slow hash is
    needed), so that the table gives nobody a working link."""
    return hashlib.sha256(key.encode()).hexdigest()


def invitation_key_path(key: str) -> str:
    """The path of the invitation page for ``key`` (``config.accounts.staff_invitation``)."""
    return reverse("invitation", kwargs={"key": key})
