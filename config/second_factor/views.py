"""The page of an account's second factor (``/accounts/second-factor/``): set up an
authenticator app (its secret as a QR code and as text, confirmed by a first code), see how many
backup codes are left and make new ones, remove it; each but the first with a code of it, which
counts as a login's code does (``limits.logins``). It is also the second step of a login whose
account must have a second factor and has none (``pending``): that login is done once it is set
up.

The secret is made when the page is first shown and kept in the session until a code confirms
it; the backup codes are shown once, on the page after they were made.
"""

import base64
import binascii
from urllib.parse import urlencode

import django_otp
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods
from django_otp.plugins.otp_totp.models import TOTPDevice
from django_otp.util import random_hex

from config.second_factor import policies, selectors, services
from config.second_factor.forms import CodeForm
from config.second_factor.pending import Pending, login_complete, pending_of
from limits.logins import Attempt, login_failed, login_refusal, refusal_message, too_many
from tournaments import qr
from tournaments.forms import errors_to_form

ACTIONS = ("add", "backup-codes", "remove")
KEY = "second_factor_key"  # the secret shown, until a code confirms it (hex, 20 bytes)
CODES = "second_factor_codes"  # the backup codes just made, shown once


def next_of(request: HttpRequest) -> str:
    """Where the person goes on to (``next``), if it is a page of this site."""
    url = request.POST.get("next") or request.GET.get("next") or ""
    safe = url_has_allowed_host_and_scheme(
        url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return url if safe else ""


def _here(next_url: str) -> str:
    url = reverse("second-factor")
    return f"{url}?{urlencode({'next': next_url})}" if next_url else url


def _secret(request: HttpRequest) -> str:
    """The secret shown for setting up, made once per session until it is confirmed."""
    key = request.session.get(KEY)
    try:
        if isinstance(key, str) and len(binascii.unhexlify(key)) == 20:
            return key
    except (binascii.Error, ValueError):
        pass
    key = random_hex(20)
    request.session[KEY] = key
    return key


def _page(
    request: HttpRequest,
    *,
    user,
    pending: Pending | None,
    next_url: str,
    form: CodeForm | None = None,
    action: str = "",
    status: int = 200,
) -> HttpResponse:
    factor = selectors.second_factor_of(user=user)
    context = {
        "factor": factor,
        "codes": request.session.pop(CODES, None),
        "required": policies.may_work_without_second_factor(user=user),
        "pending": pending,
        "next_url": next_url,
        "continue_url": next_url or reverse("tournaments:home"),
        "form": form,
        "action": action,
    }
    if factor is None:
        device = TOTPDevice(user=user, key=_secret(request))
        secret = base64.b32encode(device.bin_key).decode()
        context["secret"] = " ".join(secret[i : i + 4] for i in range(0, len(secret), 4))
        # Safe: the SVG holds only numbers made from the address's bits, none of its text.
        context["qr"] = mark_safe(
            qr.svg(qr.qr_rows(device.config_url), 220, labelled_by="totp-qr-label")
        )
    return render(request, "registration/second_factor.html", context, status=status)


@never_cache
@sensitive_post_parameters("code")
@require_http_methods(["GET", "POST"])
def second_factor(request: HttpRequest) -> HttpResponse:
    """The page of the second factor: the account's, or the one a login half done must set up."""
    pending = None
    if request.user.is_authenticated:
        user = request.user
    else:
        pending = pending_of(request)
        if pending is None or not pending.setup:
            return redirect_to_login(request.get_full_path())
        user = pending.user
    next_url = pending.next_url if pending is not None else next_of(request)
    if request.method == "GET":
        return _page(request, user=user, pending=pending, next_url=next_url)

    action = request.POST.get("action", "")
    if action not in ACTIONS:
        message = _("“action” must be one of %(actions)s.") % {"actions": ", ".join(ACTIONS)}
        return HttpResponse(message, status=400, content_type="text/plain; charset=utf-8")
    form = CodeForm(request.POST)

    def again(status: int) -> HttpResponse:
        return _page(
            request,
            user=user,
            pending=pending,
            next_url=next_url,
            form=form,
            action=action,
            status=status,
        )

    if not form.is_valid():
        return again(400)
    code = form.cleaned_data["code"]
    response = redirect(_here(next_url))

    if action == "add":
        if selectors.second_factor_of(user=user) is not None:
            form.add_error(
                None, _("Your account has an authenticator app already: remove it first.")
            )
            return again(400)
        try:
            device, codes = services.second_factor_add(user=user, key=_secret(request), code=code)
        except ValidationError as error:
            errors_to_form(form, error)
            return again(400)
        request.session.pop(KEY, None)
        if pending is not None:
            login_complete(request, response, user=user, backend=pending.backend, device=device)
        else:
            django_otp.login(request, device)  # this session has given it
        request.session[CODES] = codes
        messages.success(
            request,
            _("Your second factor is set up: every login asks for a code after the password."),
        )
        return response

    # New backup codes and removing ask for a code, counted as a login's code is.
    if pending is not None:
        return redirect_to_login(reverse("second-factor"))
    attempt = Attempt.code_of(request, user.get_username())
    if (refusal := login_refusal(attempt)) is not None:
        form.add_error("code", refusal_message(refusal))
        return too_many(again(429), refusal)
    try:
        if action == "backup-codes":
            request.session[CODES] = services.backup_codes_renew(user=user, code=code)
            messages.success(request, _("Your new backup codes are below; the old ones are void."))
        else:
            services.second_factor_remove(person=user, by=user, code=code)
            messages.success(
                request, _("Your second factor is removed: a login asks for the password alone.")
            )
    except ValidationError as error:
        errors_to_form(form, error)
        if (refusal := login_failed(attempt)) is not None:
            form.add_error("code", refusal_message(refusal))
            return too_many(again(429), refusal)
        return again(400)
    return response
