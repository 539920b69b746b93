"""Pages of the online registration: the public page where players register (no login), the
organiser's page where the registration is opened, changed and closed, and the waiting list
ordered, and the page where a person confirms, from the link mailed to her address on record,
that a registration naming her is hers (issue 44)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from limits.clients import client_cookie_set
from registration.claim_links import claim_token_read
from registration.forms import RegisterForm, RegistrationSettingsForm
from registration.models import Registration
from registration.policies import may_manage_registration
from registration.registration_limits import registration_rate_wait
from registration.selectors.claims import claim_link_find
from registration.selectors.registrations import (
    registration_counts,
    registrations_admitted,
    waiting_list,
)
from registration.services import registrations as services
from registration.services.claims import registration_claim_confirm_by_mail
from tournaments import mails, selectors
from tournaments.forms import error_messages, errors_to_form
from tournaments.models import Round
from tournaments.permissions import AuthenticatedHttpRequest, roles_of
from tournaments.site import absolute_url


def _too_many(request: HttpRequest, wait: int) -> HttpResponse:
    minutes = max(1, (wait + 59) // 60)
    response = render(
        request,
        "429.html",
        {
            "message": ngettext(
                "Too many registrations were sent from this device or this connection. "
                "Please try again in %(minutes)d minute.",
                "Too many registrations were sent from this device or this connection. "
                "Please try again in %(minutes)d minutes.",
                minutes,
            )
            % {"minutes": minutes},
            "back": request.path,
        },
        status=429,
    )
    response["Retry-After"] = str(wait)
    return response


@require_http_methods(["GET", "POST"])
def register(request: HttpRequest, slug: str) -> HttpResponse:
    """The public registration page: what the tournament is, the places left or the waiting
    list, and the form; after registering, the result and the personal link."""
    tournament = selectors.tournament_get(slug=slug, user=request.user, counts=False)
    form = RegisterForm(request.POST or None)
    registered = None
    status = 200
    if request.method == "POST":
        if (wait := registration_rate_wait(request)) is not None:
            return _too_many(request, wait)
        if form.is_valid():
            try:
                registered = services.registration_submit(
                    tournament=tournament,
                    language=translation.get_language() or "",
                    **form.cleaned_data,
                )
            except ValidationError as error:
                errors_to_form(form, error)
        if form.errors:
            status = 400
    counts = registration_counts(tournament=tournament)
    refusal = services.registration_closed_refusal(
        settings=counts.settings, tournament=tournament, now=timezone.now()
    )
    response = render(
        request,
        "registration/register.html",
        {
            "tournament": tournament,
            "counts": counts,
            "refusal": refusal,
            "form": form,
            "registered": registered,
            "personal_link": absolute_url(
                request, reverse("registration:personal-link", args=[registered.registration.key])
            )
            if registered
            else None,
            "mail_sent": mails.mail_leaves_the_server(),
        },
        status=status,
    )
    if registered is not None:
        # The key is the player's: never sent on to another site, never kept by a cache.
        response["Referrer-Policy"] = "same-origin"
        response["Cache-Control"] = "private, no-store"
    client_cookie_set(request, response)
    return response


_ROW_ACTIONS = frozenset({"admit", "up", "down", "remove", "back"})


def _row_action(request: AuthenticatedHttpRequest, tournament, action: str) -> str:
    """Do a row's action; the message to show."""
    number = request.POST.get("registration", "")
    if not number.isdecimal() or len(number) > 12:
        raise ValidationError({"registration": _("Choose a registration from the list.")})
    registration = get_object_or_404(tournament.registrations, pk=int(number))
    if action == "admit":
        done = services.registration_give_place(registration=registration, by=request.user)
        assert done.entry is not None
        return _("%(player)s has a place now, with start number %(number)d.") % {
            "player": done.name,
            "number": done.entry.start_number,
        }
    if action in ("up", "down"):
        place = next(
            (
                line.place
                for line in waiting_list(tournament=tournament)
                if line.registration == registration
            ),
            None,
        )
        if place is None:
            raise services.not_waiting(registration)
        moved = services.registration_move(
            registration=registration,
            by=request.user,
            place=max(1, place - 1) if action == "up" else place + 1,
        )
        return _("%(player)s is number %(place)d on the waiting list now.") % {
            "player": registration.name,
            "place": moved.index(registration) + 1,
        }
    if action == "remove":
        services.registration_remove(registration=registration, by=request.user)
        return _("%(player)s is no longer on the waiting list.") % {"player": registration.name}
    services.registration_to_waiting_list(registration=registration, by=request.user)
    return _("%(player)s is first on the waiting list now; the place is free.") % {
        "player": registration.name
    }


@login_required
@require_http_methods(["GET", "POST"])
def registration_manage(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """The organiser's page of the online registration: its settings, close and open again,
    those registered online, and the waiting list in order with its actions."""
    tournament = selectors.tournament_get(slug=slug, user=request.user, counts=False)
    refusal = may_manage_registration(roles=roles_of(request, tournament))
    if refusal is not None:
        raise PermissionDenied(refusal.message)
    counts = registration_counts(tournament=tournament)
    settings = counts.settings
    initial = (
        {
            "opens_at": timezone.localtime(settings.opens_at),
            "closes_at": timezone.localtime(settings.closes_at),
            "capacity": settings.capacity,
            "waiting_list": settings.waiting_list,
            "note": settings.note,
        }
        if settings is not None
        else {"waiting_list": True}
    )
    action = request.POST.get("action", "") if request.method == "POST" else ""
    form = RegistrationSettingsForm(request.POST if action == "save" else None, initial=initial)
    if action == "save":
        if form.is_valid():
            try:
                saved = services.registration_settings_save(
                    tournament=tournament, by=request.user, **form.cleaned_data
                )
            except ValidationError as error:
                errors_to_form(form, error)
            else:
                messages.success(request, _("The registration's settings are saved."))
                for registration in saved.moved_up:
                    messages.info(
                        request,
                        _("%(player)s moved up from the waiting list.")
                        % {"player": registration.name},
                    )
                return redirect("registration:registration-manage", slug)
    elif action:
        try:
            if action == "close":
                services.registration_close(tournament=tournament, by=request.user)
                messages.success(request, _("The registration is closed."))
            elif action == "reopen":
                services.registration_reopen(tournament=tournament, by=request.user)
                messages.success(request, _("The registration is open again."))
            elif action in _ROW_ACTIONS:
                messages.success(request, _row_action(request, tournament, action))
            else:
                messages.error(request, _("Unknown action."))
        except ValidationError as error:
            for message in error_messages(error):
                messages.error(request, message)
        return redirect("registration:registration-manage", slug)
    return render(
        request,
        "registration/registration.html",
        {
            "tournament": tournament,
            "counts": counts,
            "form": form,
            "admitted": registrations_admitted(tournament=tournament),
            "waiting": waiting_list(tournament=tournament),
            "drawn": tournament.rounds.exclude(status=Round.Status.PLANNED).exists(),
            "public_url": reverse("registration:register", args=[slug]),
            "now": timezone.now(),
            "State": Registration.State,
        },
        status=400 if form.errors else 200,
    )


@require_http_methods(["GET", "POST"])
def claim_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """The page the link mailed to a person's address on record opens (``claim_links``): the
    registration that names her, and a button that confirms it is hers. Only the button (a
    POST) confirms: opening the link, as a mail program's preview may, changes nothing. A link
    made up, changed or expired is a 404."""
    link = claim_token_read(token)
    registration = claim_link_find(link=link) if link is not None else None
    if link is None or registration is None:
        raise Http404(_("This link confirms nothing (it may have expired): ask the organiser."))
    error, status = None, 200
    if request.method == "POST":
        try:
            registration = registration_claim_confirm_by_mail(link=link)
        except ValidationError as refused:
            error, status = " ".join(error_messages(refused)), 400
    response = render(
        request,
        "registration/claim_confirm.html",
        {
            "registration": registration,
            "tournament": registration.tournament,
            "error": error,
            "Claim": Registration.Claim,
        },
        status=status,
    )
    # The token is the person's: never sent on to another site, never kept by a cache.
    response["Referrer-Policy"] = "no-referrer"
    response["Cache-Control"] = "private, no-store"
    return response
