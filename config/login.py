"""The logins and their limits on failed attempts: the login page, the administration's login and
the API's token endpoint (``POST /api/v1/auth/token``) count the same failures.

What is counted, and when an attempt is refused or slowed, is ``limits.logins``: only wrong
passwords and codes are counted; a device that signed in as a name before is counted on its own
and only it is ever locked out of that name; other devices are slowed (one try a minute per name
and address, failures answered 429), never locked. A refused or slowed attempt is answered HTTP
429 with Retry-After on all three. A request without a user name or a password is answered in
the time a wrong password takes (``as_long_as_a_check``), so that the time of an answer never
tells which names have an account.

An account with a second factor (``config.second_factor``) is logged in only once it has given
a code too: the page and the administration ask for it on a second page (``LoginCodeView``), the
token endpoint in its ``otp`` field. An account that must have one and has none
(``OTP_REQUIRED_FOR_ADMINS``) is led to set it up before it is logged in. Every login done sets
the device's cookie (``limits.devices``).
"""

from datetime import timedelta

from django.conf import settings
from django.contrib import admin, messages
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import REDIRECT_FIELD_NAME, logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_not_required
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import User
from django.contrib.auth.signals import user_logged_in
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.decorators import method_decorator
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters
from django.views.generic import View
from rest_framework import exceptions, serializers
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.response import Response
from rest_framework.views import APIView

from adjudication import selectors as adjudication_selectors
from config.second_factor import policies, selectors, services
from config.second_factor.forms import CodeForm
from config.second_factor.pending import login_complete, pending_of, pending_start
from limits.devices import device_cookie_set
from limits.logins import (
    Attempt,
    LoginRefusal,
    login_failed,
    login_refusal,
    refusal_message,
    too_many,
)
from teams import selectors as team_selectors


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


def offers_waiting(user: User) -> int:
    """How many roles are offered to ``user`` and wait for his answer ("Your roles",
    ``config.accounts.roles``)."""
    return len(adjudication_selectors.role_offers_for(user=user)) + len(
        team_selectors.organiser_offers_for(user=user)
    )


def offers_told(*, request: HttpRequest | None, user: User, **kwargs) -> None:
    """Roles offered by user name wait for the account's answer: it is told so as it logs in,
    whichever way (the page, the administration, the second factor's code)."""
    if request is not None and (waiting := offers_waiting(user)):
        messages.info(
            request,
            ngettext(
                "%(count)d role is offered to you: accept or decline it under “Your "
                "roles” (your user name at the top of the page).",
                "%(count)d roles are offered to you: accept or decline them under “Your "
                "roles” (your user name at the top of the page).",
                waiting,
            )
            % {"count": waiting},
            fail_silently=True,  # a login without the pages' messages (a test's, a script's)
        )


# Every login (the login page, the administration's, the second factor's step), whichever view.
user_logged_in.connect(session_ends_fixed, dispatch_uid="session-ends-fixed")
user_logged_in.connect(offers_told, dispatch_uid="role-offers-told")


def password_right(request: HttpRequest, *, user: User, next_url: str) -> HttpResponse:
    """After the right password: logged in, or on to the second factor (its code, or setting
    it up where the account must have one)."""
    if selectors.asks_for_a_code(user=user):
        pending_start(request, user=user, next_url=next_url, setup=False)
        return redirect("login-code")
    if policies.may_work_without_second_factor(user=user) is not None:
        pending_start(request, user=user, next_url=next_url, setup=True)
        return redirect("second-factor")
    response = HttpResponseRedirect(next_url)
    login_complete(request, response, user=user, backend=getattr(user, "backend", ""), device=None)
    return response


class LoginView(auth_views.LoginView):
    """Django's login page, answering 429 when an attempt is refused or slowed, and going on to
    the second factor where the account has one."""

    form_class = RateLimitedAuthenticationForm

    def get_initial(self):
        # The invitation page sends its new member of staff here with his user name.
        return {**super().get_initial(), "username": self.request.GET.get("username", "")[:150]}

    def form_valid(self, form):
        return password_right(self.request, user=form.get_user(), next_url=self.get_success_url())

    def form_invalid(self, form):
        response = super().form_invalid(form)
        if form.refusal is not None:
            too_many(response, form.refusal)
        return response


@method_decorator(sensitive_post_parameters("code"), name="dispatch")
@method_decorator(never_cache, name="dispatch")
class LoginCodeView(View):
    """The login's second step (``/accounts/login/code/``): the code of the account's
    authenticator app, or one of its backup codes. Wrong codes count as failed logins."""

    template_name = "registration/login_code.html"

    def dispatch(self, request, *args, **kwargs):
        pending = pending_of(request)
        if pending is None:
            # Never begun, or begun more than five minutes ago.
            messages.info(request, gettext("Please log in with your user name and password."))
            return redirect("login")
        if pending.setup:
            return redirect("second-factor")
        self.pending = pending
        return super().dispatch(request, *args, **kwargs)

    def get(self, request, *args, **kwargs):
        return self._page(CodeForm())

    def post(self, request, *args, **kwargs):
        form = CodeForm(request.POST)
        if not form.is_valid():
            return self._page(form)
        user = self.pending.user
        attempt = Attempt.code_of(request, user.get_username())
        if (refusal := login_refusal(attempt)) is not None:
            form.add_error("code", refusal_message(refusal))
            return too_many(self._page(form), refusal)
        device = services.second_factor_verify(user=user, code=form.cleaned_data["code"])
        if device is None:
            form.add_error("code", services.wrong_code().messages[0])
            if (refusal := login_failed(attempt)) is not None:
                form.add_error("code", refusal_message(refusal))
                return too_many(self._page(form), refusal)
            return self._page(form)
        response = HttpResponseRedirect(self.pending.next_url)
        login_complete(request, response, user=user, backend=self.pending.backend, device=device)
        return response

    def _page(self, form: CodeForm) -> HttpResponse:
        # A wrong code is answered as a wrong password is: the page again, 200.
        return render(self.request, self.template_name, {"form": form})


@login_not_required
def admin_login(request: HttpRequest, extra_context=None) -> HttpResponseBase:
    """The administration's own login page (``admin.site.login``'s, with the form above and the
    second step; the site's urls route ``admin/login/`` here), answering 429 as the login page
    does. A session logged in without the second factor the administration asks of it is led to
    set one up, or to log in again with its code."""
    index = reverse("admin:index", current_app=admin.site.name)
    user = request.user
    needed = policies.may_work_without_second_factor(user=user) if user.is_authenticated else None
    if needed is not None and user.is_staff and not admin.site.has_permission(request):
        if not selectors.asks_for_a_code(user=user):
            messages.info(request, needed.message)
            return redirect(f"{reverse('second-factor')}?{REDIRECT_FIELD_NAME}={index}")
        logout(request)
        messages.info(
            request, gettext("The administration asks for your second factor: please log in again.")
        )
        return redirect(f"{reverse('admin:login')}?{REDIRECT_FIELD_NAME}={index}")
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


class TokenRequestSerializer(AuthTokenSerializer):
    """The user name and password, and the second factor's code where the account has one."""

    otp = serializers.CharField(
        label=_("Code"),
        help_text=_(
            "The code of the account's authenticator app, or one of its backup codes: needed "
            "when the account has a second factor."
        ),
        required=False,
        allow_blank=True,
        max_length=32,
        write_only=True,
    )


class ObtainAuthTokenLimited(ObtainAuthToken):
    """``POST /api/v1/auth/token`` with the login page's limits on failed attempts, and the
    second factor's code in ``otp``."""

    # The API's parsers (DEFAULT_PARSER_CLASSES), which refuse what no field can hold;
    # ObtainAuthToken names DRF's own.
    parser_classes = APIView.parser_classes
    serializer_class = TokenRequestSerializer

    def post(self, request, *args, **kwargs):
        attempt = Attempt.of(request, _field(request, "username"), _field(request, "password"))
        if (refusal := login_refusal(attempt)) is not None:
            raise _throttled(refusal)
        as_long_as_a_check(attempt)
        serializer = self.get_serializer(data=request.data)
        try:
            serializer.is_valid(raise_exception=True)
        except serializers.ValidationError as error:
            # A code of no code's shape: no password was checked, nothing is counted.
            if isinstance(error.detail, dict) and set(error.detail) == {"otp"}:
                raise
            if (refusal := login_failed(attempt)) is None:
                raise
            raise _throttled(refusal) from None
        user = serializer.validated_data["user"]
        code = serializer.validated_data.get("otp", "")
        if selectors.asks_for_a_code(user=user):
            if not code:
                raise serializers.ValidationError(
                    {"otp": [gettext("This account has a second factor: send its code in “otp”.")]}
                )
            code_attempt = Attempt.code_of(request, user.get_username())
            if (refusal := login_refusal(code_attempt)) is not None:
                raise _throttled(refusal)
            if services.second_factor_verify(user=user, code=code) is None:
                if (refusal := login_failed(code_attempt)) is not None:
                    raise _throttled(refusal)
                raise serializers.ValidationError({"otp": services.wrong_code().messages})
        elif (missing := policies.may_work_without_second_factor(user=user)) is not None:
            raise serializers.ValidationError({"otp": [missing.message]})
        token, _created = Token.objects.get_or_create(user=user)
        response = Response({"token": token.key})
        device_cookie_set(request, response, username=user.get_username())
        return response
