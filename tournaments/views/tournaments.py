"""Pages of tournaments: the list, a tournament's page, and the organiser's settings on it:
tables of five (TSR 10) and what the public sees."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tournaments import selectors, services
from tournaments.forms import PublicationForm, error_messages
from tournaments.models import SeatingMethod
from tournaments.permissions import AuthenticatedHttpRequest, require, roles_of
from tournaments.roles import ORGANISER, STAFF
from tournaments.views.common import organises, report_moves, shortfall


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "tournaments/home.html",
        {"tournaments": selectors.tournament_list(user=request.user)},
    )


@require_GET
def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = selectors.tournament_get(slug=slug, user=request.user)
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
            "can_add_round": len(rounds) < tournament.planned_rounds
            and not (tournament.seating_method == SeatingMethod.DDV and rounds),
            "current": selectors.current_round(tournament=tournament),
            "publication_form": PublicationForm() if organises(request, tournament) else None,
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
        return redirect("round", slug, int(number))
    return redirect("tournament", slug)


@login_required
@require_POST
def tournament_publication(request: HttpRequest, slug: str) -> HttpResponse:
    """The organiser decides what the public sees and how ties are broken."""
    tournament = selectors.tournament_get(slug=slug, user=request.user, counts=False)
    require(request, tournament, ORGANISER)
    form = PublicationForm(request.POST)
    if form.is_valid():
        try:
            services.tournament_publication_update(tournament=tournament, **form.cleaned_data)
        except ValidationError as error:
            for message in error_messages(error):
                messages.error(request, message)
        else:
            messages.success(request, _("The settings are saved."))
    else:
        for field, errors in form.errors.items():
            for text in errors:
                messages.error(request, f"{form.fields[field].label}: {text}")
    return redirect("tournament", slug)
