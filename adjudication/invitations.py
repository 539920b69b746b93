"""Invitation links (``services.staff_invite``): a random key of 256 bits in the link, kept in
the database only as its SHA-256 (``StaffInvitation.key_hash``), valid ``VALID_FOR`` (seven
days), once.

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

import hashlib
import secrets
from datetime import timedelta

from django.contrib.auth.models import User
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.urls import reverse
from django.utils.crypto import constant_time_compare
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


def invitation_key_new() -> str:
    """A fresh key for an invitation link: 256 random bits, in the link's alphabet."""
    return secrets.token_urlsafe(32)


def invitation_key_hash(key: str) -> str:
    """What is stored of a key: its SHA-256 (a key is random, so no salt or slow hash is
    needed), so that the table gives nobody a working link."""
    return hashlib.sha256(key.encode()).hexdigest()


def invitation_key_path(key: str) -> str:
    """The path of the invitation page for ``key`` (``config.accounts.staff_invitation``)."""
    return reverse("invitation", kwargs={"key": key})
