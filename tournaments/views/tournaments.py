"""Pages of tournaments: the list, a new tournament (afresh or from an earlier one), a
tournament's page, and the organiser's settings: all of them on one page, tables of five
(TSR 10) also from a button where the seating needs them."""

from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.validators import slug_re
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tournaments import policies, selectors, services
from tournaments.forms import (
    OFFICIAL_FILL,
    TournamentForm,
    TournamentSettingsForm,
    error_messages,
    errors_to_form,
)
from tournaments.models import Entry, SeatingMethod, Tournament
from tournaments.permissions import AuthenticatedHttpRequest, roles_of
from tournaments.roles import STAFF
from tournaments.views.common import organises, report_moves, shortfall


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    current, archived = selectors.tournaments_home(user=request.user)
    refusal = policies.may_create_tournament(user=request.user)
    return render(
        request,
        "tournaments/home.html",
        {
            "tournaments": current,
            "archived": archived,
            "can_create": refusal is None,
            # Signed in without the right: why the buttons are missing, and who grants it.
            "create_refusal": refusal if request.user.is_authenticated else None,
        },
    )


def _creator(request: HttpRequest) -> None:
    """Refuse (403, with the reason) a user who may not create tournaments."""
    if refusal := policies.may_create_tournament(user=request.user):
        raise PermissionDenied(refusal.message)


# A new tournament from an earlier one takes all of its settings but these.
_FRESH = {"name", "starts_on", "ends_on"}


@dataclass(frozen=True)
class PlayerChoice:
    """A player of the earlier tournament, as the list to tick shows him."""

    entry: Entry
    ticked: bool


@login_required
@require_http_methods(["GET", "POST"])
def tournament_new(request: AuthenticatedHttpRequest) -> HttpResponse:
    """A new tournament, whose creator becomes its organiser; with ``?from=<slug>`` one of the
    tournaments he organises lends it its settings and, as he ticks them, its players (the
    active ones ticked at first, the withdrawn ones not) and its staff."""
    _creator(request)
    data = request.POST if request.method == "POST" else None
    wanted = request.POST.get("source", "") if data is not None else request.GET.get("from", "")
    if wanted and not slug_re.match(wanted):
        # No tournament has it for its short name (and PostgreSQL refuses a NUL in a query).
        raise Http404
    source = (
        get_object_or_404(selectors.tournaments_organised(user=request.user), slug=wanted)
        if wanted
        else None
    )
    initial: dict = {}
    entries = list(selectors.entry_list(tournament=source)) if source is not None else []
    if source is not None:
        initial = {name: getattr(source, name) for name in selectors.SETTINGS if name not in _FRESH}
        initial["source"] = source.slug
        initial["entries"] = [e.start_number for e in entries if e.status == Entry.Status.ACTIVE]
    players = [(entry.start_number, entry.name) for entry in entries]
    form = TournamentForm(data, initial=initial, players=players)
    if data is not None and OFFICIAL_FILL in data:
        # The official round filled in (TSR 8.1.1), shown again to be saved; nothing saved.
        form = TournamentForm(None, initial={**initial, **form.official_filled()}, players=players)
        data = None
        messages.info(request, _("The official tournament's round is filled in: save to keep it."))
    if data is not None and form.is_valid():
        settings = form.changes()
        try:
            if source is not None:
                tournament = services.tournament_copy(
                    source=source,
                    by=request.user,
                    name=settings.pop("name"),
                    starts_on=settings.pop("starts_on"),
                    ends_on=settings.pop("ends_on"),
                    slug=form.cleaned_data["slug"],
                    entries=form.cleaned_data["entries"],
                    staff=form.cleaned_data["staff"],
                    changes=settings,
                )
            else:
                tournament = services.tournament_create(
                    **settings, slug=form.cleaned_data["slug"], by=request.user
                )
        except ValidationError as error:
            errors_to_form(form, error)
        else:
            messages.success(request, _("The tournament is created, and you are its organiser."))
            if source is not None and form.cleaned_data["staff"]:
                messages.info(
                    request,
                    _(
                        "Its staff are offered their roles again: each holds his once he accepts "
                        "it under “Your roles”. The staff page lists the offers."
                    ),
                )
            return redirect("tournaments:tournament", tournament.slug)
    ticked = {str(number) for number in form["entries"].value() or ()}
    return render(
        request,
        "tournaments/tournament_new.html",
        {
            "form": form,
            "source": source,
            "players": [PlayerChoice(e, str(e.start_number) in ticked) for e in entries],
            "staff_count": source.roles.count() if source is not None else 0,
        },
        status=400 if form.errors else 200,
    )


@login_required
@require_GET
def tournament_new_from(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Choose the earlier tournament a new one takes its settings from: one he organises."""
    _creator(request)
    return render(
        request,
        "tournaments/tournament_new_from.html",
        {"tournaments": selectors.tournaments_organised(user=request.user)},
    )


def _slug_refusal(tournament: Tournament, roles: set[str]) -> policies.Refusal | None:
    use = selectors.slug_use(tournament=tournament)
    return policies.may_change_slug(
        tournament=tournament, roles=roles, printed=use.printed, published=use.published
    )


@login_required
@require_http_methods(["GET", "POST"])
def tournament_settings(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Every setting of the tournament and its short name for links, for its organiser; those
    that would break what was drawn, played or printed are shown locked, with the reason. And
    where it is deleted or archived."""
    tournament = selectors.tournament_get(slug=slug, user=request.user, counts=False)
    roles = roles_of(request, tournament)
    if refusal := policies.may_change_settings(tournament=tournament, roles=roles):
        raise PermissionDenied(refusal.message)
    initial = {name: getattr(tournament, name) for name in selectors.SETTINGS}
    initial["slug"] = tournament.slug
    locks = selectors.settings_locks(tournament=tournament)
    slug_refusal = _slug_refusal(tournament, roles)
    data = request.POST if request.method == "POST" else None
    form = TournamentSettingsForm(
        data, initial=initial, locks=locks, slug_refusal=str(slug_refusal or "")
    )
    if data is not None and OFFICIAL_FILL in data:
        # The official round filled in (TSR 8.1.1), shown again to be saved; nothing saved.
        form = TournamentSettingsForm(
            None,
            initial={**initial, **form.official_filled()},
            locks=locks,
            slug_refusal=str(slug_refusal or ""),
        )
        data = None
        messages.info(request, _("The official tournament's round is filled in: save to keep it."))
    if data is not None and form.is_valid():
        try:
            change = services.tournament_update(
                tournament=tournament, by=request.user, changes=form.changes()
            )
        except ValidationError as error:
            errors_to_form(form, error)
        else:
            if change.changed:
                messages.success(request, _("The settings are saved."))
            else:
                messages.info(request, _("Nothing was changed."))
            report_moves(request, change.reseating)
            return redirect("tournaments:tournament", change.tournament.slug)
    return render(
        request,
        "tournaments/tournament_settings.html",
        {
            "tournament": tournament,
            "form": form,
            "delete_refusal": _delete_refusal(tournament, roles),
        },
        status=400 if form.errors else 200,
    )


def _delete_refusal(tournament: Tournament, roles: set[str]) -> policies.Refusal | None:
    contents = selectors.tournament_contents(tournament=tournament)
    return policies.may_delete_tournament(
        tournament=tournament, roles=roles, confirmed=contents.confirmed
    )


@login_required
@require_http_methods(["GET", "POST"])
def tournament_delete(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Delete the tournament, asked once on a page that lists what goes with it: its
    organisers, while no scoresheet is confirmed; else the page says why and offers to
    archive it."""
    tournament = selectors.tournament_get(slug=slug, user=request.user, counts=False)
    roles = roles_of(request, tournament)
    contents = selectors.tournament_contents(tournament=tournament)
    refusal = policies.may_delete_tournament(
        tournament=tournament, roles=roles, confirmed=contents.confirmed
    )
    if refusal is not None and refusal.field is None:
        raise PermissionDenied(refusal.message)
    if request.method == "POST" and refusal is None:
        try:
            services.tournament_delete(tournament=tournament, by=request.user)
        except ValidationError as error:  # a sheet confirmed meanwhile
            for message in error_messages(error):
                messages.error(request, message)
            return redirect("tournaments:tournament-delete", slug)
        messages.success(
            request, _("The tournament %(name)s is deleted.") % {"name": tournament.name}
        )
        return redirect("tournaments:home")
    return render(
        request,
        "tournaments/tournament_delete.html",
        {"tournament": tournament, "contents": contents, "refusal": refusal},
        status=400 if request.method == "POST" else 200,
    )


@login_required
@require_POST
def tournament_archive(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Archive the tournament (``action=archive``) or take it out of the archive
    (``action=unarchive``): its organisers; back to its page."""
    tournament = selectors.tournament_get(slug=slug, user=request.user, counts=False)
    action = request.POST.get("action", "")
    if action == "archive":
        services.tournament_archive(tournament=tournament, by=request.user)
        messages.success(
            request,
            _(
                "The tournament is archived: it is no longer on the home page, and stays at "
                "its address and in the ranking lists."
            ),
        )
    elif action == "unarchive":
        services.tournament_unarchive(tournament=tournament, by=request.user)
        messages.success(request, _("The tournament is back on the home page."))
    else:
        raise Http404  # no such action
    return redirect("tournaments:tournament", slug)


@require_GET
def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    try:
        tournament = selectors.tournament_get(slug=slug, user=request.user)
    except Http404:
        # A link shared before the organiser changed the short name.
        renamed = selectors.tournament_renamed(slug=slug, user=request.user)
        if renamed is None:
            raise
        return redirect("tournaments:tournament", renamed.slug)
    rounds = list(selectors.tournament_rounds(tournament=tournament))
    roles = roles_of(request, tournament)
    return render(
        request,
        "tournaments/tournament.html",
        {
            "tournament": tournament,
            "rounds": rounds,
            "is_organiser": organises(request, tournament),
            "is_staff": bool(roles_of(request, tournament) & STAFF),
            # For the staff who do not organise: why settings, staff and deleting are not
            # theirs, and whose they are.
            "settings_refusal": policies.may_change_settings(tournament=tournament, roles=roles),
            "can_add_round": len(rounds) < tournament.planned_rounds
            and not (tournament.seating_method == SeatingMethod.DDV and rounds),
            "current": selectors.current_round(tournament=tournament),
            # Only once there are players to seat: a new tournament has nothing to say yet.
            "shortfall": shortfall(tournament, roles)
            if selectors.entry_count_of(tournament)
            else None,
        },
    )


@login_required
@require_POST
def tournament_tables_of_five(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """The organiser allows tables of five (TSR 10) where the players do not divide into
    tables of four (TSR 8.3.1); back to the round page the button was on, if any."""
    tournament = selectors.tournament_get(slug=slug, user=request.user, counts=False)
    try:
        reseating = services.tournament_tables_of_five_allow(tournament=tournament, by=request.user)
    except ValidationError as error:
        for message in error_messages(error):
            messages.error(request, message)
    else:
        messages.success(
            request,
            _(
                "Tables of five are allowed from now on (TSR 10): the next draw seats the "
                "players who do not fill a table of four at tables of five."
            ),
        )
        report_moves(request, reseating)
    number = request.POST.get("round", "")
    if number.isdecimal() and len(number) < 6 and tournament.rounds.filter(number=number).exists():
        return redirect("tournaments:round", slug, int(number))
    return redirect("tournaments:tournament", slug)
