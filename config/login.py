"""The logins and their limits on failed attempts: the login page, the administration's login and
the API's token endpoint (``POST /api/v1/auth/token``) count the same failures.

What is counted, and when an attempt is refused or slowed, is ``limits.logins``: only wrong
passwords are counted, and a user name is locked only at the address it failed from many times;
other failures slow the guesser (one try a minute per name and address, failures answered 429),
never the owner's right password from elsewhere. A refused or slowed attempt is answered HTTP
429 with Retry-After on all three. A request without a user name or a password is answered in
the time a wrong password takes (``as_long_as_a_check``), so that the time of an answer never
tells which names have an account.
"""

import math
from datetime import timedelta

from django.conf import settings
from django.contrib import admin, messages
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_not_required
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import User
from django.contrib.auth.signals import user_logged_in
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from rest_framework import exceptions, serializers
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.views import APIView

from adjudication import selectors as adjudication_selectors
from limits.logins import Attempt, LoginRefusal, login_failed, login_refusal
from teams import selectors as team_selectors

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


def _too_many(response: HttpResponse, refusal: LoginRefusal) -> HttpResponse:
    response.status_code = 429
    response["Retry-After"] = str(max(1, math.ceil(refusal.wait)))
    return response


def as_long_as_a_check(attempt: Attempt) -> None:
    """For a request that is no real attempt (no user name or no password): run the password
    hasher once, as checking a password does (Django's own check hashes once for an unknown
    user name as for a known one), so that all answers take the same time."""
    if attempt.name is None:
        make_password("")


class RateLimitedAuthenticationForm(AuthenticationForm):
    """Django's login form, refusing an attempt that ``limits.logins`` refuses before checking
    its password, and counting a failed one; ``refusal`` says why the page answers 429."""

    refusal: LoginRefusal | None = None

    def clean(self):
        assert self.request is not None, "the views give the form its request"
        attempt = Attempt.of(
            self.request, self.cleaned_data.get("username"), self.cleaned_data.get("password")
        )
        if (refusal := login_refusal(attempt)) is not None:
            self.refusal = refusal
            raise ValidationError(refusal_message(refusal), code="rate_limited")
        as_long_as_a_check(attempt)
        try:
            return super().clean()
        except ValidationError as error:
            # A right password refused for another reason (the administration's staff-only
            # check) is no failed guess.
            if self.user_cache is not None or (refusal := login_failed(attempt)) is None:
                raise
            # Slowed: the failure is said, and when the next try from here will be checked.
            self.refusal = refusal
            slowed = ValidationError(refusal_message(refusal), code="rate_limited")
            raise ValidationError([*error.error_list, slowed]) from None


class RateLimitedAdminAuthenticationForm(RateLimitedAuthenticationForm, AdminAuthenticationForm):
    """The administration's login form, with the same limits (and its staff-only check)."""


def session_ends_fixed(*, request: HttpRequest, **kwargs) -> None:
    """A session ends ``SESSION_COOKIE_AGE`` after its login (Django would move the end on
    whenever the session changes), so that the end is known exactly: the entry pages tell the
    service worker, which then shows no staff page kept on the device past it
    (``scoring.views.page.kept_until``, static/js/sw.js)."""
    request.session.set_expiry(timezone.now() + timedelta(seconds=settings.SESSION_COOKIE_AGE))


# Every login (the login page, the administration's), whichever view logs in.
user_logged_in.connect(session_ends_fixed, dispatch_uid="session-ends-fixed")


def offers_waiting(user: User) -> int:
    """How many roles are offered to ``user`` and wait for his answer ("Your roles",
    ``config.accounts.roles``)."""
    return len(adjudication_selectors.role_offers_for(user=user)) + len(
        team_selectors.organiser_offers_for(user=user)
    )


class LoginView(auth_views.LoginView):
    """Django's login page, answering 429 when an attempt is refused or slowed."""

    form_class = RateLimitedAuthenticationForm

    def get_initial(self):
        # The invitation page sends its new member of staff here with his user name.
        return {**super().get_initial(), "username": self.request.GET.get("username", "")[:150]}

    def form_invalid(self, form):
        response = super().form_invalid(form)
        if form.refusal is not None:
            _too_many(response, form.refusal)
        return response

    def form_valid(self, form):
        response = super().form_valid(form)
        # Roles offered by user name wait for the account's answer: it is told so at once.
        if waiting := offers_waiting(form.get_user()):
            messages.info(
                self.request,
                ngettext(
                    "%(count)d role is offered to you: accept or decline it under “Your "
                    "roles” (your user name at the top of the page).",
                    "%(count)d roles are offered to you: accept or decline them under “Your "
                    "roles” (your user name at the top of the page).",
                    waiting,
                )
                % {"count": waiting},
            )
        return response


@login_not_required
def admin_login(request: HttpRequest, extra_context=None) -> HttpResponse:
    """The administration's own login page (``admin.site.login``, with the form above; the
    site's urls route ``admin/login/`` here), answering 429 as the login page does."""
    response = admin.site.login(request, extra_context)
    form = (getattr(response, "context_data", None) or {}).get("form")
    if isinstance(form, RateLimitedAuthenticationForm) and form.refusal is not None:
        _too_many(response, form.refusal)
    return response


def _throttled(refusal: LoginRefusal) -> exceptions.Throttled:
    """HTTP 429 with Retry-After, and the login page's words (without DRF's own "Expected
    available in …", which would say the wait twice)."""
    error = exceptions.Throttled(wait=refusal.wait)
    error.detail = exceptions.ErrorDetail(refusal_message(refusal), code=error.default_code)
    return error


def _field(request, name: str) -> object:
    """A field of the request's body as the token serializer reads it (its ``CharField`` takes
    a JSON number as its digits), so that a password sent as a number is counted too."""
    value = request.data.get(name) if hasattr(request.data, "get") else None
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    return value


class ObtainAuthTokenLimited(ObtainAuthToken):
    """``POST /api/v1/auth/token`` with the login page's limits on failed attempts."""

    # The API's parsers (DEFAULT_PARSER_CLASSES), which refuse what no field can hold;
    # ObtainAuthToken names DRF's own.
    parser_classes = APIView.parser_classes

    def post(self, request, *args, **kwargs):
        attempt = Attempt.of(request, _field(request, "username"), _field(request, "password"))
        if (refusal := login_refusal(attempt)) is not None:
            raise _throttled(refusal)
        as_long_as_a_check(attempt)
        try:
            return super().post(request, *args, **kwargs)
        except serializers.ValidationError:
            if (refusal := login_failed(attempt)) is None:
                raise
            raise _throttled(refusal) from None
