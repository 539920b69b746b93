"""Invitation links: how a member of staff the organiser appointed by name and e-mail sets his
own password (``services.staff_invite``).

An invitation is Django's password-reset token with a key of its own and a longer life: a
password-reset link is not an invitation and an invitation is not a password-reset link, and
the one setting (``PASSWORD_RESET_TIMEOUT``) stays the reset link's. Like a reset token, it
hashes the account's password: setting the password (or "Invite again", which gives the
account a new unusable one) makes every earlier link of that account dead, so a link works
once.
"""

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
    """The path of a fresh invitation link for ``user`` (``config.accounts.InvitationView``);
    ``tournaments.site.absolute_url`` makes it a link."""
    return reverse(
        "invitation",
        kwargs={
            "uidb64": urlsafe_base64_encode(force_bytes(user.pk)),
            "token": invitation_tokens.make_token(user),
        },
    )
