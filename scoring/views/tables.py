"""A table's page: its players and its sheet, for everyone once the seating is published."""

from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.views.decorators.http import require_GET

from doko.rules.deal import TABLE_SIZES
from scoring import policies
from scoring.models import (
    Scoresheet,
)
from scoring.policies import Actor
from scoring.selectors import hand_lines, scoresheet_check, scoresheet_rows, table_sheet_get
from scoring.selectors.record import first_entry_blind
from scoring.views import table_parts
from scoring.views.sheet_rows import table_rows
from tournaments import caching
from tournaments import policies as tournament_policies
from tournaments import selectors as tournament_selectors
from tournaments.messages import problem_message
from tournaments.models import Round
from tournaments.permissions import roles_of, standings_mode, standings_mode_of
from tournaments.roles import (
    FIRST_INSTANCE,
    SEES_SHEET_LINKS,
    STAFF,
)
from tournaments.site import absolute_url, site_warning

# How often a table's page asks for its sheet again while the round is played; an unchanged
# answer is a 304 (as the standings', tournaments/views/standings.py).
TABLE_POLL_SECONDS = 20


@require_GET
def table_detail(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    """A table of a round: its players, and its sheet as it stands with the adjudicator's
    decisions (the points hidden while the organiser hides the standings). While the round is
    played the page refreshes its sheet itself (``table_live``)."""
    tournament = tournament_selectors.tournament_get(slug=slug, user=request.user, counts=False)
    round_ = tournament_selectors.round_get(tournament=tournament, number=number, counts=False)
    context = _table_context(request, round_, table)
    parts = {
        "status_part": table_parts.table_status(context["sheet"]),
        "seats_part": table_parts.table_seats(context),
        "sheet_part": table_parts.table_sheet(request, context),
    }
    return render(request, "scoring/table.html", {**context, **parts})


@require_GET
def table_live(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    """What of a table's page changes while the round is played (its sheet, the players'
    points, the sheet's state, the decisions), for the page's refresh every
    ``TABLE_POLL_SECONDS``: a 304 while it is unchanged.

    The players' phones, not logged in, get the ETag of the table's versions
    (``table_etag``): their refresh is answered 304 from two numbers in the cache and the
    round's row, the tournament being the cached public head (``tournament_head``), without
    reading the table and its sheet (on a championship's day two phones a player ask every 20
    seconds), and a changed table's answer is built once per version for all of them and kept
    in the cache under its ETag, which names everything it shows. Logged-in readers, whose
    page depends on who they are, get it whole every time: no browser keeps it
    (``config.privacy``)."""
    tournament = tournament_selectors.tournament_head(slug=slug, user=request.user)
    round_ = tournament_selectors.round_get(tournament=tournament, number=number, counts=False)
    etag = None
    if not request.user.is_authenticated:
        mode = standings_mode(request, tournament)
        etag = tournament_selectors.table_etag(round=round_, number=table, mode=mode)
    response = get_conditional_response(request, etag=etag) if etag else None
    if response is None and etag:
        response = HttpResponse(_kept_live(request, round_, table, etag))
    elif response is None:
        response = HttpResponse(
            table_parts.table_live(request, _table_context(request, round_, table))
        )
    if etag:
        response["ETag"] = etag
    response["Cache-Control"] = "no-cache"  # asked again every time
    patch_vary_headers(response, ("Accept-Language", "Cookie"))
    return response


def _kept_live(request: HttpRequest, round_: Round, table: int, etag: str) -> str:
    """The refresh of readers without a login, under its ETag, which names all it shows: built
    once per version for every phone."""
    key = f"table-live:{etag}"
    html = caching.versioned_get(key)
    if html is None:
        html = table_parts.table_live(request, _table_context(request, round_, table))
        caching.versioned_put(key, html)
    return html


def table_live_prepare(*, slug: str, number: int, table: int, language: str) -> None:
    """The refresh of table ``table`` of round ``number`` as ``table_live`` answers readers
    without a login, made and kept under the table's version now, in ``language``: asked
    once a write to the table's sheet has answered (``after_response``, ``sheet_view``), so
    that the first phone to ask after it finds it kept where it made it while it waited (on a
    championship's day the table pages' slowest answers, issue 45). Nothing for a table
    those readers do not see."""
    reader = HttpRequest()
    reader.method = "GET"
    reader.user = AnonymousUser()
    with translation.override(language):
        try:
            tournament = tournament_selectors.public_head(slug=slug).tournament
            round_ = tournament_selectors.round_get(
                tournament=tournament, number=number, counts=False
            )
            mode = standings_mode_of(tournament, roles=set())
            etag = tournament_selectors.table_etag(round=round_, number=table, mode=mode)
            if etag is not None:
                _kept_live(reader, round_, table, etag)
        except Http404:
            return


def _withheld(request: HttpRequest, sheet: Scoresheet) -> str | None:
    """Why this reader sees none of the sheet's hands: its first entry is blind (double entry,
    ``policies.first_entry_hidden``); the same for every phone without a login."""
    if request.user.is_authenticated:
        refusal = policies.first_entry_hidden(sheet=sheet, actor=Actor(user=request.user))
        return refusal.message if refusal is not None else None
    return str(policies.BLIND_TO_PLAYERS) if first_entry_blind(sheet) else None


def _table_context(request: HttpRequest, round_: Round, table: int) -> dict:
    """What a table's page shows of table ``table`` of ``round_`` (read with its tournament)."""
    tournament = round_.tournament
    roles = roles_of(request, tournament)
    if tournament_policies.may_read_seating(round=round_, roles=roles):
        raise Http404  # no table to show yet
    # The sheet read along with the row (ScoresheetPlay.with_points, scoring/play.py), and its
    # hands and adjudication with them.
    found = table_sheet_get(round=round_, number=table)
    row, sheet = found.row, found.sheet
    context = {
        "tournament": tournament,
        "round": round_,
        "row": row,
        "sheet": sheet,
        "sheet_link": sheet is not None and bool(roles & SEES_SHEET_LINKS),
        # Hidden standings hide every table's points from the public too.
        "show_points": standings_mode(request, tournament) != "hidden",
        # The page refreshes its sheet while the round is played, and after the playing time
        # until the round is closed (the last sheets confirmed, complaints decided).
        "poll_seconds": TABLE_POLL_SECONDS
        if round_.status in {Round.Status.RUNNING, Round.Status.FINISHED}
        else None,
    }
    if sheet is not None and len(row.seats) in TABLE_SIZES:
        # Who keeps the sheet: seat 4 (5), or the seat it was handed over to (TSR 3.1.1).
        context["keeper"] = sheet.keeper(len(row.seats))
    links_refused = policies.may_read_seat_links(roles=roles, table=row.table, user=request.user)
    if links_refused is not None and links_refused.plays:
        context["seat_links_refused"] = links_refused  # why, and who reads them instead
    elif links_refused is None:
        # The players' private links to the sheet, to hand out again if a printout is lost.
        context["seat_links"] = [
            (seat, absolute_url(request, reverse("scoring:sheet-link", args=[token])))
            for seat, token in zip(
                row.seats, tournament_selectors.seat_tokens(table=row.table).values(), strict=True
            )
        ]
        context["site_warning"] = site_warning(request)
    if sheet is not None and (withheld := _withheld(request, sheet)) is not None:
        # A sheet checked blind at the desk (double entry): no hands for whom it is hidden.
        context["withheld"] = withheld
    elif sheet is not None and context["show_points"]:
        hands, adjudication = found.hands, found.adjudication
        table_size = len(row.seats)
        hand_rows = scoresheet_rows(
            hands=hands, table_size=table_size, penalties=adjudication.penalties
        )
        context["hand_rows"] = hand_rows
        # Made in Python and kept (issue 45): every phone at a changed table asks again.
        context["table_rows"] = table_rows(hand_rows, adjudication=adjudication)
        context["adjudication"] = adjudication
        # The public sees what counts; staff also what is pending or was replaced on appeal.
        staff = bool(roles & STAFF)
        context["is_staff"] = staff
        context["decisions"] = adjudication.decisions if staff else adjudication.counting
        context["may_complain"] = (
            bool(roles & FIRST_INSTANCE)
            and round_.status in {Round.Status.RUNNING, Round.Status.FINISHED}
            and sheet.status != Scoresheet.Status.CONFIRMED
        )
        try:
            check = scoresheet_check(
                scoresheet=sheet,
                hands=hand_lines(hands),
                table_size=table_size,
                adjudication=adjudication,
            )
        except ValidationError:
            check = None
        context["check"] = check
        context["problems"] = [problem_message(p) for p in check.problems] if check else []
        context["warnings"] = [problem_message(w) for w in check.warnings] if check else []
        context["hands_per_match"] = round_.tournament.hands_at(table_size)
    return context
