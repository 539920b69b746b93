"""Passwords without an administrator: Django's password reset, the page of an invitation
link (``adjudication.invitations``), where staff invited by e-mail address accept: with the
account of that address, logged in, or by choosing a password for a new one; and "Your roles",
where an account accepts or declines the roles offered to it by user name (a tournament's staff,
a team competition's organisers) and sees those it holds.

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
from django.contrib.auth import login as auth_login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import SetPasswordForm
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from adjudication import policies, selectors, services
from adjudication.invitations import invitation_tokens
from adjudication.models import StaffInvitation
from adjudication.services.staff import name_parts, username_base
from limits.clients import address_of
from limits.windows import folded, rate_count
from teams import selectors as team_selectors
from teams import services as team_services
from tournaments.after_response import task_after_response
from tournaments.forms import errors_to_form
from tournaments.models import TournamentRole
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


class InvitationTokenView(auth_views.PasswordResetConfirmView):
    """The page of an invitation link made before invitations were stored (an account was made
    at once, without a password): the new member of staff chooses one, then logs in. Honoured
    until those links run out (``adjudication.invitations``)."""

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


def _invitation_page(request: HttpRequest, context: dict, status: int = 200) -> HttpResponse:
    return render(request, "registration/staff_invitation.html", context, status=status)


@require_http_methods(["GET", "POST"])
def staff_invitation(request: HttpRequest, key: str) -> HttpResponse:
    """The page of an invitation link. For an address with an account: log in as it, then
    accept (the link opens no account and sets no password). For a new address: choose a
    password, and the account is made with the role. A link that no longer works says why and
    whom to ask."""
    invitation = selectors.staff_invitation_by_key(key=key)
    if invitation is None:
        return _invitation_page(request, {"state": "unknown"}, status=404)
    account = selectors.invitation_account(invitation.email)
    refusal = policies.may_accept_invitation(
        invitation=invitation, account=account, user=request.user
    )
    by = invitation.invited_by
    context: dict = {
        "invitation": invitation,
        "by": by.get_full_name() or by.get_username(),
        "role": TournamentRole.Role(invitation.role).label,
        "refusal": refusal,
    }
    if refusal is not None and refusal.field is not None:
        return _invitation_page(request, {**context, "state": "closed"}, status=410)
    if account is not None:
        if refusal is not None:
            login_url = f"{reverse('login')}?{urlencode({'next': request.path})}"
            status = 403 if request.method == "POST" else 200
            return _invitation_page(
                request, {**context, "state": "login", "login_url": login_url}, status=status
            )
        if request.method == "POST":
            return _invitation_accept(request, invitation, context, key=key, password="")
        return _invitation_page(request, {**context, "state": "accept"})
    first_name, last_name = name_parts(invitation.name)
    # As the account will be (its user name may yet take a number, should the name be taken).
    person = User(
        username=username_base(first_name=first_name, last_name=last_name, email=invitation.email),
        first_name=first_name,
        last_name=last_name,
        email=invitation.email,
    )
    form = SetPasswordForm(person, request.POST if request.method == "POST" else None)
    context = {**context, "state": "new", "form": form, "username": person.username}
    if request.method == "POST" and form.is_valid():
        password = form.cleaned_data["new_password1"]
        return _invitation_accept(request, invitation, context, key=key, password=password)
    return _invitation_page(request, context, status=422 if form.errors else 200)


def _invitation_accept(
    request: HttpRequest, invitation: StaffInvitation, context: dict, *, key: str, password: str
) -> HttpResponse:
    """Accept, then on to the tournament, logged in (a new account is signed in); a refusal that came
    up meanwhile (accepted, withdrawn, an account made for the address) shows the page anew."""
    try:
        grant = services.staff_invitation_accept(
            invitation=invitation, by=request.user, password=password
        )
    except (ValidationError, PermissionDenied) as error:
        if "form" in context and isinstance(error, ValidationError):
            errors_to_form(context["form"], error)
            return _invitation_page(request, context, status=422)
        messages.error(request, str(getattr(error, "messages", [error])[0]))
        return redirect("invitation", key=key)
    role = grant.get_role_display()
    tournament = grant.tournament.name
    if password:
        # He just chose the password on this page: he is signed in with it, as a login would,
        # rather than sent to type it again (issue 47). A new account has no second factor.
        auth_login(request, grant.user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(
            request,
            gettext(
                "Your account is made and you are logged in, as %(role)s in %(tournament)s. "
                "Your user name is %(username)s."
            )
            % {"role": role, "tournament": tournament, "username": grant.user.get_username()},
        )
        return redirect("tournaments:tournament", grant.tournament.slug)
    messages.success(
        request,
        gettext("Invitation accepted: you are %(role)s in %(tournament)s.")
        % {"role": role, "tournament": tournament},
    )
    return redirect("tournaments:tournament", grant.tournament.slug)


def _roles_page(request: HttpRequest, *, error: str = "", status: int = 200) -> HttpResponse:
    assert isinstance(request.user, User)  # login_required
    return render(
        request,
        "registration/roles.html",
        {
            "offers": selectors.role_offers_for(user=request.user),
            "organiser_offers": team_selectors.organiser_offers_for(user=request.user),
            "held": selectors.roles_held(user=request.user),
            "competitions": team_selectors.competitions_organised(user=request.user),
            "error": error,
        },
        status=status,
    )


@login_required
@require_GET
def roles(request: HttpRequest) -> HttpResponse:
    """Your roles: those offered to you by user name, to accept or decline (a tournament's
    staff, TSR 8.2.1; a team competition's organisers), and those you hold."""
    return _roles_page(request)


def _answer(request: HttpRequest, accept, decline, accepted: str, declined: str) -> HttpResponse:
    """Accept or decline as the form's ``answer`` says (anything else is a 400 naming it),
    then back to "Your roles" with what happened, or why not."""
    answer = request.POST.get("answer", "")
    if answer not in {"accept", "decline"}:
        message = gettext("The field “answer” must be “accept” or “decline”.")
        return _roles_page(request, error=message, status=400)
    try:
        (accept if answer == "accept" else decline)()
    except (ValidationError, PermissionDenied) as error:
        messages.error(request, str(getattr(error, "messages", [error])[0]))
    else:
        messages.success(request, accepted if answer == "accept" else declined)
    return redirect("roles")


@login_required
@require_POST
def role_offer_answer(request: HttpRequest, pk: int) -> HttpResponse:
    """Accept or decline a role offered to you in a tournament (``answer``)."""
    assert isinstance(request.user, User)  # login_required
    offer = selectors.role_offer_of(user=request.user, pk=pk)
    values = {"role": offer.get_role_display(), "tournament": offer.tournament.name}
    return _answer(
        request,
        lambda: services.role_offer_accept(offer=offer, by=request.user),
        lambda: services.role_offer_decline(offer=offer, by=request.user),
        gettext("Accepted: you are %(role)s in %(tournament)s.") % values,
        gettext("Declined: you are not %(role)s in %(tournament)s.") % values,
    )


@login_required
@require_POST
def organiser_offer_answer(request: HttpRequest, pk: int) -> HttpResponse:
    """Accept or decline an offer to organise a team competition (``answer``)."""
    assert isinstance(request.user, User)  # login_required
    offer = team_selectors.organiser_offer_of(user=request.user, pk=pk)
    values = {"competition": offer.competition.name}
    return _answer(
        request,
        lambda: team_services.competition_organiser_accept(offer=offer, by=request.user),
        lambda: team_services.competition_organiser_decline(offer=offer, by=request.user),
        gettext("Accepted: you organise %(competition)s.") % values,
        gettext("Declined: you do not organise %(competition)s.") % values,
    )
