"""Mails about accounts that must tell nobody which addresses have one: the link to choose a
new password. The page that asks for it answers at once and the same for every address; the
account is looked up here, after the answer (``tournaments.after_response``)."""

import logging

from django.contrib.auth import forms as auth_forms
from django.contrib.auth.tokens import default_token_generator
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from tournaments.mails import mail_link, mail_send

logger = logging.getLogger(__name__)


def password_reset_mail(*, email: str, language: str) -> int:
    """Mail a link to choose a new password to each active account of ``email`` that has a
    password (Django's ``PasswordResetForm.get_users``); how many were sent."""
    sent = 0
    for user in auth_forms.PasswordResetForm().get_users(email):
        path = reverse(
            "password_reset_confirm",
            kwargs={
                "uidb64": urlsafe_base64_encode(force_bytes(user.pk)),
                "token": default_token_generator.make_token(user),
            },
        )
        try:
            mail_send(
                to=user.email,
                subject_template="registration/password_reset_subject.txt",
                body_template="registration/password_reset_email.txt",
                context={"user": user, "link": mail_link(path)},
                language=language,
            )
        except Exception:
            logger.exception("The password-reset mail to user %s was not sent.", user.pk)
            continue
        sent += 1
    return sent
