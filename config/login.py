"""Limits on failed logins: the login page and the API's token endpoint.

Failed attempts are counted in the default cache, per username and per address, in fixed
windows (``LOGIN_RATE_USERNAME``, ``LOGIN_RATE_ADDRESS``, e.g. ``"10/15min"``). Once a count
reaches its limit, further attempts for that username or from that address are refused with
HTTP 429 until the window ends, without checking the password. Successful logins are not
counted. The per-address limit is generous: a venue puts many people behind one address.

Only logins are limited here; public pages and reads are not limited per address.
"""

import hashlib

from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions, serializers
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

from config.throttling import address_of, parse_rate, rate_count, rate_exceeded

MESSAGE = _("Too many failed login attempts. Please wait a few minutes and try again.")


def _limits(request, username: str | None) -> list[tuple[str, str]]:
    """(key, rate) of each limit this attempt counts towards."""
    limits = [(f"login-fail:addr:{address_of(request)}", settings.LOGIN_RATE_ADDRESS)]
    if username:
        digest = hashlib.sha256(username.strip().casefold().encode()).hexdigest()
        limits.append((f"login-fail:user:{digest}", settings.LOGIN_RATE_USERNAME))
    return limits


def blocked(request, username: str | None) -> bool:
    """Whether this username or this address has used up its failed attempts."""
    return any(rate_exceeded(key, rate) is not None for key, rate in _limits(request, username))


def failure_count(request, username: str | None) -> None:
    """Count one failed attempt for the username and the address."""
    for key, rate in _limits(request, username):
        rate_count(key, rate)


class RateLimitedAuthenticationForm(AuthenticationForm):
    error_messages = {**AuthenticationForm.error_messages, "rate_limited": MESSAGE}

    def clean(self):
        username = self.cleaned_data.get("username")
        if blocked(self.request, username):
            raise ValidationError(self.error_messages["rate_limited"], code="rate_limited")
        try:
            return super().clean()
        except ValidationError:
            failure_count(self.request, username)
            raise


class RateLimitedAdminAuthenticationForm(RateLimitedAuthenticationForm, AdminAuthenticationForm):
    """The administration's login form, with the same limit (and its staff-only check)."""

    error_messages = {
        **AdminAuthenticationForm.error_messages,
        "rate_limited": MESSAGE,
    }


class LoginView(auth_views.LoginView):
    """Django's login page, answering 429 once the failed attempts are used up."""

    form_class = RateLimitedAuthenticationForm

    def get_initial(self):
        # The invitation page sends its new member of staff here with his user name.
        return {**super().get_initial(), "username": self.request.GET.get("username", "")[:150]}

    def form_invalid(self, form):
        response = super().form_invalid(form)
        if form.has_error(NON_FIELD_ERRORS, "rate_limited"):
            response.status_code = 429
        return response


class LoginThrottle(BaseThrottle):
    """Refuses a token request once its username or address has used up its failed attempts;
    the view counts the failures."""

    def allow_request(self, request, view) -> bool:
        username = request.data.get("username") if hasattr(request.data, "get") else None
        return not blocked(request, username if isinstance(username, str) else None)

    def wait(self) -> float:
        return parse_rate(settings.LOGIN_RATE_USERNAME)[1]


class ObtainAuthTokenLimited(ObtainAuthToken):
    """``POST /api/v1/auth/token`` with the login page's limit on failed attempts."""

    throttle_classes = [LoginThrottle]
    # The API's parsers (DEFAULT_PARSER_CLASSES), which refuse what no field can hold;
    # ObtainAuthToken names DRF's own.
    parser_classes = APIView.parser_classes

    def throttled(self, request, wait):
        raise exceptions.Throttled(wait=wait, detail=str(MESSAGE))

    def post(self, request, *args, **kwargs):
        try:
            return super().post(request, *args, **kwargs)
        except serializers.ValidationError:
            username = request.data.get("username") if hasattr(request.data, "get") else None
            failure_count(request, username if isinstance(username, str) else None)
            raise
