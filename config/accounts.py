"""Passwords without an administrator: Django's password reset, and the page of an invitation
link where new staff choose theirs (``adjudication.invitations``).

Both are Django's own views with the site's templates (``templates/registration/``). The reset
form answers the same whether an address has an account or not, and mails only an account's own
address (Django's ``PasswordResetForm``). Its requests are limited in the cache as logins are
(``limits``): per e-mail address, so that nobody's inbox is flooded, and per client
address (``PASSWORD_RESET_RATE_EMAIL``, ``PASSWORD_RESET_RATE_ADDRESS``); over a limit the page
answers 429, for an address with an account as for one without. The mails' links and host are
made from ``SITE_URL`` (``tournaments.mails``), never from the request.
"""

import math
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import forms as auth_forms
from django.contrib.auth import views as auth_views
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from adjudication.invitations import invitation_tokens
from limits.clients import address_of
from limits.windows import folded, rate_count
from tournaments.mails import mail_host, mail_link

RESET_MESSAGE = _("Too many requests for a new password. Please wait a while and try again.")


class PasswordResetForm(auth_forms.PasswordResetForm):
    """Django's form, with the mail's link and host made from ``SITE_URL``; the view gives it
    the request."""

    request: HttpRequest | None = None

    def send_mail(self, subject_template_name, email_template_name, context, *args, **kwargs):
        assert self.request is not None, "the view gives the form its request"
        path = reverse(
            "password_reset_confirm", kwargs={"uidb64": context["uid"], "token": context["token"]}
        )
        context["link"] = mail_link(path)
        context["site_name"] = context["domain"] = mail_host()
        super().send_mail(subject_template_name, email_template_name, context, *args, **kwargs)


class PasswordResetView(auth_views.PasswordResetView):
    """The "Forgot your password?" page: a link to choose a new one, sent to the account's address;
    limited per e-mail address and per client address."""

    form_class = PasswordResetForm
    email_template_name = "registration/password_reset_email.txt"
    subject_template_name = "registration/password_reset_subject.txt"

    def form_valid(self, form):
        email = form.cleaned_data["email"]
        limits = [
            (
                f"password-reset:addr:{address_of(self.request)}",
                settings.PASSWORD_RESET_RATE_ADDRESS,
            ),
            (f"password-reset:email:{folded(email)}", settings.PASSWORD_RESET_RATE_EMAIL),
        ]
        # Both are counted: a client over its limit still counts against the e-mail address.
        waits = [wait for key, rate in limits if (wait := rate_count(key, rate)) is not None]
        if waits:
            form.add_error(None, ValidationError(RESET_MESSAGE, code="rate_limited"))
            response = self.form_invalid(form)
            response.status_code = 429
            response["Retry-After"] = str(max(1, math.ceil(max(waits))))
            return response
        form.request = self.request
        return super().form_valid(form)


class InvitationView(auth_views.PasswordResetConfirmView):
    """The page of an invitation link: the new member of staff chooses a password, then logs
    in. Django's page for a password-reset link, with the invitations' tokens (valid seven
    days, once)."""

    token_generator = invitation_tokens
    template_name = "registration/invitation_confirm.html"

    def get_success_url(self):
        # The login page, with the user name filled in (a valid link has found its user).
        assert self.user is not None
        return f"{reverse('login')}?{urlencode({'username': self.user.get_username()})}"

    def form_valid(self, form):
        response = super().form_valid(form)
        messages.success(
            self.request,
            gettext("Your password is set. Log in with your user name, %(username)s.")
            % {"username": form.user.get_username()},
        )
        return response
