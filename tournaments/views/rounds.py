"""Pages of rounds: adding one, the round's page with its seating, the clock and extra time
(TSR 8.5.1), the organiser's and adjudicator's actions on it, the players' "find my table" and
the venue's screen."""

from collections.abc import Set

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from tournaments import policies, selectors, services
from tournaments.forms import ExtraTimeForm, error_messages, errors_to_form
from tournaments.models import Round
from tournaments.permissions import AuthenticatedHttpRequest, require, roles_of, standings_mode
from tournaments.roles import CLOCK, EXTRA_TIME, ORGANISER, SEES_SHEET_LINKS, STAFF, Role
from tournaments.round_actions import ASKED_ROUND_ACTIONS, ROUND_ACTIONS
from tournaments.site import absolute_url, is_loopback
from tournaments.views.common import shortfall


@require_POST
@login_required
def round_add(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = selectors.tournament_get(slug=slug, user=request.user)
    require(request, tournament, ORGANISER)
    try:
        round_ = services.round_create(tournament=tournament)
    except ValidationError as error:
        for message in error_messages(error):
            messages.error(request, message)
        return redirect("tournaments:tournament", slug)
    return redirect("tournaments:round", slug, round_.number)


def _repairs(round_: Round, roles: Set[str]) -> dict:
    """Which repairs of a round that has not started the page offers: undoing its draw (and,
    by the DDV method, the later rounds drawn with it), deleting it if it is the last."""
    not_started = round_.status in {Round.Status.PLANNED, Round.Status.SEATED}
    may_unseat = (
        round_.status == Round.Status.SEATED
        and policies.may_undo_draw(round=round_, roles=roles) is None
    )
    may_delete = (
        not_started
        and policies.may_delete_round(round=round_, roles=roles) is None
        and selectors.round_is_last(round=round_)
    )
    return {"may_unseat": may_unseat, "may_delete": may_delete}


def _askable(round_: Round, roles: Set[str], repairs: dict) -> dict:
    """The actions of ``ASKED_ROUND_ACTIONS`` the page offers now: ``?ask=`` asks only these."""
    return {
        "seat": round_.status == Round.Status.SEATED
        and policies.may_seat_round(round=round_, roles=roles) is None,
        "unseat": repairs["may_unseat"],
        "delete": repairs["may_delete"],
        "end": round_.status == Round.Status.RUNNING
        and policies.may_end_playing_time(round=round_, roles=roles) is None,
    }


@require_GET
def round_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A round: its seating, clock and actions. ``?ask=<action>`` asks once, beside the
    buttons, before an action that cannot be taken back: drawing again, undoing the draw,
    deleting the round, ending the playing time (nothing is changed)."""
    tournament = selectors.tournament_get(slug=slug, user=request.user)
    round_ = selectors.round_get(tournament=tournament, number=number)
    roles = roles_of(request, tournament)
    staff = bool(roles & STAFF)
    show_seating = policies.may_read_seating(round=round_, roles=roles) is None
    repairs = _repairs(round_, roles)
    askable = _askable(round_, roles, repairs)
    ask = request.GET.get("ask")
    if ask is not None and ask not in ASKED_ROUND_ACTIONS:
        raise Http404
    if ask is not None and not askable[ask]:
        ask = None  # nothing to ask: the page shows why not, or offers nothing
    tables = selectors.round_tables(round=round_, with_teams=True) if show_seating else []
    return render(
        request,
        "tournaments/round.html",
        {
            "tournament": tournament,
            "round": round_,
            "neighbours": selectors.round_neighbours(round=round_),
            "tables": tables,
            # A Springer (TSR 10) sits at two tables: both his seats are marked.
            "springers": {seat.entry.pk for row in tables for seat in row.seats if seat.second},
            "show_seating": show_seating,
            "show_points": standings_mode(request, tournament) != "hidden",
            "is_organiser": Role.ORGANISER in roles,
            "runs_clock": bool(roles & CLOCK),
            "may_end": policies.may_end_playing_time(round=round_, roles=roles) is None,
            "shortfall": shortfall(tournament, roles)
            if round_.status in {Round.Status.PLANNED, Round.Status.SEATED}
            else None,
            "staff": staff,
            # TSR 8.2.1: warned before the round starts, while the staff can still be appointed.
            "rulers_missing": selectors.rulers_missing(tournament=tournament)
            if Role.ORGANISER in roles
            and round_.status in {Round.Status.PLANNED, Round.Status.SEATED}
            else [],
            # Staff and scorekeepers open each table's scoresheet from here once play begins.
            "sheet_links": bool(roles & SEES_SHEET_LINKS)
            and round_.status in {Round.Status.RUNNING, Round.Status.FINISHED, Round.Status.CLOSED},
            "quality": selectors.seating_quality(round=round_) if staff else None,
            "clock": selectors.round_clock(round=round_),
            # Whoever may rule at a table gives it extra time (TSR 8.5.1); at which table,
            # ``policies.may_grant_extra_time`` says when the form is sent.
            "extra_form": ExtraTimeForm() if roles & EXTRA_TIME else None,
            "unpublished_later": tournament.rounds.filter(
                status=Round.Status.SEATED, published_at=None
            ).exists()
            if Role.ORGANISER in roles
            else False,
            **repairs,
            "may_reseat": askable["seat"],
            "ask": ask,
            # The rounds planned again with it (by the DDV method, the later ones drawn too).
            "undone_with": list(
                selectors.rounds_drawn_with(round=round_).values_list("number", flat=True)
            )
            if ask == "unseat"
            else [],
        },
    )


@require_GET
def round_clock(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The round clock alone, for the pages that refresh it: a 304 while its end and state are
    as the page has them (``clock_etag``), whatever the seconds left, which the page counts
    down itself (static/js/clock.js); every phone at the venue asks every 30 seconds. A phone
    without a login costs one query, the round's row: the tournament is the cached public head
    (``tournament_head``), the tables' sizes and extra time kept by version (``round_clock``)."""
    tournament = selectors.tournament_head(slug=slug, user=request.user)
    round_ = selectors.round_get(tournament=tournament, number=number, counts=False)
    clock = selectors.round_clock(round=round_)
    staff = bool(roles_of(request, tournament) & STAFF)
    etag = selectors.clock_etag(clock=clock, staff=staff)
    response = get_conditional_response(request, etag=etag)
    if response is None:
        response = render(
            request,
            "tournaments/partials/clock.html",
            {"tournament": tournament, "round": round_, "clock": clock, "staff": staff},
        )
    # Asked again every time, answered in full only when changed.
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    patch_vary_headers(response, ("Accept-Language", "Cookie"))
    return response


def _round_for(request: HttpRequest, slug: str, number: int, roles: Set[str] | None) -> Round:
    """The round, for a user with one of ``roles``; ``None``: its service asks its policy."""
    tournament = selectors.tournament_get(slug=slug, user=request.user)
    if roles is not None:
        require(request, tournament, roles)
    return get_object_or_404(
        Round.objects.select_related("tournament"), tournament=tournament, number=number
    )


def _action_done(action: str, result: object) -> str:
    if action == "unseat":
        assert isinstance(result, list)  # the rounds planned again (services.round_unseat)
        numbers = [each.number for each in result]
        if len(numbers) > 1:
            return _("The draw is undone: rounds %(first)d to %(last)d are planned again.") % {
                "first": numbers[0],
                "last": numbers[-1],
            }
        return _("The draw is undone: round %(number)d is planned again.") % {"number": numbers[0]}
    if action == "delete":
        return _("Round %(number)d is deleted.") % {"number": result}
    return {
        "seat": _("The seating is drawn. Check it, then publish it."),
        "publish": _("The seating is published: players can find their table."),
        "publish_all": _("The seating of every drawn round is published."),
        "start": _("The round has started. The clock runs for all tables."),
        "end": _(
            "The playing time has ended: hands begun are finished, only forced solos follow (TSR 8.5.3)."
        ),
        "close": _("The round is closed."),
    }[action]


@login_required
@require_POST
def round_action(
    request: AuthenticatedHttpRequest, slug: str, number: int, action: str
) -> HttpResponse:
    if action not in ROUND_ACTIONS:
        raise Http404
    round_ = _round_for(request, slug, number, None)
    policies.enforce(
        ROUND_ACTIONS[action].refusal(round=round_, roles=roles_of(request, round_.tournament))
    )
    try:
        result = ROUND_ACTIONS[action].run(round_, request.user, None)
    except ValidationError as error:
        for message in error_messages(error):
            messages.error(request, message)
    else:
        messages.success(request, _action_done(action, result))
        if action == "delete":
            return redirect("tournaments:tournament", slug)
    return redirect("tournaments:round", slug, number)


@login_required
@require_POST
def round_extra_time(request: AuthenticatedHttpRequest, slug: str, number: int) -> HttpResponse:
    # Who gives extra time at all; at which table, the service's policy (its refusal on the form).
    round_ = _round_for(request, slug, number, EXTRA_TIME)
    form = ExtraTimeForm(request.POST)
    if form.is_valid():
        table = round_.tables.filter(number=form.cleaned_data["table"]).first()
        if table is None:
            form.add_error("table", _("Round %(number)d has no such table.") % {"number": number})
        else:
            try:
                granted = services.table_extra_time_grant(
                    table=table,
                    minutes=form.cleaned_data["minutes"],
                    reason=form.cleaned_data["reason"],
                    by=request.user,
                )
            except ValidationError as error:
                errors_to_form(form, error)
            except PermissionDenied as error:  # his own table: who gives it instead
                form.add_error("table", str(error))
            else:
                messages.success(
                    request,
                    ngettext(
                        "Table %(table)d has %(minutes)d more minute.",
                        "Table %(table)d has %(minutes)d more minutes.",
                        granted.minutes,
                    )
                    % {"table": table.number, "minutes": granted.minutes},
                )
                return redirect("tournaments:round", slug, number)
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else ""
        for message in errors:
            # An ErrorList gives each error's message (its __getitem__ unwraps a
            # ValidationError); the stubs type its items as stored, ValidationError included.
            messages.error(request, f"{label}: {message}" if label else message)  # type: ignore[arg-type]
    return redirect("tournaments:round", slug, number)


@require_GET
def find_table(request: HttpRequest, slug: str) -> HttpResponse:
    """Players find their table and seat by name or start number; no login needed."""
    tournament = selectors.tournament_get(slug=slug, user=request.user)
    query = request.GET.get("q", "")[:100]
    unpublished = policies.may_read_unpublished_seating(roles=roles_of(request, tournament))
    context = {
        "tournament": tournament,
        "query": query,
        "found": selectors.seat_find(tournament=tournament, query=query, staff=unpublished is None),
        "limit": selectors.FIND_LIMIT,
    }
    if request.headers.get("HX-Request"):
        return render(request, "tournaments/partials/found.html", context)
    return render(request, "tournaments/find.html", context)


@require_GET
def venue_screen(request: HttpRequest, slug: str) -> HttpResponse:
    """The projector at the venue: the round clock and every player's table, by name; once
    the round is over, the next round's seating or the standings (``selectors.screen_shows``).

    The same page for the hall and for staff, so when the QR code's address is this machine
    only, the organiser (who may print, and so set the site up) sees a small note beneath it.
    """
    tournament = selectors.tournament_get(slug=slug, user=request.user)
    shows = selectors.screen_shows(tournament=tournament)
    round_ = shows.round
    find_url = absolute_url(request, reverse("tournaments:find", args=[slug]))
    # The hall reads the screen: it shows the standings only as the public sees them.
    standings_hidden = policies.may_read_standings(tournament=tournament, roles=()) is not None
    standings = (
        selectors.standings_read(tournament=tournament)
        if shows.standings_after and not standings_hidden
        else None
    )
    context = {
        "tournament": tournament,
        "round": round_,
        "standings_after": shows.standings_after,
        "standings_hidden": standings_hidden,
        # Those who have not played yet are unranked: the hall reads only how many they are.
        "standings_rows": [row for row in standings.rows if not row.not_played]
        if standings
        else [],
        "not_played": sum(row.not_played for row in standings.rows) if standings else 0,
        "next_round": shows.standings_after + 1
        if shows.standings_after and shows.standings_after < tournament.planned_rounds
        else None,
        "clock": selectors.round_clock(round=round_) if round_ else None,
        "seats": selectors.round_seats_by_name(round=round_) if round_ else [],
        "find_url": find_url,
        "unreachable": is_loopback(find_url)
        and policies.may_print(roles=roles_of(request, tournament)) is None,
        "now": timezone.now(),
    }
    if request.headers.get("HX-Request"):
        return render(request, "tournaments/partials/screen_body.html", context)
    return render(request, "tournaments/screen.html", context)
