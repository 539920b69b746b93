"""The logins and their limits on failed attempts: the login page, the administration's login and
the API's token endpoint (``POST /api/v1/auth/token``) count the same failures.

What is counted, and when an attempt is refused or slowed, is ``limits.logins``: only wrong
passwords are counted; a device that signed in as a name before is counted on its own
and only it is ever locked out of that name; other devices are slowed (one try a minute per name
and address, failures answered 429), never locked. A refused or slowed attempt is answered HTTP
429 with Retry-After on all three. A request without a user name or a password is answered in
the time a wrong password takes (``as_long_as_a_check``), so that the time of an answer never
tells which names have an account. Every login sets the device's cookie (``limits.devices``).
"""

from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import REDIRECT_FIELD_NAME
from django.contrib.auth import login as auth_login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_not_required
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseRedirect
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions, serializers
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.views import APIView

from limits.devices import device_cookie_set
from limits.logins import (
    Attempt,
    LoginRefusal,
    login_failed,
    login_refusal,
    refusal_message,
    too_many,
)


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


def logged_in(request: HttpRequest, *, user: User, next_url: str) -> HttpResponse:
    """After the right password: logged in, and the device's cookie names the account."""
    auth_login(request, user)
    response = HttpResponseRedirect(next_url)
    device_cookie_set(request, response, username=user.get_username())
    return response


class LoginView(auth_views.LoginView):
    """Django's login page, answering 429 when an attempt is refused or slowed."""

    form_class = RateLimitedAuthenticationForm

    def get_initial(self):
        # The invitation page sends its new member of staff here with his user name.
        return {**super().get_initial(), "username": self.request.GET.get("username", "")[:150]}

    def form_valid(self, form):
        return logged_in(self.request, user=form.get_user(), next_url=self.get_success_url())

    def form_invalid(self, form):
        response = super().form_invalid(form)
        if form.refusal is not None:
            too_many(response, form.refusal)
        return response


@login_not_required
def admin_login(request: HttpRequest, extra_context=None) -> HttpResponseBase:
    """The administration's own login page (``admin.site.login``'s, with the form above: the
    site's urls route ``admin/login/`` here), answering 429 as the login page does."""
    index = reverse("admin:index", current_app=admin.site.name)
    user = request.user
    if request.method == "GET" and admin.site.has_permission(request):
        return redirect(index)
    context = {
        **admin.site.each_context(request),
        "title": _("Log in"),
        "subtitle": None,
        "app_path": request.get_full_path(),
        "username": user.get_username(),
    }
    if REDIRECT_FIELD_NAME not in request.GET and REDIRECT_FIELD_NAME not in request.POST:
        context[REDIRECT_FIELD_NAME] = index
    context.update(extra_context or {})
    request.current_app = admin.site.name
    return LoginView.as_view(
        extra_context=context,
        authentication_form=RateLimitedAdminAuthenticationForm,
        template_name="admin/login.html",
    )(request)


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
            response = super().post(request, *args, **kwargs)
        except serializers.ValidationError:
            if (refusal := login_failed(attempt)) is None:
                raise
            raise _throttled(refusal) from None
        user = Token.objects.get(key=response.data["token"]).user
        device_cookie_set(request, response, username=user.get_username())
        return response
