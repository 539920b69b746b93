"""A player's personal link (``/p/<key>/``): one page for the whole tournament, without an
account. Whoever holds the key sees what the player sees and may do what the player's own seat
allows, nothing more: the page links to the seat's own scoresheet link (``/s/<token>/``) and
never shows a seating before it is published. On the organiser's page of a player, the link
itself and its replacement (a lost phone)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from registration.models import Registration
from registration.personal_keys import KeyLimited, personal_link_for
from registration.selectors.personal import personal_view, waiting_place
from registration.services.links import personal_link_replace, personal_link_withdraw
from tournaments import policies, selectors
from tournaments.models import Entry
from tournaments.permissions import AuthenticatedHttpRequest, roles_of
from tournaments.roles import ORGANISER
from tournaments.roles_history import tablemates
from tournaments.site import absolute_url


def _private(response: HttpResponse) -> HttpResponse:
    # The key is the player's: never sent on to another site, never kept by a shared cache.
    # Not "no-referrer": the browser then sends "Origin: null" with the page's own forms
    # (withdraw, check in), which the CSRF check rightly refuses.
    response["Referrer-Policy"] = "same-origin"
    response["Cache-Control"] = "private, no-store"
    return response


def _too_many(request: HttpRequest, wait: float) -> HttpResponse:
    message = _("Too many requests through this link. Please wait a minute and try again.")
    response = render(request, "429.html", {"message": message, "back": "/"}, status=429)
    response["Retry-After"] = str(max(1, round(wait)))
    return _private(response)


def _found(request: HttpRequest, key: str) -> Entry | Registration | HttpResponse:
    try:
        found = personal_link_for(request, key)
    except KeyLimited as limited:
        return _too_many(request, limited.wait)
    if found is None:
        raise Http404(_("No player has this link (it may have been replaced)."))
    return found


def _page(
    request: HttpRequest, key: str, found: Entry | Registration, *, error: str = "", status=200
) -> HttpResponse:
    context: dict = {
        "tournament": found.tournament,
        "key": key,
        "url": absolute_url(request, reverse("registration:personal-link", args=[key])),
        "error": error,
    }
    if isinstance(found, Entry):
        context["entry"] = found
        context["view"] = personal_view(entry=found)
    else:
        context["registration"] = found
        context["place"] = waiting_place(registration=found)
    template = (
        "registration/partials/personal_live.html"
        if request.headers.get("HX-Request") and isinstance(found, Entry)
        else "registration/personal.html"
    )
    return _private(render(request, template, context, status=status))


@require_GET
def personal_page(request: HttpRequest, key: str) -> HttpResponse:
    """The player's page: their table and seat now and next, their sheet, their results; or
    their place on the waiting list. The part that changes during a round alone for htmx."""
    found = _found(request, key)
    if isinstance(found, HttpResponse):
        return found
    return _page(request, key, found)


@require_POST
def personal_withdraw(request: HttpRequest, key: str) -> HttpResponse:
    """ "I cannot come": the player withdraws before the first draw, or leaves the waiting
    list (``services.personal_link_withdraw``); afterwards the page says to tell the desk."""
    found = _found(request, key)
    if isinstance(found, HttpResponse):
        return found
    try:
        withdrawn = personal_link_withdraw(found=found)
    except ValidationError as error:
        return _page(request, key, found, error=" ".join(error.messages), status=400)
    if withdrawn.registration is not None:
        messages.success(request, _("You have left the waiting list."))
    else:
        messages.success(
            request, _("You have withdrawn from the tournament. Thank you for telling us.")
        )
    return _private(redirect("registration:personal-link", key))


@login_required
@require_POST
def personal_link_replace_view(
    request: AuthenticatedHttpRequest, slug: str, start_number: int
) -> HttpResponse:
    """Replace a player's personal link (a lost phone): the organiser and the adjudicator
    (``policies.may_read_personal_links``, enforced by the service)."""
    tournament = selectors.tournament_get(slug=slug, user=request.user)
    entry = get_object_or_404(tournament.entries, start_number=start_number)
    personal_link_replace(entry=entry, by=request.user)
    messages.success(
        request,
        _("%(player)s has a new personal link; the old one no longer opens anything.")
        % {"player": entry.name},
    )
    if roles_of(request, tournament) & ORGANISER:
        return redirect("tournaments:entry-edit", slug, start_number)
    return redirect("tournaments:player", slug, start_number)


def personal_link_context(request: HttpRequest, entry: Entry) -> dict:
    """The "Personal link" block of the organiser's page of one player: the link, or why it is
    not shown (``policies.may_read_personal_link``: not to one who plays with the player)."""
    refusal = policies.may_read_personal_link(
        entry=entry,
        roles=roles_of(request, entry.tournament),
        tablemates=tablemates(user_id=request.user.pk, tournament_id=entry.tournament_id),
    )
    return {
        "personal_link_refusal": refusal,
        "personal_link_url": absolute_url(
            request, reverse("registration:personal-link", args=[entry.link_key])
        )
        if refusal is None
        else "",
    }
