"""Passwords without an administrator: Django's password reset, and the page of an invitation
link where new staff choose theirs (``adjudication.invitations``).

Both are Django's own views with the site's templates (``templates/registration/``). The reset
page answers the same, in the same time, whether an address has an account or not: it does not
look the address up at all. The lookup and the mail (to an account's own address only, as
Django's ``PasswordResetForm``) are a Celery task queued once the answer has been sent
(``tournaments.after_response``), so that neither a mail server's time nor its failure shows.
Its requests are limited in the cache as logins are (``limits``): per e-mail address, so that
nobody's inbox is flooded, and per client address (``PASSWORD_RESET_RATE_EMAIL``,
``PASSWORD_RESET_RATE_ADDRESS``); over a limit the page answers 429, for an address with an
account as for one without. The mails' links and host are made from ``SITE_URL``
(``tournaments.mails``), never from the request.
"""

import math
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.core.exceptions import ValidationError
from django.http import HttpResponseRedirect
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from adjudication.invitations import invitation_tokens
from limits.clients import address_of
from limits.windows import folded, rate_count
from tournaments.after_response import task_after_response
from tournaments.tasks import password_reset_mail_task

RESET_MESSAGE = _("Too many requests for a new password. Please wait a while and try again.")


class PasswordResetView(auth_views.PasswordResetView):
    """The "Forgot your password?" page: a link to choose a new one, sent to the account's address;
    limited per e-mail address and per client address."""

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
        # Nothing here asks whether the address has an account: the task does, after the answer.
        language = translation.get_language() or settings.LANGUAGE_CODE
        task_after_response(password_reset_mail_task, email, language)
        return HttpResponseRedirect(self.get_success_url())


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
