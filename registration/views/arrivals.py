"""Pages of the check-in at the door: the desk's list of the active players to tick off, the
tick from a player's personal link (its QR code scanned at the door), the claims of players
registered online to be a person on record, decided by an organiser who compares an ID (issue
44), and the no-shows withdrawn in one action before the first draw (TSR 8.3: the draw seats
the players present)."""

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import get_conditional_response
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from registration.models import Registration
from registration.policies import may_decide_claim, may_withdraw_no_shows
from registration.selectors.arrivals import (
    check_in_counts,
    check_in_etag,
    check_in_list,
    no_shows_preview,
)
from registration.selectors.claims import OpenClaim, claims_open
from registration.selectors.personal import personal_link_find
from registration.services.arrivals import (
    entry_check_in,
    entry_check_in_undo,
    no_shows_withdraw,
)
from registration.services.claims import registration_claim_confirm, registration_claim_set_aside
from tournaments import policies, selectors
from tournaments.forms import error_messages
from tournaments.models import Entry, Tournament
from tournaments.permissions import AuthenticatedHttpRequest, roles_of

# How often the desk's phones ask whether the list changed; an unchanged answer is a 304.
POLL_SECONDS = 15


def _desk(request: HttpRequest, tournament: Tournament) -> policies.Refusal | None:
    """Refuse (403, with the reason) whoever may not check players in; the refusal that stands
    in the way of someone who may (the tournament is finished) is returned for the page."""
    refusal = policies.may_check_in(tournament=tournament, roles=roles_of(request, tournament))
    if refusal is not None and refusal.field is None:
        raise PermissionDenied(refusal.message)
    return refusal


def _shown(data) -> tuple[str, bool]:
    """The search (at most 100 characters, as the players page takes it) and whether only the
    missing players are listed."""
    return data.get("q", "")[:100], data.get("show") == "missing"


def _back(tournament: Tournament, query: str, missing_only: bool) -> str:
    """The check-in page with the search and filter the desk had."""
    params = {"q": query} if query else {}
    if missing_only:
        params["show"] = "missing"
    url = reverse("registration:check-in", args=[tournament.slug])
    return f"{url}?{urlencode(params)}" if params else url


def _claims(request: HttpRequest, tournament: Tournament) -> dict:
    """The open claims the list shows, and why the reader may not decide them (None: he
    may)."""
    return {
        "claims": claims_open(tournament=tournament),
        "claim_refusal": may_decide_claim(
            tournament=tournament, roles=roles_of(request, tournament)
        ),
    }


def _claims_stamp(claims: dict[int, OpenClaim]) -> str:
    """What of the claims the list shows, for its ETag."""
    return repr(
        sorted(
            (
                entry_id,
                claim.registration.pk,
                claim.person.pk if claim.person else None,
                claim.tournaments,
                claim.others,
            )
            for entry_id, claim in claims.items()
        )
    )


def _revalidate(response: HttpResponse, etag: str) -> HttpResponse:
    """Asked again every time, answered with a 304 while nothing changed."""
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    return response


@login_required
@require_GET
def check_in_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The desk's list: the counts, a search, one row per active player with a big "Arrived"
    button; the list (``HX-Request``) refreshes itself every few seconds."""
    tournament = selectors.tournament_get(slug=slug, user=request.user, counts=False)
    refusal = _desk(request, tournament)
    query, missing_only = _shown(request.GET)
    counts = check_in_counts(tournament=tournament)
    entries = list(check_in_list(tournament=tournament, query=query, missing_only=missing_only))
    context = {
        "tournament": tournament,
        "counts": counts,
        "entries": entries,
        "query": query,
        "missing_only": missing_only,
        "refusal": refusal,
        "live_url": _back(tournament, query, missing_only),
        "poll_seconds": POLL_SECONDS,
        **_claims(request, tournament),
    }
    if request.headers.get("HX-Request") and not (
        request.headers.get("HX-Boosted") or request.headers.get("HX-History-Restore-Request")
    ):
        etag = check_in_etag(
            counts=counts,
            entries=entries,
            extra=(
                f"{query}|{missing_only}|{get_language()}|{refusal}|{context['claim_refusal']}|"
                f"{_claims_stamp(context['claims'])}"
            ),
        )
        if not_modified := get_conditional_response(request, etag=etag):
            return _revalidate(not_modified, etag)
        return _revalidate(
            render(request, "registration/partials/check_in_live.html", context), etag
        )
    context["no_shows_refusal"] = may_withdraw_no_shows(
        tournament=tournament, roles=roles_of(request, tournament)
    )
    return render(request, "registration/check_in.html", context)


@login_required
@require_POST
def check_in_entry(request: AuthenticatedHttpRequest, slug: str, start_number: int) -> HttpResponse:
    """Tick a player off as arrived (``action=in``) or take it back (``action=undo``); htmx gets
    the row and the counts, a plain form goes back to the list."""
    tournament = selectors.tournament_get(slug=slug, user=request.user, counts=False)
    _desk(request, tournament)
    change = {"in": entry_check_in, "undo": entry_check_in_undo}.get(request.POST.get("action", ""))
    if change is None:
        raise Http404
    entry = selectors.entry_get(tournament=tournament, start_number=start_number)
    query, missing_only = _shown(request.POST)
    error = None
    try:
        entry = change(entry=entry, by=request.user)
    except ValidationError as refused:
        error = " ".join(error_messages(refused))
    if request.headers.get("HX-Request"):
        context = {
            "tournament": tournament,
            "entry": entry,
            "error": error,
            "query": query,
            "missing_only": missing_only,
            "counts": check_in_counts(tournament=tournament),
            "refusal": None,
            "oob": True,
            **_claims(request, tournament),
        }
        # 422: htmx shows the row with the reason in place (base.html's responseHandling).
        return render(
            request,
            "registration/partials/check_in_answer.html",
            context,
            status=422 if error else 200,
        )
    if error:
        messages.error(request, error)
    elif change is entry_check_in:
        messages.success(request, _("%(player)s has arrived.") % {"player": entry.name})
    else:
        messages.success(request, _("%(player)s is missing again.") % {"player": entry.name})
    return redirect(_back(tournament, query, missing_only))


_CLAIM_DECISIONS = {
    "confirm": registration_claim_confirm,
    "set_aside": registration_claim_set_aside,
}


@login_required
@require_POST
def check_in_claim(request: AuthenticatedHttpRequest, slug: str, start_number: int) -> HttpResponse:
    """Decide the claim of a player registered online to be the person on record that the
    registration names: the organiser confirms it (``action=confirm``) after comparing an ID,
    or sets it aside (``action=set_aside``); back to the list with the search and filter the
    desk had, or to the player's personal page whose code the desk scanned (``back=personal``).
    """
    tournament = selectors.tournament_get(slug=slug, user=request.user, counts=False)
    _desk(request, tournament)
    decide = _CLAIM_DECISIONS.get(request.POST.get("action", ""))
    if decide is None:
        raise Http404
    entry = selectors.entry_get(tournament=tournament, start_number=start_number)
    try:
        registration = decide(entry=entry, by=request.user)
    except ValidationError as refused:
        for message in error_messages(refused):
            messages.error(request, message)
    else:
        if registration.claim == Registration.Claim.CONFIRMED:
            messages.success(
                request,
                _(
                    "%(player)s is confirmed as the person on record: the tournament counts for them."
                )
                % {"player": entry.name},
            )
        else:
            messages.success(
                request,
                _("%(player)s keeps a record of their own: the claim is set aside.")
                % {"player": entry.name},
            )
    if request.POST.get("back") == "personal":
        return redirect("registration:personal-link", entry.link_key)
    return redirect(_back(tournament, *_shown(request.POST)))


def _personal_entry(request: HttpRequest, key: str) -> Entry:
    found = personal_link_find(key=key)
    if not isinstance(found, Entry):
        raise Http404(_("No player has this link (it may have been replaced)."))
    _desk(request, found.tournament)
    return found


@login_required
@require_POST
def personal_check_in(request: AuthenticatedHttpRequest, key: str) -> HttpResponse:
    """Check in the player whose personal link's QR code the desk scanned at the door."""
    return _personal_change(request, key, entry_check_in)


@login_required
@require_POST
def personal_check_in_undo(request: AuthenticatedHttpRequest, key: str) -> HttpResponse:
    """Take back the check-in made from a player's personal link."""
    return _personal_change(request, key, entry_check_in_undo)


def _personal_change(request: AuthenticatedHttpRequest, key: str, change) -> HttpResponse:
    entry = _personal_entry(request, key)
    try:
        entry = change(entry=entry, by=request.user)
    except ValidationError as refused:
        for message in error_messages(refused):
            messages.error(request, message)
    else:
        if change is entry_check_in:
            messages.success(request, _("%(player)s has arrived.") % {"player": entry.name})
        else:
            messages.success(request, _("%(player)s is missing again.") % {"player": entry.name})
    return redirect("registration:personal-link", key)


@login_required
@require_http_methods(["GET", "POST"])
def no_shows(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Withdraw every player who has not checked in, asked once: the page lists them and who
    moves up from the waiting list into their places; the service decides on the POST."""
    tournament = selectors.tournament_get(slug=slug, user=request.user, counts=False)
    refusal = may_withdraw_no_shows(tournament=tournament, roles=roles_of(request, tournament))
    if refusal is not None and refusal.field is None:
        raise PermissionDenied(refusal.message)
    if request.method == "POST":
        try:
            done = no_shows_withdraw(tournament=tournament, by=request.user)
        except ValidationError as refused:
            for message in error_messages(refused):
                messages.error(request, message)
            return redirect("registration:check-in", slug)
        message = ngettext(
            "%(count)d player who did not come is withdrawn.",
            "%(count)d players who did not come are withdrawn.",
            len(done.withdrawn),
        ) % {"count": len(done.withdrawn)}
        if done.moved_up:
            message += " " + _(
                "Moved up from the waiting list (expected at the door): %(names)s."
            ) % {"names": ", ".join(registration.name for registration in done.moved_up)}
        messages.success(request, message)
        return redirect("registration:check-in", slug)
    preview = no_shows_preview(tournament=tournament)
    counts = check_in_counts(tournament=tournament)
    return render(
        request,
        "registration/no_shows.html",
        {"tournament": tournament, "preview": preview, "counts": counts, "refusal": refusal},
    )
